import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../app/compose.js';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { createAuthorityClient } from '../../app/authority.js';
import { syncDeps } from '../../app/sync.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import type { DateRange } from '../../core/domain/period.js';
import { runJob } from '../../core/use-cases/sync/run-job.js';
import { invoiceWindow } from '../../core/use-cases/sync/sync-policy.js';
import type { TestDatabase } from '../support/databases.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import { databaseOf, testEnv } from '../support/app.js';
import type { SyncProcess } from '../support/sync-processes.js';
import { spawnSyncProcess, syncEnv, until } from '../support/sync-processes.js';
import { pendingJobRow } from '../../adapters/knex/pending-job.js';

// Workers as separate processes (`arcasync sync worker --json`), the way operators run them:
// a worker killed mid-sync leaves no half-written system and its CUIT is retaken once the
// lease expires; SIGTERM gives the job back; two workers on MariaDB never sync one CUIT at
// the same time.

const internals = {
    secretKey: randomBytes(32).toString('base64'),

    worker: (databaseUrl: string, authorityUrl: string, args: string[], env: Record<string, string> = {}): SyncProcess => spawnSyncProcess(
        ['sync', 'worker', '--json', ...args],
        syncEnv(databaseUrl, internals.secretKey, authorityUrl, env)
    ),

    async setup(database: TestDatabase) {

        const db = await database.create();
        const app = await composeApp(loadConfig({ ...testEnv, DATABASE_URL: db.url, ARCASYNC_SECRET_KEY: internals.secretKey }));
        const { accountId } = await seedAccount(app.ports);
        return { db, app, accountId };
    },

    async addPerson(app: App, accountId: number, cuit: string): Promise<number> {

        const names = { nombre: 'Ana', apellido: `Prueba ${cuit}`, razonSocial: null };
        const name = displayName({ tipo: 'persona-fisica', ...names });
        const client = await app.ports.clients.insert({
            publicId: randomUUID(), accountId, cuit: cuit as Cuit, tipo: 'persona-fisica', ...names, representativeId: null,
            displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: app.ports.secretBox.seal('clave'),
            keyDigest: await app.ports.keyIdentity.of(cuit as Cuit, 'clave'), createdAt: Date.now()
        });
        return client!.id;
    },

    // The dates the first sync asked for (one query: twelve months).
    backfillOf: (job: { started_at: unknown }): DateRange => invoiceWindow({ now: Number(job.started_at), lastSyncedAt: null, full: false }),

    async pendingJob(app: App, clientId: number): Promise<void> {

        const now = Date.now();
        await databaseOf(app)('sync_jobs').insert(pendingJobRow({ clientId, reason: 'first', runAfter: now, createdAt: now }));
    }
};

