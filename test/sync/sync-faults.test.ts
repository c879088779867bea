import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createAuthorityClient } from '../../app/authority.js';
import { syncDeps } from '../../app/sync.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { arcaHosts } from '../../adapters/authority/hosts.js';
import { syncSystems } from '../../core/domain/sync-system.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';
import { failurePolicy } from '../../core/use-cases/sync/sync-policy.js';
import { databaseOf } from '../support/app.js';
import { pendingJobRow } from '../../adapters/knex/pending-job.js';

// A flaky authority: a share of its requests fail (5xx, timeouts, malformed payloads). Each
// CUIT ends with every system either synchronized by this run or with its error recorded and
// its previous data and syncedAt intact; nothing is stored twice; a later run completes.

const internals = {
    firstDay: '2026-03-15',
    secondDay: '2026-04-15',
    cuits: ['20-27345678-2', '23-31234567-9', '27-40123456-1', '20-38111222-4', '30-70912345-8', '33-71000111-9'],
    failures: { serverError: 0.12, timeout: 0.03, malformed: 0.08 },

    // What the API shows of a CUIT, system by system.
    async snapshot(server: TestServer, token: string, cuit: string): Promise<Record<string, unknown>> {

        const get = async (path: string) => (await server.request(path, { token })).body;
        const range = 'from_date=2025-01-01&to_date=2026-12-31&limit=100';
        const list = await get('/v1/cuits?limit=100');
        const item = list.data.find((entry: { cuit: string }) => entry.cuit === cuit);
        return {
            registry: { monotributista: item.monotributista, autonomo: item.autonomo, categoria: item.categoria, syncedAt: item.sistemaRegistralSyncedAt },
            issued_invoices: await internals.pages(server, token, `/v1/cuits/${cuit}/mis-comprobantes/emitidos?${range}`),
            received_invoices: await internals.pages(server, token, `/v1/cuits/${cuit}/mis-comprobantes/recibidos?${range}`),
            sct: await get(`/v1/cuits/${cuit}/sct`),
            ccma: { balances: await get(`/v1/cuits/${cuit}/ccma`), movements: await internals.pages(server, token, `/v1/cuits/${cuit}/ccma/movimientos?limit=100`) },
            dfe: await internals.pages(server, token, `/v1/cuits/${cuit}/dfe?limit=100`)
        };
    },

    async pages(server: TestServer, token: string, path: string): Promise<{ data: unknown[]; syncedAt: string | null }> {

        const data: unknown[] = [];
        let syncedAt: string | null = null;
        for (let offset = 0; ; offset += 100) {
            const res = await server.request(`${path}&offset=${offset}`, { token });
            expect(res.status, res.text).to.equal(200);
            data.push(...res.body.data);
            syncedAt = res.body.syncedAt;
            if (offset + 100 >= res.body.pagination.total) {
                return { data, syncedAt };
            }
        }
    }
};

