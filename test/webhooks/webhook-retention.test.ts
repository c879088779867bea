import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startWebhookWorker } from '../../app/webhooks.js';
import { sctData } from '../support/data.js';
import { databaseOf } from '../support/app.js';
import { closedPort, testDatabases } from '../support/databases.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import { runCli } from '../support/cli.js';
import { startReceiver, waitUntil } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';

// Issue 37 (tables only grow): a soak of three-day rounds on a fake clock, each a sync's events
// delivered by a worker to a healthy receiver and tried at a dead one. The workers give the dead
// endpoint's deliveries up after the three-day window and delete delivered and given-up events
// older than WEBHOOK_RETENTION_DAYS with their deliveries: the outbox stays bounded, what is
// recent stays, and each client's last key change (what its next one is told against) is kept.

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    day: 24 * 60 * 60_000,
    retentionDays: 10,
    roundDays: 3,
    rounds: 15
};

for (const database of testDatabases()) {

    describe(`webhook outbox retention (${database.name})`, function () {

        this.timeout(180_000);
        let server: TestServer;
        const clock = testClock('2026-03-01T12:00:00Z');

        before(async () => {

            server = await startTestServer(database, {
                clock,
                env: {
                    ARCASYNC_SECRET_KEY: internals.secretKey,
                    WEBHOOK_ALLOW_HTTP_LOOPBACK: '1',
                    WEBHOOK_BACKOFF_BASE_MS: '40',
                    WEBHOOK_POLL_MS: '20',
                    WEBHOOK_TIMEOUT_SECONDS: '1',
                    WEBHOOK_RETENTION_DAYS: String(internals.retentionDays)
                }
            });
        });

        after(async () => {

            await server?.stop();
        });

        it('keeps the outbox bounded over many rounds of events, delivered or given up', async () => {

            const knex = databaseOf(server.app);
            const user = await seedAccount(server.app.ports);
            const receiver = await startReceiver();
            const cli = (...args: string[]) => runCli(server.app.config.databaseUrl, args, { ARCASYNC_SECRET_KEY: internals.secretKey, WEBHOOK_ALLOW_HTTP_LOOPBACK: '1' });
            for (const url of [`${receiver.url}/ok`, `http://127.0.0.1:${await closedPort()}/dead`]) {
                const created = await cli('webhook', 'create', '--account', String(user.accountId), '--url', url, '--events', 'sct.deuda_cambio,sincronizacion.completada');
                expect(created.code, created.stderr).to.equal(0);
            }

            const client = await addClient(server.app.ports, user.accountId, { cuit: '20-23456789-1' });
            // Two key changes of the client, backdated past the retention: the older goes, the
            // last one stays whatever its age.
            const keyEvent = (id: string, at: number) => ({
                public_id: id, account_id: user.accountId, client_id: client.id, cuit: client.cuit, type: 'salud.cambio', sync_system: null,
                data: JSON.stringify({ clave: client.cuit, cuits: [client.cuit], estado: 'clave_rechazada', estadoAnterior: 'funciona', desde: at }),
                created_at: at, fanned_out: true
            });
            const start = clock.now().getTime();
            await knex('webhook_events').insert([keyEvent('evt_key_old', start - 60 * internals.day), keyEvent('evt_key_last', start - 50 * internals.day)]);

            const worker = startWebhookWorker(server.app);
            const sizes: { events: number; deliveries: number }[] = [];
            try {
                for (let round = 0; round < internals.rounds; round++) {
                    clock.advance(internals.roundDays * internals.day);
                    const data = sctData();
                    data.deuda[0]!.saldo = 1000 + round;
                    await server.app.ports.sct.replace(client.id, data, clock.now().getTime());
                    await server.app.ports.syncStates.announceSyncCompleted(client.id, clock.now().getTime());
                    const ids = (await knex('webhook_events').select('public_id').where('created_at', clock.now().getTime())).map((row: { public_id: string }) => row.public_id);
                    expect(ids).to.have.length(2);
                    await waitUntil(() => ids.every((id) => receiver.calls.some((call) => JSON.parse(call.body).id === id)), `round ${round}'s events`);
                    const [events, deliveries] = await Promise.all(['webhook_events', 'webhook_deliveries'].map(async (table) => Number((await knex(table).count({ n: '*' }))[0]!.n)));
                    sizes.push({ events: events!, deliveries: deliveries! });
                }
            }
            finally {
                await worker.stop();
                await receiver.close();
            }

            // Thirty events written; at any time at most the rounds within the retention (and
            // one more, pruned on the worker's next turn) stay, two events each, beside the
            // client's last key change; each event has a delivery per endpoint.
            const kept = (Math.floor(internals.retentionDays / internals.roundDays) + 2) * 2 + 1;
            expect(Math.max(...sizes.map((size) => size.events)), JSON.stringify(sizes)).to.be.at.most(kept);
            expect(Math.max(...sizes.map((size) => size.deliveries)), JSON.stringify(sizes)).to.be.at.most(2 * kept);
            expect(sizes.at(-1)!.events).to.be.below(internals.rounds * 2);

            const now = clock.now().getTime();
            const left = await knex('webhook_events').select('public_id', 'created_at', 'type');
            expect(left.map((row: { public_id: string }) => row.public_id)).to.include('evt_key_last').and.not.include('evt_key_old');
            // Nothing younger than the retention went, nothing older (but the key change) stayed.
            const recent = left.filter((row: { type: string }) => row.type !== 'salud.cambio');
            const oldest = now - (internals.retentionDays + internals.roundDays) * internals.day;
            expect(recent.every((row: { created_at: number | string }) => Number(row.created_at) >= oldest)).to.equal(true);
            expect(recent.length).to.be.at.least(2 * Math.floor(internals.retentionDays / internals.roundDays));

            // The dead endpoint's deliveries past the three-day window were given up, not kept pending.
            const pending = await knex('webhook_deliveries').where('status', 'pending').where('created_at', '<', now - 3 * internals.day - internals.roundDays * internals.day);
            expect(pending).to.deep.equal([]);
            const failed = await cli('webhook', 'deliveries', '--account', String(user.accountId), '--json', '--limit', '100');
            expect(JSON.parse(failed.stdout).deliveries.filter((entry: { status: string }) => entry.status === 'failed').map((entry: { lastError: string }) => entry.lastError))
                .to.satisfy((errors: string[]) => errors.length > 0 && errors.every((error) => /pasaron tres días/.test(error)));
        });
    });
}
