import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { breakerFailures } from '../../core/domain/webhook.js';
import { sctData } from '../support/data.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { databaseOf } from '../support/app.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import type { SeededUser } from '../support/fixtures.js';
import { startReceiver, waitUntil } from '../support/receiver.js';
import type { TestClock, TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import type { SyncProcess } from '../support/sync-processes.js';
import { spawnSyncProcess, syncEnv } from '../support/sync-processes.js';

// Issue 36 (fair share): eight receivers that accept the connection and never answer, beside one
// healthy endpoint, against a started `sync worker` (eight delivery slots). The dead endpoints
// were created first (the lowest ids, which used to be taken first) and each has a backlog:
// the healthy endpoint still gets every event while the dead ones' stay pending, each dead
// endpoint is called at most breakerFailures times before its breaker sets it aside, and from
// then on its attempts stop growing while the healthy endpoint keeps receiving.

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    realClock: (): TestClock => ({ now: () => new Date(), set() {}, advance() {} }),
    events: 6,

    // A receiver that takes the connection and never answers (nor closes it); `open()`: the
    // calls it holds now.
    async silent(): Promise<{ url: string; open(): number; close(): Promise<void> }> {

        const sockets = new Set<Socket>();
        const server: Server = createServer((socket) => {

            sockets.add(socket);
            socket.on('error', () => undefined);
            socket.on('close', () => sockets.delete(socket));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return {
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            open: () => sockets.size,
            close: () => new Promise<void>((resolve) => {

                for (const socket of sockets) {
                    socket.destroy();
                }

                server.close(() => resolve());
            })
        };
    }
};

for (const database of testDatabases()) {

    describe(`webhook delivery is fair between endpoints (${database.name})`, function () {

        this.timeout(180_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        let user: SeededUser;

        const cli = (...args: string[]) => runCli(server.app.config.databaseUrl, args, { ARCASYNC_SECRET_KEY: internals.secretKey, WEBHOOK_ALLOW_HTTP_LOOPBACK: '1' });
        const json = async (...args: string[]) => {

            const result = await cli(...args, '--json');
            expect(result.code, result.stderr).to.equal(0);
            return JSON.parse(result.stdout);
        };

        // A sync of the client's SCT: a debt change and the completed sync, two events. Written
        // beside a running worker: on SQLite a transaction that read first meets the worker's
        // write as "database is locked" without waiting, and is tried again.
        const syncSct = async (clientId: number, saldo: number): Promise<void> => {

            const data = sctData();
            data.deuda[0]!.saldo = saldo;
            const steps = [
                () => server.app.ports.sct.replace(clientId, data, Date.now()),
                () => server.app.ports.syncStates.announceSyncCompleted(clientId, Date.now())
            ];
            for (const step of steps) {
                for (let attempt = 1; ; attempt++) {
                    try {
                        await step();
                        break;
                    }
                    catch (err) {
                        if (attempt >= 20 || !/database is locked/.test(String(err))) {
                            throw err;
                        }

                        await new Promise((resolve) => setTimeout(resolve, 50));
                    }
                }
            }
        };

        // Each endpoint's deliveries as staff list them.
        const deliveries = async (endpointId: number): Promise<{
            eventId: string;
            status: string;
            attempts: number;
            lastAttemptAt: number | null;
            deliveredAt: number | null;
        }[]> => (await json('webhook', 'deliveries', '--endpoint', String(endpointId), '--limit', '500')).deliveries;

        // `sync worker` as operators start it, with eight delivery slots (the default).
        const startWorker = (timeoutSeconds: number): SyncProcess => spawnSyncProcess(
            ['sync', 'worker', '--poll-seconds', '0.2'],
            syncEnv(server.app.config.databaseUrl, internals.secretKey, authority.url, {
                WEBHOOK_ALLOW_HTTP_LOOPBACK: '1',
                WEBHOOK_TIMEOUT_SECONDS: String(timeoutSeconds),
                // Long enough that neither a delivery's retry nor a breaker's probe comes
                // within the test.
                WEBHOOK_BACKOFF_BASE_MS: '600000',
                WEBHOOK_POLL_MS: '50'
            })
        );

        const create = async (url: string): Promise<number> => (await json('webhook', 'create', '--account', String(user.accountId), '--url', url)).id;

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0 });
            server = await startTestServer(database, { clock: internals.realClock(), env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            user = await seedAccount(server.app.ports);
        });

        after(async () => {

            await server?.stop();
            await authority?.stop();
        });

        it('delivers to a healthy endpoint while eight that never answer are set aside by their breakers', async () => {

            const dead = await Promise.all(Array.from({ length: 8 }, () => internals.silent()));
            const healthy = await startReceiver();
            let worker: SyncProcess | null = null;
            try {
                const deadIds: number[] = [];
                for (const receiver of dead) {
                    deadIds.push(await create(`${receiver.url}/dead`));
                }

                const healthyId = await create(`${healthy.url}/ok`);
                expect(Math.max(...deadIds)).to.be.below(healthyId);

                // A backlog for everyone before the worker starts: every dead endpoint has
                // more due deliveries than its breaker lets it try.
                const client = await addClient(server.app.ports, user.accountId, { cuit: '20-23456789-1' });
                for (let round = 0; round < internals.events / 2; round++) {
                    await syncSct(client.id, 1000 + round);
                }

                const ours = (await databaseOf(server.app)('webhook_events').select('public_id').where({ client_id: client.id })).map(
                    (row: { public_id: string }) => row.public_id
                );
                expect(ours).to.have.length(internals.events);

                worker = startWorker(1);
                const received = () => new Set(healthy.calls.map((call) => JSON.parse(call.body).id as string));
                await waitUntil(() => ours.every((id) => received().has(id)), 'every event at the healthy endpoint', 120_000);
                for (const id of deadIds) {
                    expect((await deliveries(id)).filter((entry) => ours.includes(entry.eventId))).to.have.length(internals.events);
                }

                // The healthy endpoint got all its events while the dead ones' wait: none of
                // them tried more than the breaker allows.
                expect((await deliveries(healthyId)).filter((entry) => ours.includes(entry.eventId)).map((entry) => entry.status)).to.deep.equal(
                    ours.map(() => 'delivered')
                );
                for (const id of deadIds) {
                    const list = await deliveries(id);
                    expect(list.every((entry) => entry.status === 'pending'), `endpoint ${id}`).to.equal(true);
                    expect(list.reduce((sum, entry) => sum + entry.attempts, 0), `attempts of endpoint ${id}`).to.be.at.most(breakerFailures);
                }

                // Every dead endpoint's breaker opens (staff see it in `webhook list`)…
                const listed = async () => (await json('webhook', 'list', '--account', String(user.accountId))).endpoints as {
                    id: number;
                    consecutiveFailures: number;
                    openUntil: number | null;
                }[];
                await waitUntil(async () => (await listed()).filter((entry) => deadIds.includes(entry.id)).every((entry) => entry.openUntil !== null), 'eight open breakers', 120_000);
                const attempts = async () => Promise.all(deadIds.map(async (id) => (await deliveries(id)).reduce((sum, entry) => sum + entry.attempts, 0)));
                const opened = await attempts();
                expect(opened).to.deep.equal(deadIds.map(() => breakerFailures));

                // Endpoints in turn: the healthy one had every event before any dead one had
                // failed the breakerFailures-th time (the last failure each recorded).
                const delivered = (await deliveries(healthyId)).filter((entry) => ours.includes(entry.eventId));
                const lastDelivered = Math.max(...delivered.map((entry) => entry.deliveredAt ?? 0));
                const lastFailure = async (id: number) => Math.max(...(await deliveries(id)).map((entry) => entry.lastAttemptAt ?? 0));
                const breakersOpened = await Promise.all(deadIds.map(lastFailure));
                expect(lastDelivered).to.be.below(Math.min(...breakersOpened));
                const human = await cli('webhook', 'list', '--account', String(user.accountId));
                expect(human.stdout.split('\n').filter((line) => line.includes('/dead'))).to.satisfy((lines: string[]) => lines.length === 8 && lines.every((line) => /en pausa hasta .* \(3 fallas seguidas\)/.test(line)));

                // …and their attempts stop growing while new events keep reaching the healthy one.
                await syncSct(client.id, 5000);
                const later = (await databaseOf(server.app)('webhook_events').select('public_id').where({ client_id: client.id })).map(
                    (row: { public_id: string }) => row.public_id
                ).filter((id) => !ours.includes(id));
                expect(later).to.have.length(2);
                await waitUntil(() => later.every((id) => received().has(id)), 'the new events at the healthy endpoint', 60_000);
                expect(await attempts()).to.deep.equal(opened);
                expect((await listed()).find((entry) => entry.id === healthyId)).to.include({ consecutiveFailures: 0, openUntil: null });
                for (const id of [...deadIds, healthyId]) {
                    await cli('webhook', 'disable', String(id));
                }
            }
            finally {
                await Promise.all([...dead, healthy].map((receiver) => receiver.close()));
                if (worker) {
                    worker.child.kill('SIGTERM');
                    await worker.exited;
                }
            }
        });

        it('keeps a slot for endpoints without failures: a healthy endpoint is called while failing ones hold the rest', async () => {

            const dead = await Promise.all(Array.from({ length: 8 }, () => internals.silent()));
            const healthy = await startReceiver();
            let worker: SyncProcess | null = null;
            try {
                const other = await seedAccount(server.app.ports);
                const deadIds: number[] = [];
                for (const receiver of dead) {
                    deadIds.push((await json('webhook', 'create', '--account', String(other.accountId), '--url', `${receiver.url}/dead`)).id);
                }

                // As a previous run left them: each dead endpoint failed once, its breaker closed.
                await databaseOf(server.app)('webhook_endpoints').whereIn('id', deadIds).update({ consecutive_failures: 1 });
                const client = await addClient(server.app.ports, other.accountId, { cuit: '27-34567890-5' });
                await syncSct(client.id, 1000);
                worker = startWorker(30);
                // The failing endpoints take every slot they may: seven of the eight.
                const held = () => dead.reduce((sum, receiver) => sum + receiver.open(), 0);
                await waitUntil(() => held() >= 7, 'the dead endpoints in flight', 60_000);

                // A healthy endpoint's event now: it is called while those calls still hang (each
                // dead endpoint has one attempt recorded only when its call times out).
                const healthyId = (await json('webhook', 'create', '--account', String(other.accountId), '--url', `${healthy.url}/ok`)).id as number;
                await syncSct(client.id, 2000);
                await waitUntil(() => healthy.calls.length >= 2, 'the healthy endpoint\'s events', 60_000);
                expect(held()).to.equal(7);
                for (const id of deadIds) {
                    expect((await deliveries(id)).reduce((sum, entry) => sum + entry.attempts, 0), `attempts of endpoint ${id}`).to.equal(0);
                }

                expect((await deliveries(healthyId)).map((entry) => entry.status)).to.deep.equal(['delivered', 'delivered']);
            }
            finally {
                // The hanging calls end with their receivers; then the worker stops at once.
                await Promise.all([...dead, healthy].map((receiver) => receiver.close()));
                if (worker) {
                    worker.child.kill('SIGTERM');
                    await worker.exited;
                }
            }
        });
    });
}
