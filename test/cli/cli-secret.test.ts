import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { aesGcmSecretBox, generateKey, keyIdOf } from '../../adapters/crypto/secret-box.js';
import { loadConfig } from '../../app/config.js';
import { ensureKeyFile, planRotation, readKeyFile, writeKeyFile } from '../../app/secret-keys.js';
import type { ClientRepository } from '../../core/ports/index.js';
import { resealStoredKeys } from '../../core/use-cases/reseal-stored-keys.js';
import type { CliResult } from '../support/cli.js';
import { runCli, runInProcess, startCliProcess } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { noRateLimits } from '../support/endpoints.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startServerOn, startTestServer } from '../support/server.js';
import { operatorMessages } from '../../app/messages.js';
import { databaseOf } from '../support/app.js';

// `arcasync secret rotate` and `secret status`: every stored key re-sealed under a new key
// while the service keeps answering; only key ids are ever printed.

const internals = {
    json(result: CliResult): any {

        // the command's one JSON object

        expect(result.code, result.stderr).to.equal(0);
        expect(result.stderr).to.equal('');
        return JSON.parse(result.stdout.trim());
    }
};

for (const database of testDatabases()) {

    describe(`secret rotation (${database.name})`, function () {

        this.timeout(120_000);

        const oldKey = generateKey();
        const newKey = generateKey();
        const b64 = (key: Buffer): string => key.toString('base64');
        const credentials = ['Rotar-Clave-Uno', 'Rotar-Clave-Dos', 'Rotar-Clave-Tres'];
        let server: TestServer;
        let owner: SeededUser;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, env: { ARCASYNC_SECRET_KEY: b64(oldKey) } });
            owner = await seedAccount(server.app.ports, { writing: true });
            for (const [index, clave] of credentials.entries()) {
                const res = await server.request('/v1/cuits', { token: owner.token, method: 'POST', body: { tipo: 'persona-fisica', cuit: `2010000000${index}`, nombre: 'N', apellido: `A${index}`, clave_arca: clave } });
                expect(res.status, res.text).to.equal(201);
            }
        });

        after(async () => {

            await server.stop();
        });

        const stored = async (): Promise<string[]> => (await databaseOf(server.app)('clients').whereNotNull('clave_arca').orderBy('cuit').pluck(
            'clave_arca'
        )) as string[];
        const secretsIn = (text: string): string[] => [...credentials, b64(oldKey), b64(newKey)].filter((secret) => text.includes(secret));

        it('re-seals every stored key under ARCASYNC_NEW_SECRET_KEY, printing key ids only', async () => {

            // The authority refused the first client's key: that must survive the re-sealing.
            const refused = await databaseOf(server.app)('clients').where({ cuit: '20100000000', account_id: owner.accountId }).first();
            await databaseOf(server.app)('sync_key_failures').insert({
                client_id: refused.id,
                key_fingerprint: refused.key_digest,
                kind: 'rejected_key',
                failed_at: 1
            });

            const result = await runCli(server.app.config.databaseUrl, ['secret', 'rotate', '--json'], {
                ARCASYNC_SECRET_KEY: b64(oldKey),
                ARCASYNC_NEW_SECRET_KEY: b64(newKey)
            });
            const report = internals.json(result);
            expect(report).to.include({ keyId: keyIdOf(newKey), total: 3, resealed: 3, alreadyCurrent: 0, unreadable: 0, generated: false });
            expect(report.previousKeyIds).to.deep.equal([keyIdOf(oldKey)]);
            expect(secretsIn(result.stdout + result.stderr)).to.deep.equal([]);

            const box = aesGcmSecretBox({ current: newKey, previous: [] });
            const values = await stored();
            expect(values.map((sealed) => box.keyIdOf(sealed))).to.deep.equal([keyIdOf(newKey), keyIdOf(newKey), keyIdOf(newKey)]);
            expect(values.map((sealed) => box.open(sealed))).to.deep.equal(credentials);
            const failure = await databaseOf(server.app)('sync_key_failures').where({ client_id: refused.id }).first();
            // A key's identity is its plaintext's: re-sealing it changes nothing of it.
            expect(failure.key_fingerprint).to.equal(refused.key_digest).and.to.match(/^[0-9a-f]{64}$/);

            const text = await runCli(server.app.config.databaseUrl, ['secret', 'rotate'], {
                ARCASYNC_SECRET_KEY: b64(newKey),
                ARCASYNC_SECRET_KEYS: b64(oldKey)
            });
            expect(text.code, text.stderr).to.equal(0);
            expect(text.stdout).to.contain(`clave ${keyIdOf(newKey)}: 0 re-cifradas, 3 ya lo estaban`);
        });

        it('leaves the API and the clients working on the new key, the old one kept to open stragglers', async () => {

            const next = await startServerOn(server, {
                rateLimits: noRateLimits,
                env: { ARCASYNC_SECRET_KEY: b64(newKey), ARCASYNC_SECRET_KEYS: b64(oldKey) }
            });
            try {
                // A value an old process sealed after the rotation still opens.
                const straggler = aesGcmSecretBox({ current: oldKey, previous: [] }).seal('Rezagada');
                await databaseOf(server.app)('clients').where({ cuit: '20100000002', account_id: owner.accountId }).update({ clave_arca: straggler });
                expect(next.app.ports.secretBox.open(straggler)).to.equal('Rezagada');

                const list = await next.request('/v1/cuits', { token: owner.token });
                expect(list.status).to.equal(200);
                expect(list.body.data).to.have.length(3);
                const edit = await next.request('/v1/cuits/20100000001', {
                    token: owner.token,
                    method: 'PATCH',
                    body: { clave_arca: 'Nueva-Tras-Rotar', nombre: 'Editada' }
                });
                expect(edit.status, edit.text).to.equal(200);
                const created = await next.request('/v1/cuits', {
                    token: owner.token,
                    method: 'POST',
                    body: { tipo: 'persona-fisica', cuit: '20100000009', nombre: 'N', apellido: 'Z', clave_arca: 'Creada-Tras-Rotar' }
                });
                expect(created.status, created.text).to.equal(201);
                const values = await stored();
                expect(values.map((sealed) => next.app.ports.secretBox.open(sealed))).to.deep.equal(
                    ['Rotar-Clave-Uno', 'Nueva-Tras-Rotar', 'Rezagada', 'Creada-Tras-Rotar']
                );

                const status = internals.json(
                    await runCli(server.app.config.databaseUrl, ['secret', 'status', '--json'], {
                        ARCASYNC_SECRET_KEY: b64(newKey),
                        ARCASYNC_SECRET_KEYS: b64(oldKey)
                    })
                );
                expect(status.keyId).to.equal(keyIdOf(newKey));
                expect(status.keys).to.deep.equal([{ keyId: keyIdOf(newKey), count: 3, current: true }, { keyId: keyIdOf(oldKey), count: 1, current: false }]);

                // Finishing the rotation: the straggler too, then nothing is left under the old key.
                const finish = internals.json(
                    await runCli(server.app.config.databaseUrl, ['secret', 'rotate', '--json'], {
                        ARCASYNC_SECRET_KEY: b64(newKey),
                        ARCASYNC_SECRET_KEYS: b64(oldKey)
                    })
                );
                expect(finish).to.include({ resealed: 1, alreadyCurrent: 3 });
                const after = internals.json(await runCli(server.app.config.databaseUrl, ['secret', 'status', '--json'], { ARCASYNC_SECRET_KEY: b64(newKey) }));
                expect(after.keys).to.deep.equal([{ keyId: keyIdOf(newKey), count: 4, current: true }]);
            }
            finally {
                await next.stop();
            }
        });

        it('reports values it cannot open with a one-line error and re-seals the rest', async () => {

            const unknown = aesGcmSecretBox({ current: generateKey(), previous: [] }).seal('Inabrible');
            await databaseOf(server.app)('clients').where({ cuit: '20100000000', account_id: owner.accountId }).update({ clave_arca: unknown });
            const third = generateKey();
            const result = await runCli(server.app.config.databaseUrl, ['secret', 'rotate', '--json'], {
                ARCASYNC_SECRET_KEY: b64(newKey),
                ARCASYNC_NEW_SECRET_KEY: b64(third)
            });
            expect(result.code).to.not.equal(0);
            const report = JSON.parse(result.stdout.trim());
            expect(report).to.include({ total: 4, resealed: 3, unreadable: 1 });
            expect(result.stderr.trim().split('\n')).to.have.length(1);
            expect(result.stderr).to.contain('1 credencial guardada no se pudo descifrar');
            expect(result.stderr + result.stdout).to.not.contain('Inabrible');
        });

        it('requires a key on a database other than the embedded default', async () => {

            const result = await runCli(server.app.config.databaseUrl, ['secret', 'rotate'], {});
            expect(result.code).to.not.equal(0);
            expect(result.stderr.trim()).to.equal(`Error: ${operatorMessages.secretKeyMissing}`);
        });
    });
}

