import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { cliMessages } from '../../cli/messages.js';
import { sctData } from '../support/data.js';
import { databaseOf } from '../support/app.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import type { SeededUser } from '../support/fixtures.js';
import { startReceiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// Issue 37 (cron-only installations never delivered): with `serve` and the README's cron line
// and no worker, `arcasync sync` delivers what is due in the outbox before it exits, within
// WEBHOOK_SYNC_SECONDS, and `sync status` warns while events wait with nobody trying them.

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    minute: 60_000
};

for (const database of testDatabases()) {

    describe(`cron sync delivers webhooks (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        let user: SeededUser;

        const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> => runCli(server.app.config.databaseUrl, args, {
            ARCASYNC_SECRET_KEY: internals.secretKey,
            AUTHORITY: 'simulated',
            AUTHORITY_URL: authority.url,
            WEBHOOK_ALLOW_HTTP_LOOPBACK: '1',
            ...env
        });

        // A client with a key, and a sync's events written as if a while ago (nobody delivered them).
        const clientWithEvents = async (cuit: string, ageMs: number) => {

            const client = await addClient(server.app.ports, user.accountId, { cuit });
            await databaseOf(server.app)('clients').where({ id: client.id }).update({ clave_arca: server.app.ports.secretBox.seal('clave-1') });
            const at = Date.now() - ageMs;
            await server.app.ports.sct.replace(client.id, sctData(), at);
            await server.app.ports.syncStates.announceSyncCompleted(client.id, at);
            return client;
        };

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0 });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            user = await seedAccount(server.app.ports);
        });

        after(async () => {

            await server?.stop();
            await authority?.stop();
        });

        it('sync status warns about events nobody delivers; cron sync delivers them before it exits', async () => {

            const receiver = await startReceiver();
            try {
                const created = await cli(['webhook', 'create', '--account', String(user.accountId), '--url', `${receiver.url}/cron`]);
                expect(created.code, created.stderr).to.equal(0);
                const client = await clientWithEvents('20-30123456-1', 10 * internals.minute);
                const waiting = (await databaseOf(server.app)('webhook_events').select('public_id').where({ client_id: client.id })).map(
                    (row: { public_id: string }) => row.public_id
                );
                expect(waiting).to.have.length(2);

                // Ten minutes and no delivery: one Spanish line, and the count in --json.
                const status = await cli(['sync', 'status']);
                expect(status.code, status.stderr).to.equal(0);
                const warning = status.stdout.split('\n').filter((line) => line.startsWith('Atención:'));
                expect(warning).to.have.length(1);
                expect(warning[0]).to.match(/^Atención: 2 eventos de webhooks esperan sin ningún intento de entrega desde \d{4}-\d\d-\d\dT.*'arcasync sync worker'/);
                const json = JSON.parse((await cli(['sync', 'status', '--json'])).stdout);
                expect(json.webhooksWaiting).to.deep.include({ events: 2 });

                // The cron line: it syncs, then delivers everything due, this sync's event too.
                const run = await cli(['sync', '--cuit', client.cuit]);
                expect(run.code, run.stderr).to.equal(0);
                expect(run.stderr).to.contain(cliMessages.webhooksDelivering(20_000));
                const received = receiver.calls.map((call) => JSON.parse(call.body).id as string);
                expect(received).to.include.members(waiting);
                expect(received.length).to.be.above(waiting.length);
                expect(run.stdout).to.contain(cliMessages.webhooksDelivered({ delivered: received.length, notDelivered: 0 }));

                const after = await cli(['sync', 'status']);
                expect(after.stdout).to.not.contain('Atención:');
                expect(JSON.parse((await cli(['sync', 'status', '--json'])).stdout).webhooksWaiting).to.deep.equal({ events: 0, oldestAt: null });
            }
            finally {
                await receiver.close();
            }
        });

        it('stops delivering at WEBHOOK_SYNC_SECONDS when a receiver never answers; 0 turns it off', async () => {

            const sockets = new Set<Socket>();
            const silent = createServer((socket) => {

                sockets.add(socket);
                socket.on('error', () => undefined);
            });
            await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
            const other = await seedAccount(server.app.ports);
            try {
                const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/silent`;
                const created = await cli(['webhook', 'create', '--account', String(other.accountId), '--url', url, '--json']);
                expect(created.code, created.stderr).to.equal(0);
                const endpointId = JSON.parse(created.stdout).id as number;
                const client = await addClient(server.app.ports, other.accountId, { cuit: '27-30123456-2' });
                await databaseOf(server.app)('clients').where({ id: client.id }).update({ clave_arca: server.app.ports.secretBox.seal('clave-2') });
                await server.app.ports.sct.replace(client.id, sctData(), Date.now());
                await server.app.ports.syncStates.announceSyncCompleted(client.id, Date.now());
                const attempts = async () => (JSON.parse((await cli(['webhook', 'deliveries', '--endpoint', String(endpointId), '--json'])).stdout).deliveries as {
                    attempts: number;
                    status: string;
                }[]);

                // Off: the run leaves the outbox alone.
                const off = await cli(['sync', '--cuit', client.cuit, '--json'], { WEBHOOK_SYNC_SECONDS: '0' });
                expect(off.code, off.stderr).to.equal(0);
                expect(JSON.parse(off.stdout).webhooks).to.deep.include({ delivered: 0, notDelivered: 0 });
                expect(sockets.size).to.equal(0);

                // A cap of 2 s and a 10 s timeout: the run ends with the call cut at the cap, the
                // delivery still pending for a later run.
                const capped = await cli(['sync', '--cuit', client.cuit, '--json'], { WEBHOOK_SYNC_SECONDS: '2' });
                expect(capped.code, capped.stderr).to.equal(0);
                expect(JSON.parse(capped.stdout).webhooks).to.deep.include({ delivered: 0, notDelivered: 1, capMs: 2000 });
                expect(sockets.size).to.equal(1);
                const list = await attempts();
                expect(list.length).to.be.at.least(2);
                expect(list.every((entry) => entry.status === 'pending')).to.equal(true);
                expect(list.reduce((sum, entry) => sum + entry.attempts, 0)).to.equal(1);
            }
            finally {
                for (const socket of sockets) {
                    socket.destroy();
                }

                await new Promise((resolve) => silent.close(resolve));
            }
        });
    });
}
