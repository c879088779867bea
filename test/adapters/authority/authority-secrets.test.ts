import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { SimulatedAuthority } from '../../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../../adapters/authority/simulated/index.js';
import { displayName, sortKey } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import type { CliResult } from '../../support/cli.js';
import { cliEnv, runInProcess } from '../../support/cli.js';
import { tableNames, testDatabases } from '../../support/databases.js';
import { seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';
import { databaseOf } from '../../support/app.js';

// A sync whose login fails on every failure page the authority is known to show (wrong key,
// blocked key, forced change, CAPTCHA, second factor, an unknown page after the password)
// leaves no secret anywhere: not the passwords, not one session id, cookie value, jwt, token
// or sign the authority handed out (in clear, URL-encoded, base64 or hex), no ;jsessionid=,
// in the database, the CLI's output and logs (sync, sync status, authority probe), nor in
// the pages captured for diagnosis, which keep their structure with names and e-mails masked.

const internals = {
    secretKey: randomBytes(32).toString('base64'),

    // One key per failure page; the last one meets a page nobody has seen after the password.
    keys: [
        ['20301234561', 'mala-clave-9f3a'],
        ['27301234562', 'bloqueada-clave-77c1'],
        ['20301234563', 'vencida-clave-0b5e'],
        ['27301234564', 'captcha-clave-c4d2'],
        ['20301234565', 'segundo-clave-a81f'],
        ['27301234566', 'desconocida-clave-5e6d']
    ] as const,

    forms(secret: string): string[] {

        const bytes = Buffer.from(secret, 'utf8');
        return [secret, encodeURIComponent(secret), decodeURIComponent(secret), bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')];
    },

    // Every row of every table, as text.
    async dump(knex: Knex): Promise<string> {

        const parts: string[] = [];
        for (const table of await tableNames(knex)) {
            const rows = await knex(table).select('*') as Record<string, unknown>[];
            parts.push(JSON.stringify(rows, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('latin1') : value)));
        }

        return parts.join('\n');
    }
};

for (const database of testDatabases()) {

    describe(`no session id nor secret after failed logins (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        let cwd: string;
        const cli = (...args: string[]): Promise<CliResult> => runInProcess(args, {
            cwd,
            env: cliEnv(server.app.config.databaseUrl, { ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'arca', AUTHORITY_URL: authority.url })
        });

        before(async () => {

            cwd = mkdtempSync(join(tmpdir(), 'arcasync-secrets-'));
            authority = await startSimulatedAuthority({ port: 0 });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            const { accountId } = await seedAccount(server.app.ports);
            for (const [cuit, password] of internals.keys) {
                const names = { nombre: 'Ana', apellido: cuit, razonSocial: null };
                const name = displayName({ tipo: 'persona-fisica', ...names });
                await server.app.ports.clients.insert({
                    publicId: randomUUID(), accountId, cuit: cuit as Cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                    displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: server.app.ports.secretBox.seal(
                        password
                    ), keyDigest: await server.app.ports.keyIdentity.of(cuit as Cuit, password), createdAt: Date.now()
                });
            }
        });

        after(async () => {

            await server.stop();
            await authority.stop();
            rmSync(cwd, { recursive: true, force: true });
        });

        it('greps the database, the CLI output and the captures for every secret the authority saw or handed out', async () => {

            // The probes first: each posts its key and meets its failure page, which ends the
            // key's day in the ledger, so the sync after them posts nothing more.
            const outputs: CliResult[] = [];
            for (const [cuit] of internals.keys) {
                outputs.push(await cli('authority', 'probe', '--cuit', cuit, '--json'));
            }

            const sync = await cli('sync', '--all', '--json');
            expect(sync.code, sync.stderr).to.equal(3);
            expect(JSON.parse(sync.stdout)).to.include({ jobs: internals.keys.length, synced: 0, failed: internals.keys.length });
            outputs.push(sync, await cli('sync', 'status', '--json'), await cli('sync', 'status'));

            const captures = readdirSync(join(cwd, 'data', 'diagnostics')).map((file) => readFileSync(join(cwd, 'data', 'diagnostics', file), 'utf8'));
            expect(captures.length).to.be.at.least(1);                    // the unknown page the probe met
            const issued = authority.issued();
            expect(issued.length).to.be.greaterThan(internals.keys.length);
            const places = {
                database: await internals.dump(databaseOf(server.app)),
                cli: outputs.map((output) => output.stdout + output.stderr).join('\n'),
                captures: captures.join('\n')
            };
            const secrets = [...internals.keys.map(([, password]) => password), ...issued];
            for (const [place, text] of Object.entries(places)) {
                expect(text, place).to.not.match(/jsessionid=/i);
                expect(text, place).to.not.match(/(JSESSIONID|AFIPSID|SESSION_TOKEN)=(?!\[redactado\])/);
                for (const secret of secrets) {
                    for (const form of internals.forms(secret)) {
                        expect(text.includes(form), `${place} holds ${form.slice(0, 12)}…`).to.equal(false);
                    }
                }
            }

            // The unknown page is captured with its structure, the name it showed masked.
            const unknown = captures.find((text) => text.includes('Aviso importante'));
            expect(unknown, captures.join('\n---\n').slice(0, 2000)).to.not.equal(undefined);
            expect(unknown).to.match(/<div class="container"><h1>Aviso importante<\/h1><p class="usuario">Hola, X+ X+( X+)?<\/p>/);
        });
    });
}