describe('secret rotation on the key file of the embedded default', () => {

    let dir: string;

    beforeEach(() => {

        dir = mkdtempSync(join(tmpdir(), 'arcasync-rotate-'));
    });

    afterEach(() => {

        rmSync(dir, { recursive: true, force: true });
    });

    it('generates a new current key and keeps the previous ones after it, mode 0600', () => {

        const config = { ...loadConfig({}), dataDir: dir };
        const path = join(dir, 'secret.key');
        const first = ensureKeyFile(path);
        const plan = planRotation(config, undefined);
        expect(plan).to.include({ source: 'file', path, generated: true });
        expect(keyIdOf(plan.keyring.current)).to.not.equal(keyIdOf(first.current));
        expect(plan.previousKeyIds).to.deep.equal([keyIdOf(first.current)]);
        writeKeyFile(path, plan.keyring);
        expect(statSync(path).mode & 0o777).to.equal(0o600);
        const reread = readKeyFile(path)!;
        expect(reread.current.equals(plan.keyring.current)).to.equal(true);
        expect(reread.previous.map(keyIdOf)).to.deep.equal([keyIdOf(first.current)]);
        expect(readFileSync(path, 'utf8').trim().split('\n')).to.have.length(2);

        const given = generateKey();
        const withGiven = planRotation(config, given.toString('base64'));
        expect(withGiven.generated).to.equal(false);
        expect(withGiven.keyring.current.equals(given)).to.equal(true);
        expect(withGiven.previousKeyIds).to.deep.equal([keyIdOf(plan.keyring.current), keyIdOf(first.current)]);
    });

    it('re-seals through the port, and an edit made meanwhile is not overwritten', async () => {

        const oldKey = generateKey();
        const oldBox = aesGcmSecretBox({ current: oldKey, previous: [] });
        const rows = new Map<number, string>([[1, oldBox.seal('uno')], [2, oldBox.seal('dos')]]);
        const newKey = generateKey();
        const box = aesGcmSecretBox({ current: newKey, previous: [] });
        let raced = false;
        const clients = {
            listSealedKeys: async (afterId: number, limit: number) => [...rows].filter(([id]) => id > afterId).slice(0, limit).map(
                ([id, sealedKey]) => ({ id, sealedKey })
            ),
            replaceSealedKey: async (id: number, expected: string, next: string) => {

                if (id === 2 && !raced) {
                    // An edit lands between the read and the write, sealed by a new process.
                    raced = true;
                    rows.set(2, box.seal('dos-editada'));
                }

                if (rows.get(id) !== expected) {
                    return false;
                }

                rows.set(id, next);
                return true;
            }
        };
        const report = await resealStoredKeys({
            clients: clients as unknown as ClientRepository,
            secretBox: aesGcmSecretBox({ current: newKey, previous: [oldKey] })
        });
        expect(report).to.include({ total: 2, resealed: 1, alreadyCurrent: 1, unreadable: 0 });
        expect([...rows.values()].map((sealed) => box.open(sealed))).to.deep.equal(['uno', 'dos-editada']);
    });
});