for (const database of testDatabases()) {

    describe(`sync workers as processes (${database.name})`, function () {

        this.timeout(60_000);
        let authority: SimulatedAuthority;
        let setup: Awaited<ReturnType<typeof internals.setup>>;

        before(async () => {

            // Slow enough that a sync takes a few seconds and can be interrupted in the middle.
            authority = await startSimulatedAuthority({ port: 0, latencyMs: 25 });
            setup = await internals.setup(database);
        });

        after(async () => {

            await setup.app.close();
            await setup.db.release();
            await authority.stop();
        });

        it('a worker killed mid-sync leaves each system whole or untouched, and its CUIT is retaken after the lease', async () => {

            const { app, accountId } = setup;
            const clientId = await internals.addPerson(app, accountId, '20301112223');
            await internals.pendingJob(app, clientId);
            const worker = internals.worker(app.config.databaseUrl, authority.url, ['--concurrency', '1', '--lease-seconds', '3']);
            const synced = async () => Number(
                (await databaseOf(app)('sync_states').where({ client_id: clientId }).whereNotNull('synced_at').count({ n: '*' }).first())!.n
            );
            await until(async () => await synced() >= 2, 30_000, `two systems synced (${worker.stderr()})`);
            worker.child.kill('SIGKILL');
            await worker.exited;

            const done = await synced();
            expect(done, 'killed before the end').to.be.lessThan(6);
            const job = await databaseOf(app)('sync_jobs').where({ client_id: clientId }).first();
            expect(job).to.include({ status: 'running', attempts: 1 });

            // Whatever was written is whole; the rest untouched.
            const expected = authority.expected('20301112223');
            const states = new Map((await databaseOf(app)('sync_states').where({ client_id: clientId })).map((row) => [row.system, row]));
            const count = async (table: string, where: Record<string, unknown> = {}) => Number(
                (await databaseOf(app)(table).where({ client_id: clientId, ...where }).count({ n: '*' }).first())!.n
            );
            const checks: Record<string, [() => Promise<number>, number]> = {
                issued_invoices: [() => count('invoices', { kind: 'E' }), expected.invoicesIn('issued', internals.backfillOf(job)).length],
                received_invoices: [() => count('invoices', { kind: 'R' }), expected.invoicesIn('received', internals.backfillOf(job)).length],
                sct: [() => count('sct_debts'), expected.sct.deuda.length],
                ccma: [() => count('ccma_movements'), expected.ccma.movements.length],
                dfe: [() => count('dfe_notifications'), expected.notifications.length]
            };
            for (const [system, [actual, whole]] of Object.entries(checks)) {
                const state = states.get(system);
                expect(await actual(), system).to.equal(state?.synced_at ? whole : 0);
            }

            // The lease still holds: nobody takes the job; once it expires, it is retaken.
            const deps = syncDeps(app, createAuthorityClient({ authority: 'simulated', authorityUrl: authority.url }));
            expect(await deps.jobQueue.claim({ owner: 'second', now: Date.now(), leaseMs: 60_000 })).to.equal(null);
            // The worker renews its job's lease and its key's hold one after the other, so the
            // hold may outlive the job's lease by a few milliseconds: both must have run out.
            const hold = await databaseOf(app)('sync_key_holds').where({ key_id: await app.ports.keyIdentity.of('20301112223' as Cuit, 'clave') }).first();
            const expiry = Math.max(Number(job.lease_expires_at), Number(hold?.expires_at ?? 0));
            await until(async () => expiry < Date.now(), 10_000, 'lease expiry');
            const retaken = (await deps.jobQueue.claim({ owner: 'second', now: Date.now(), leaseMs: 60_000 }))!;
            expect(retaken).to.include({ id: Number(job.id), attempts: 2 });
            const result = await runJob(deps, retaken, { owner: 'second', leaseMs: 60_000, stopping: () => false });
            expect(result.disposition).to.equal('done');
            expect(await synced()).to.equal(6);
            for (const [system, [actual, whole]] of Object.entries(checks)) {
                expect(await actual(), system).to.equal(whole);
            }
        });

        it('SIGTERM stops a worker gracefully: its job is given back, no lease left behind', async () => {

            const { app, accountId } = setup;
            const clientId = await internals.addPerson(app, accountId, '20301112231');
            await internals.pendingJob(app, clientId);
            const worker = internals.worker(app.config.databaseUrl, authority.url, ['--concurrency', '1']);
            await until(() => worker.events.some((event) => event.event === 'start' && event.clientId === clientId), 30_000, `the worker to start (${worker.stderr()})`);
            worker.child.kill('SIGTERM');
            expect(await worker.exited).to.equal(0);

            const job = await databaseOf(app)('sync_jobs').where({ client_id: clientId }).first();
            expect(job.lease_owner).to.equal(null);
            expect(job.active_client_id).to.equal(null);
            expect(['pending', 'done']).to.include(job.status);
            if (job.status === 'pending') {
                expect(job.attempts).to.equal(0);
            }

            expect(worker.events.at(-1)).to.include({ event: 'stopped' });
        });

        it('serves its Prometheus metrics on METRICS_PORT: sync jobs by outcome', async () => {

            const { app, accountId } = setup;
            const clientId = await internals.addPerson(app, accountId, '20301112258');
            await internals.pendingJob(app, clientId);
            const probe = createServer();
            await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
            const port = (probe.address() as AddressInfo).port;
            await new Promise((resolve) => probe.close(resolve));

            const worker = internals.worker(app.config.databaseUrl, authority.url, ['--concurrency', '1'], { METRICS_PORT: String(port) });
            try {
                await until(() => worker.events.some((event) => event.event === 'end' && event.clientId === clientId), 30_000, `the worker to sync (${worker.stderr()})`);
                // Jobs an earlier test gave back are in the queue too: count what this worker ran.
                const { outcome } = worker.events.find((event) => event.event === 'end' && event.clientId === clientId)!;
                const ran = worker.events.filter((event) => event.event === 'end' && event.outcome === outcome).length;
                const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
                expect(text).to.include(`arcasync_sync_jobs_total{outcome="${outcome}"} ${ran}`);
                expect(text).to.include('arcasync_process_resident_memory_bytes');
            }
            finally {
                worker.child.kill('SIGTERM');
            }

            expect(await worker.exited).to.equal(0);
        });
    });
}

