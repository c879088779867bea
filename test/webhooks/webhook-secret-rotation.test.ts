import { expect } from 'chai';
import { aesGcmSecretBox, generateKey, keyIdOf } from '../../adapters/crypto/secret-box.js';
import type { WebhookRepository } from '../../core/ports/index.js';
import { resealStoredKeys } from '../../core/use-cases/reseal-stored-keys.js';
import { runCli } from '../support/cli.js';
import type { CliResult } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { Receiver, Verify } from '../support/receiver.js';
import { readmeRecipe, startReceiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import { databaseOf } from '../support/app.js';

// `arcasync secret rotate` re-seals the webhooks' signing secrets with the stored credentials:
// the receiver's secret did not change, so every call after the rotation verifies with the
// secret it was given, even from a process that only holds the new key. A rotation stopped
// halfway leaves each secret whole under one key or the other, and running it again finishes.

const internals = {
    b64: (key: Buffer): string => key.toString('base64'),
    loopback: { WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', WEBHOOK_TIMEOUT_SECONDS: '5' },

    json(result: CliResult): any {

        // the command's one JSON object

        expect(result.code, result.stderr).to.equal(0);
        return JSON.parse(result.stdout.trim());
    }
};

for (const database of testDatabases()) {

    describe(`webhook signing secrets in a key rotation (${database.name})`, function () {

        this.timeout(120_000);

        const oldKey = generateKey();
        const newKey = generateKey();
        let server: TestServer;
        let owner: SeededUser;
        let receiver: Receiver;
        let verify: Verify;

        const cli = (env: Record<string, string>, ...args: string[]) => runCli(server.app.config.databaseUrl, args, { ...internals.loopback, ...env });
        const onlyOld = { ARCASYNC_SECRET_KEY: internals.b64(oldKey) };
        const onlyNew = { ARCASYNC_SECRET_KEY: internals.b64(newKey) };
        const both = { ARCASYNC_SECRET_KEY: internals.b64(newKey), ARCASYNC_SECRET_KEYS: internals.b64(oldKey) };

        const create = async (path: string): Promise<{ id: number; secret: string }> => internals.json(
            await cli(onlyOld, 'webhook', 'create', '--account', String(owner.accountId), '--url', `${receiver.url}${path}`, '--json')
        );

        // `webhook test` from a process with `env`'s keys: delivered, and signed with `secret`.
        const deliversSignedWith = async (env: Record<string, string>, endpoint: { id: number; secret: string }): Promise<void> => {

            const sent = internals.json(await cli(env, 'webhook', 'test', String(endpoint.id), '--json'));
            expect(sent, JSON.stringify(sent)).to.include({ status: 'delivered', httpStatus: 200 });
            const call = receiver.calls.find((entry) => JSON.parse(entry.body).id === sent.eventId);
            expect(call, 'the receiver got the test event').to.not.equal(undefined);
            expect(verify(endpoint.secret, String(call!.headers['arcasync-signature']), call!.body)).to.equal(true);
        };

        const sealedKeyIds = async (): Promise<(string | null)[]> => {

            const box = aesGcmSecretBox({ current: newKey, previous: [oldKey] });
            return (await databaseOf(server.app)('webhook_endpoints').orderBy('id').pluck('sealed_secret') as string[]).map((sealed) => box.keyIdOf(sealed));
        };

        before(async () => {

            server = await startTestServer(database, { env: { ...onlyOld, ...internals.loopback } });
            owner = await seedAccount(server.app.ports);
            receiver = await startReceiver();
            verify = await readmeRecipe();
        });

        after(async () => {

            await receiver?.close();
            await server?.stop();
        });

        afterEach(async () => {

            await databaseOf(server.app)('webhook_endpoints').delete();
        });

        it('re-seals every signing secret under the new key: the receiver still verifies with its original secret', async () => {

            const endpoint = await create('/rotated');
            await deliversSignedWith(onlyOld, endpoint);

            const rotated = await cli({ ...onlyOld, ARCASYNC_NEW_SECRET_KEY: internals.b64(newKey) }, 'secret', 'rotate', '--json');
            const report = internals.json(rotated);
            expect(report.webhookSecrets).to.deep.equal({ total: 1, resealed: 1, alreadyCurrent: 0, unreadable: 0, unreadableEndpointIds: [] });
            expect(rotated.stdout).to.not.contain(endpoint.secret);
            expect(await sealedKeyIds()).to.deep.equal([keyIdOf(newKey)]);

            // A process that holds the new key only: the old one can leave the keyring.
            await deliversSignedWith(onlyNew, endpoint);
            const status = internals.json(await cli(onlyNew, 'secret', 'status', '--json'));
            expect(status.webhookSecrets).to.deep.equal([{ keyId: keyIdOf(newKey), count: 1, current: true }]);
            const text = await cli(onlyNew, 'secret', 'status');
            expect(text.stdout).to.contain(`${keyIdOf(newKey)}: 1 secreto de firma de webhooks (actual)`);
        });

        it('a rotation stopped halfway leaves each secret whole under one key or the other; running it again finishes', async () => {

            const endpoints = [await create('/first'), await create('/second')];
            const webhooks = server.app.ports.webhooks;
            let replaced = 0;
            const failing: WebhookRepository = {
                ...webhooks,
                listSealedSecrets: (afterId, limit) => webhooks.listSealedSecrets(afterId, limit),
                replaceSealedSecret: async (id, expected, next) => {

                    if (++replaced === 2) {
                        throw new Error('the process died here');
                    }

                    return await webhooks.replaceSealedSecret(id, expected, next);
                }
            };
            const stopped = await resealStoredKeys({
                clients: server.app.ports.clients,
                webhooks: failing,
                secretBox: aesGcmSecretBox({ current: newKey, previous: [oldKey] })
            }).then(() => null, (err: Error) => err.message);
            expect(stopped).to.equal('the process died here');

            // The first under the new key, the second still under the old one; both sign with
            // the secret their receiver holds while the keyring has both keys.
            expect(await sealedKeyIds()).to.deep.equal([keyIdOf(newKey), keyIdOf(oldKey)]);
            const status = internals.json(await cli(both, 'secret', 'status', '--json'));
            expect(status.webhookSecrets).to.have.deep.members([
                { keyId: keyIdOf(newKey), count: 1, current: true },
                { keyId: keyIdOf(oldKey), count: 1, current: false }
            ]);
            for (const endpoint of endpoints) {
                await deliversSignedWith(both, endpoint);
            }

            const finish = internals.json(await cli(both, 'secret', 'rotate', '--json'));
            expect(finish.webhookSecrets).to.include({ total: 2, resealed: 1, alreadyCurrent: 1, unreadable: 0 });
            for (const endpoint of endpoints) {
                await deliversSignedWith(onlyNew, endpoint);
            }
        });
    });
}