for (const database of testDatabases()) {

    describe(`synchronization against a failing authority (${database.name})`, function () {

        this.timeout(90_000);
        let first: SimulatedAuthority;
        let second: SimulatedAuthority;
        let server: TestServer;
        let user: SeededUser;

        const run = async (authority: SimulatedAuthority) => {

            // The authorities below do not ask for a gap between fes queries (the pacing that
            // keeps to it is sync-e2e's to check): what this test waits for is the failures.
            const pacingMs = { default: 0, [arcaHosts.mcmp]: 0 };
            const client = createAuthorityClient({ authority: 'simulated', authorityUrl: authority.url }, {
                timeoutMs: 400,
                retries: 1,
                backoffMs: 20,
                maxBackoffMs: 50,
                pacingMs
            });
            const worker = startWorker(syncDeps(server.app, client), { owner: `t-${randomBytes(3).toString('hex')}`, concurrency: 4, leaseMs: 60_000, drain: true, pollMs: 20 });
            return await worker.done;
        };

        before(async () => {

            first = await startSimulatedAuthority({ port: 0, today: internals.firstDay, fesMinGapMs: 0 });
            // The authority a month later: other data, and a share of its requests fail.
            second = await startSimulatedAuthority({
                port: 0,
                today: internals.secondDay,
                fesMinGapMs: 0,
                failures: internals.failures,
                failureSeed: 7,
                timeoutHoldMs: 1500
            });
            const digits = internals.cuits.map((cuit) => cuit.replace(/-/g, ''));
            for (const authority of [first, second]) {
                authority.represent(digits[0]!, ...digits.filter((cuit) => cuit.startsWith('3')));
            }

            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64') }, clock: testClock(`${internals.firstDay}T12:00:00Z`) });
            user = await seedAccount(server.app.ports, { writing: true });
            for (const cuit of internals.cuits) {
                const body = cuit.startsWith('3')
                    ? { tipo: 'persona-juridica', cuit, razon_social: `Empresa ${cuit}`, representante: internals.cuits[0] }
                    : { tipo: 'persona-fisica', cuit, nombre: 'Ana', apellido: cuit, clave_arca: 'clave' };
                const res = await server.request('/v1/cuits', { token: user.token, method: 'POST', body });
                expect(res.status, res.text).to.equal(201);
            }
        });

        after(async () => {

            await server.stop();
            await first.stop();
            await second.stop();
        });

        it('keeps the previous data of every failed system, records its error, and stores nothing twice', async () => {

            expect(await run(first)).to.include({ synced: internals.cuits.length, failed: 0 });
            const token = user.token;
            const before = new Map<string, Record<string, unknown>>();
            for (const cuit of internals.cuits) {
                before.set(cuit, await internals.snapshot(server, token, cuit.replace(/-/g, '')));
            }

            server.clock.set(`${internals.secondDay}T12:00:00Z`);
            const at = server.clock.now().getTime();
            const ids = (await databaseOf(server.app)('clients').pluck('id')).map(Number);
            for (const id of ids) {
                await databaseOf(server.app)('sync_jobs').insert(pendingJobRow({ clientId: id, reason: 'daily', runAfter: at, createdAt: at }));
            }

            const summary = await run(second);
            expect(summary.jobs).to.equal(internals.cuits.length);
            const states = await databaseOf(server.app)('sync_states').select();
            let failedSystems = 0;
            let syncedSystems = 0;
            for (const cuit of internals.cuits) {
                const plain = cuit.replace(/-/g, '');
                const client = await databaseOf(server.app)('clients').where({ cuit: plain }).first();
                const after = await internals.snapshot(server, token, plain);
                const previous = before.get(cuit)!;
                const systems = syncSystems.filter((system) => system !== 'registry' || !plain.startsWith('3'));
                for (const system of systems) {
                    const state = states.find((row) => Number(row.client_id) === Number(client.id) && row.system === system);
                    expect(Number(state.last_attempt_at), `${cuit} ${system} attempted`).to.equal(at);
                    if (state.last_error === null) {
                        syncedSystems++;
                        expect(Number(state.synced_at), `${cuit} ${system}`).to.equal(at);
                    }
                    else {
                        // Failed: the previous data and syncedAt, exactly.
                        failedSystems++;
                        expect(Number(state.synced_at), `${cuit} ${system}`).to.be.lessThan(at);
                        if (system === 'ccma') {
                            // The balances are another page than the movements: when only the
                            // movements failed, the balances the authority served are stored
                            // (docs/authority.md), under the system's previous syncedAt.
                            const [now, then] = [after.ccma, previous.ccma] as { balances: { data: unknown; syncedAt: unknown }; movements: unknown }[];
                            expect(now!.movements, `${cuit} ccma movements kept`).to.deep.equal(then!.movements);
                            expect(now!.balances.syncedAt, `${cuit} ccma syncedAt kept`).to.equal(then!.balances.syncedAt);
                            expect([then!.balances.data, second.expected(plain).ccma.balances], `${cuit} ccma balances`).to.deep.include(now!.balances.data);
                            continue;
                        }

                        expect(after[system], `${cuit} ${system} kept`).to.deep.equal(previous[system]);
                    }
                }

                // Nothing stored twice: every natural key once.
                const rows = await databaseOf(server.app)('invoices').where({ client_id: client.id }).select(
                    'kind',
                    'issuer_key',
                    'tipo',
                    'punto_venta',
                    'numero_desde'
                );
                expect(new Set(rows.map((row) => JSON.stringify(row))).size).to.equal(rows.length);
                const notifications = await databaseOf(server.app)('dfe_notifications').where({ client_id: client.id }).pluck('arca_id');
                expect(new Set(notifications).size).to.equal(notifications.length);
            }

            process.stdout.write(`      (${database.name}: ${failedSystems} systems failed, ${syncedSystems} synchronized)\n`);
            // The injected share did hit (this is a fault test), and most systems got through.
            expect(failedSystems, 'failed systems').to.be.greaterThan(0);
            expect(syncedSystems, 'synced systems').to.be.greaterThan(0);

            // The failed jobs come back later and finish once the authority recovers: after the
            // longest wait the failure policy imposes and the backoff on top of it. A failure after
            // the password (a timeout, a 5xx) ends the key's logins for the ARCA day, so the
            // longest wait reaches into the next day.
            second.setFailures({});
            server.clock.advance(Math.max(failurePolicy.passwordDelayMs, 24 * 3_600_000) + 3_600_000);
            await run(second);
            const remaining = await databaseOf(server.app)('sync_states').whereNotNull('last_error').count({ n: '*' }).first();
            expect(Number(remaining!.n)).to.equal(0);
            const pending = await databaseOf(server.app)('sync_jobs').whereIn('status', ['pending', 'running']).count({ n: '*' }).first();
            expect(Number(pending!.n)).to.equal(0);
        });
    });
}