describe('two sync workers on MariaDB at once', function () {

    this.timeout(120_000);
    const mysql = testDatabases().find((database) => database.name === 'mysql');

    before(function () {

        if (!mysql) {
            process.stdout.write('    MariaDB omitido: TEST_MYSQL_URL no está definida; la prueba de dos trabajadores necesita MySQL/MariaDB.\n');
            this.skip();
        }
    });

    it('never syncs one CUIT twice at the same time', async () => {

        const authority = await startSimulatedAuthority({ port: 0, latencyMs: 3 });
        const { db, app, accountId } = await internals.setup(mysql!);
        try {
            const clients: number[] = [];
            for (let i = 0; i < 10; i++) {
                clients.push(await internals.addPerson(app, accountId, `2040000${String(i).padStart(3, '0')}1`));
            }

            // Both workers up and polling before any job exists, so that both compete for all.
            const workers = [0, 1].map(() => internals.worker(app.config.databaseUrl, authority.url, ['--concurrency', '4', '--poll-seconds', '0.05']));
            await until(() => workers.every((worker) => worker.events.some((event) => event.event === 'ready')), 60_000, 'both workers ready');

            // Three jobs per client, all due: every worker wants every client.
            const now = Date.now();
            await databaseOf(app)('sync_jobs').insert([0, 1, 2].flatMap(() => clients.map((id) => ({
                client_id: id,
                reason: 'first',
                status: 'pending',
                run_after: now,
                attempts: 0,
                created_at: now
            }))));
            // The daily jobs the workers' schedulers plan wait for their window.
            const remaining = async () => Number(
                (await databaseOf(app)('sync_jobs').where(
                    (due) => due.where('status', 'running').orWhere((pending) => pending.where('status', 'pending').andWhere('run_after', '<=', Date.now()))
                ).count({ n: '*' }).first())!.n
            );
            await until(async () => await remaining() === 0, 100_000, 'all jobs done');
            for (const worker of workers) {
                worker.child.kill('SIGTERM');
                expect(await worker.exited).to.equal(0);
            }

            const runs = new Map<number, { start: number; end: number; worker: number }[]>();
            workers.forEach((worker, index) => {

                const starts = new Map(worker.events.filter((event) => event.event === 'start').map((event) => [event.jobId!, event.at!]));
                for (const end of worker.events.filter((event) => event.event === 'end')) {
                    const list = runs.get(end.clientId!) ?? [];
                    list.push({ start: starts.get(end.jobId!)!, end: end.at!, worker: index });
                    runs.set(end.clientId!, list);
                }
            });

            // Every job done (the 30 above); a transient failure may have made a job run again.
            const done = workers.flatMap(
                (worker) => worker.events.filter((event) => event.event === 'end' && event.disposition === 'done').map((event) => event.jobId)
            );
            const jobs = await databaseOf(app)('sync_jobs').whereNot('status', 'pending').pluck('id');
            expect(jobs.length).to.be.at.least(30);
            expect(new Set(done).size).to.equal(jobs.length);
            for (const [clientId, list] of runs) {
                const sorted = [...list].sort((a, b) => a.start - b.start);
                for (let i = 1; i < sorted.length; i++) {
                    expect(sorted[i]!.start, `client ${clientId}: run ${i} began before run ${i - 1} ended`).to.be.at.least(sorted[i - 1]!.end);
                }
            }

            // Both workers took part.
            expect(new Set([...runs.values()].flat().map((run) => run.worker)).size).to.equal(2);
        }
        finally {
            await app.close();
            await db.release();
            await authority.stop();
        }
    });
});
