import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { aesGcmSecretBox, generateKey, keyIdOf } from '../../../adapters/crypto/secret-box.js';
import type { OAuthStore } from '../../../core/ports/index.js';
import { resealStoredKeys } from '../../../core/use-cases/reseal-stored-keys.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { texts } from '../../../servers/oauth/texts.js';
import { runCli, runInProcess } from '../../support/cli.js';
import type { CliResult } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccount } from '../../support/fixtures.js';
import { grant, mcpStatus, oauthTest, register, tokenRequest } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';
import { startServerOn, startTestServer } from '../../support/server.js';

// `arcasync secret rotate` re-seals the OAuth server's own keys (cookie keys, the token signing
// key set, the consent form's CSRF key) with the credentials and webhook secrets: once
// `secret status` shows nothing under the old key and the old key leaves the keyring (as
// docs/operations.md tells the operator), a server holding only the new key still honours every
// token and session issued before. A process that cannot open those keys refuses to start and
// says which key to put back, instead of replacing them (every token would break).

const internals = {
    b64: (key: Buffer): string => key.toString('base64'),

    json(result: CliResult): any {

        // the command's one JSON object

        expect(result.code, result.stderr).to.equal(0);
        return JSON.parse(result.stdout.trim());
    }
};

for (const database of testDatabases()) {

    describe(`OAuth server keys in a key rotation (${database.name})`, function () {

        this.timeout(120_000);

        const oldKey = generateKey();
        const newKey = generateKey();
        const onlyOld = { ARCASYNC_SECRET_KEY: internals.b64(oldKey) };
        const onlyNew = { ARCASYNC_SECRET_KEY: internals.b64(newKey) };
        let server: TestServer;
        let email: string;
        let clientId: string;

        const cli = (env: Record<string, string>, ...args: string[]) => runCli(server.app.config.databaseUrl, args, env);

        before(async () => {

            server = await startTestServer(database, { env: onlyOld });
            const user = await seedAccount(server.app.ports);
            await setPassword(server.app.ports, { userId: user.userId, password: oauthTest.password });
            email = (await server.app.ports.users.findById(user.userId))!.email;
            clientId = await register(server);
        });

        after(async () => {

            await server?.stop();
        });

        it('re-seals them: after the old key leaves, the access token still opens /mcp and the refresh token still refreshes', async () => {

            const tokens = await grant(server, clientId, email);
            expect((await mcpStatus(server, tokens.access_token)).status).to.equal(200);
            // Stopped for the key change (the rotation itself needs no stop).
            await server.server.stop();

            const rotated = await cli({ ...onlyOld, ARCASYNC_NEW_SECRET_KEY: internals.b64(newKey) }, 'secret', 'rotate', '--json');
            expect(internals.json(rotated).oauthSecrets).to.deep.equal({ total: 3, resealed: 3, alreadyCurrent: 0, unreadable: 0, unreadableIds: [] });
            const again = await cli(onlyNew, 'secret', 'rotate');
            expect(again.stdout).to.contain('Claves del servidor OAuth (cookies, firma de tokens, CSRF): 0 re-cifradas, 3 ya lo estaban (de 3).');

            // Nothing left under the old key: the operator drops it.
            const status = internals.json(await cli(onlyNew, 'secret', 'status', '--json'));
            expect(status.oauthSecrets).to.deep.equal([{ keyId: keyIdOf(newKey), count: 3, current: true }]);
            expect((await cli(onlyNew, 'secret', 'status')).stdout).to.contain(`${keyIdOf(newKey)}: 3 claves del servidor OAuth (actual)`);

            // The server restarted with the new key only, where its clients know it.
            const restarted = await startServerOn(server, { env: onlyNew, port: Number(new URL(server.url).port) });
            try {
                expect((await mcpStatus(restarted, tokens.access_token)).status).to.equal(200);
                const refreshed = await tokenRequest(restarted, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
                expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
                expect((await mcpStatus(restarted, refreshed.body.access_token as string)).status).to.equal(200);
                // Signing in and consenting (cookies, CSRF) works too.
                const fresh = await grant(restarted, clientId, email);
                expect((await mcpStatus(restarted, fresh.access_token)).status).to.equal(200);
            }
            finally {
                await restarted.stop();
            }
        });

        it('a process without the key that sealed them refuses to start, saying which key to put back; a running one logs why and replaces nothing', async () => {

            const otherKey = { ARCASYNC_SECRET_KEY: internals.b64(generateKey()) };
            const stored = internals.json(await cli(onlyNew, 'secret', 'status', '--json')).oauthSecrets;
            expect(stored).to.have.length(1);

            const listening = new AbortController();
            const served = await runInProcess(['serve', '--host', '127.0.0.1', '--port', '0'], {
                env: { ...process.env, DATABASE_URL: server.app.config.databaseUrl, ...otherKey },
                signal: listening.signal,
                // Started after all (the behaviour this test refuses): stop it.
                onStdout: (text) => text.includes('escuchando') && listening.abort()
            });
            expect(served.code).to.not.equal(0);
            expect(served.stderr).to.contain(texts.serverSecretUnreadable([keyIdOf(newKey)]));

            // A server that started anyway (an embedding caller that skipped the check): the
            // request fails, the log says why with key ids only, and nothing was replaced.
            let log = '';
            const logger = pino({ level: 'info' }, new Writable({
                write(chunk: Buffer, _encoding, done) {

                    log += chunk.toString();
                    done();
                }
            }));
            const other = await startServerOn(server, { env: otherKey, logger });
            try {
                expect((await mcpStatus(other, 'un-token-cualquiera')).status).to.equal(500);
            }
            finally {
                await other.stop();
            }

            expect(log).to.contain('oauth server key unreadable').and.contain(keyIdOf(newKey));
            expect(internals.json(await cli(onlyNew, 'secret', 'status', '--json')).oauthSecrets).to.deep.equal(stored);
        });

        it('re-seals each key by compare-and-set: a concurrent re-seal of the same key wins and is not overwritten', async () => {

            const thirdKey = generateKey();
            const box = aesGcmSecretBox({ current: thirdKey, previous: [newKey] });
            const store = server.app.ports.oauthStore;
            let concurrent: { id: string; sealed: string } | null = null;
            const racing: OAuthStore = {
                ...store,
                async replaceSealedServerSecret(id, expected, next) {

                    // Another `secret rotate` re-seals this key between this run's read and write.
                    if (!concurrent) {
                        concurrent = { id, sealed: box.seal(box.open(expected)) };
                        expect(await store.replaceSealedServerSecret(id, expected, concurrent.sealed)).to.equal(true);
                    }

                    return await store.replaceSealedServerSecret(id, expected, next);
                }
            };

            const report = await resealStoredKeys({ clients: server.app.ports.clients, oauthStore: racing, secretBox: box });
            expect(report.oauthSecrets).to.deep.equal({ total: 3, resealed: 2, alreadyCurrent: 1, unreadable: 0, unreadableIds: [] });
            const raced = concurrent as { id: string; sealed: string } | null;
            expect(await store.sealedServerSecret(raced!.id)).to.equal(raced!.sealed);
            const status = internals.json(await cli({ ARCASYNC_SECRET_KEY: internals.b64(thirdKey) }, 'secret', 'status', '--json'));
            expect(status.oauthSecrets).to.deep.equal([{ keyId: keyIdOf(thirdKey), count: 3, current: true }]);
        });
    });
}