describe('secret rotate seen by a running server (embedded key file)', function () {

    this.timeout(120_000);

    it('the server seals what comes after the rotation with the new key, without a restart', async () => {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-rotate-live-'));
        const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
        for (const name of ['DATABASE_URL', 'TEST_MYSQL_URL', 'ARCASYNC_SECRET_KEY', 'ARCASYNC_SECRET_KEYS', 'AUTHORITY', 'AUTHORITY_URL']) {
            delete env[name];
        }

        const cli = async (argv: string[]) => {

            const result = await runInProcess([...argv, '--json'], { cwd: dir, env });
            expect(result.code, `${argv.join(' ')}: ${result.stderr}`).to.equal(0);
            return JSON.parse(result.stdout) as Record<string, any>;
        };
        const serving = await (async () => {

            await cli(['migrate']);
            const account = await cli(['account', 'create', '--name', 'Estudio', '--writing']);
            const user = await cli(['user', 'create', '--account', String(account.id), '--email', 'rota@example.com']);
            const { token } = await cli(['token', 'create', '--user', String(user.id)]);
            const started = await startCliProcess(['serve', '--host', '127.0.0.1', '--port', '0', '--json'], { cwd: dir, env });
            return { ...started, token: token as string };
        })();
        try {
            const create = (cuit: string, nombre: string) => fetch(`${serving.first.url}/v1/cuits`, {
                method: 'POST',
                headers: { authorization: `Bearer ${serving.token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ tipo: 'persona-fisica', cuit, nombre, apellido: 'Prueba', clave_arca: `clave-${nombre}` })
            });
            expect((await create('20-12345678-6', 'Antes')).status).to.equal(201);
            const rotated = await cli(['secret', 'rotate']);
            expect(rotated).to.include({ generated: true, resealed: 1 });

            expect((await create('27-23456789-1', 'Despues')).status).to.equal(201);
            const status = await cli(['secret', 'status']);
            expect(status.keyId).to.equal(rotated.keyId);
            expect(status.keys).to.deep.equal([{ keyId: rotated.keyId, count: 2, current: true }]);
        }
        finally {
            serving.child.kill('SIGTERM');
            await serving.exited;
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
