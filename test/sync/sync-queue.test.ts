import { expect } from 'chai';
import type { App } from '../../app/compose.js';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { queueDeps } from '../../app/sync.js';
import type { QueueDeps } from '../../core/use-cases/sync/deps.js';
import { scheduleDue } from '../../core/use-cases/sync/schedule-due.js';
import { forceResync } from '../../core/use-cases/sync/force-resync.js';
import { databaseOf, useApp } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import { pendingJobRow } from '../../adapters/knex/pending-job.js';
import { loginLedger } from '../../adapters/knex/login-ledger.js';
import { arcaDay } from '../../core/domain/arca-day.js';

// The job queue (adapters/knex/job-queue.ts) on each database: leases, one running job per
// client, expiry and retake, no duplicate pending jobs, the daily schedule.

for (const database of testDatabases()) {

    describe(`sync job queue (${database.name})`, () => {

        let app: App;
        let deps: QueueDeps;
        let accountId: number;
        let sequence = 0;
        const lease = 60_000;

        const newClient = async () => {

            sequence++;
            const cuit = `20${String(10_000_000 + sequence).padStart(8, '0')}1`;
            const client = await addClient(app.ports, accountId, { cuit });
            // A key of its own (its identity is what holds and running jobs are scoped by).
            await databaseOf(app)('clients').where({ id: client.id }).update({ clave_arca: 'sellada', key_digest: `clave-${cuit}` });
            return client;
        };
        useApp(database, (opened) => (app = opened));

        before(async () => {

            deps = queueDeps(app);
            accountId = (await seedAccount(app.ports)).accountId;
        });

        beforeEach(async () => {

            await databaseOf(app)('sync_jobs').delete();
        });

        it('claims a due job once, with a lease, and never a second job of the same client', async () => {

            const client = await newClient();
            const now = Date.now();
            const first = await deps.jobQueue.enqueue(client.id, 'first', now);
            expect(await deps.jobQueue.enqueue(client.id, 'daily', now)).to.equal(first);        // no duplicate pending

            const job = await deps.jobQueue.claim({ owner: 'w1', now, leaseMs: lease });
            expect(job).to.include({ id: first, clientId: client.id, reason: 'first', attempts: 1 });
            expect(await deps.jobQueue.claim({ owner: 'w2', now, leaseMs: lease })).to.equal(null);

            // A new pending job while it runs is not claimable until the running one ends.
            const second = await deps.jobQueue.enqueue(client.id, 'forced', now);
            expect(second).to.not.equal(first);
            expect(await deps.jobQueue.claim({ owner: 'w2', now, leaseMs: lease })).to.equal(null);
            expect(await deps.jobQueue.complete(job!, 'w1', now)).to.equal(true);
            // w1 holds the client's key until its session ends.
            expect(await deps.jobQueue.claim({ owner: 'w2', now, leaseMs: lease })).to.equal(null);
            await deps.jobQueue.releaseKeyHold(job!.keyId!, 'w1');
            const next = await deps.jobQueue.claim({ owner: 'w2', now, leaseMs: lease });
            expect(next).to.include({ id: second, reason: 'forced' });
        });

        it('settles a job whose row another worker held locked past its wait, by trying again', async function () {

            if (database.name !== 'mysql') {
                this.skip();
            }

            // A worker whose one connection gives up a lock wait after 1 s, as InnoDB does after
            // innodb_lock_wait_timeout (or at once, for a deadlock) when another worker's claim
            // holds the job's index entries.
            const worker = await composeApp(loadConfig({ DATABASE_URL: app.config.databaseUrl }), { pool: { max: 1 }, migrate: false });
            try {
                await databaseOf(worker).raw('SET SESSION innodb_lock_wait_timeout = 1');
                const workerDeps = queueDeps(worker);
                const client = await newClient();
                const now = Date.now();
                await workerDeps.jobQueue.enqueue(client.id, 'first', now);
                const job = (await workerDeps.jobQueue.claim({ owner: 'w1', now, leaseMs: lease }))!;

                let locked!: () => void;
                const holding = new Promise<void>((resolve) => (locked = resolve));
                const other = databaseOf(app).transaction(async (trx) => {

                    await trx('sync_jobs').where({ id: job.id }).forUpdate();
                    locked();
                    await new Promise((resolve) => setTimeout(resolve, 1_500));
                });
                await holding;
                expect(await workerDeps.jobQueue.complete(job, 'w1', Date.now())).to.equal(true);
                await other;
                expect((await databaseOf(app)('sync_jobs').where({ id: job.id }).first()).status).to.equal('done');
            }
            finally {
                await worker.close();
            }
        });

        it('refuses a second running job of a client at the database level', async () => {

            const client = await newClient();
            const now = Date.now();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            await deps.jobQueue.claim({ owner: 'w1', now, leaseMs: lease });
            const [id] = await databaseOf(app)('sync_jobs').insert(pendingJobRow({ clientId: client.id, reason: 'daily', runAfter: now, createdAt: now }));
            let error: unknown = null;
            await databaseOf(app)('sync_jobs').where({ id }).update({ status: 'running', active_client_id: client.id }).catch((err: unknown) => {

                error = err;
            });
            expect(error).to.not.equal(null);
        });

        it('retakes a job whose lease expired; the old holder can no longer settle it', async () => {

            const client = await newClient();
            const now = Date.now();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            const job = (await deps.jobQueue.claim({ owner: 'dead', now, leaseMs: 1000 }))!;
            expect(await deps.jobQueue.claim({ owner: 'w2', now: now + 500, leaseMs: lease })).to.equal(null);

            const retaken = (await deps.jobQueue.claim({ owner: 'w2', now: now + 1001, leaseMs: lease }))!;
            expect(retaken).to.include({ id: job.id, attempts: 2 });
            expect(await deps.jobQueue.renew(job, 'dead', now + 1002, lease)).to.equal(false);
            expect(await deps.jobQueue.complete(job, 'dead', now + 1002)).to.equal(false);
            expect(await deps.jobQueue.renew(retaken, 'w2', now + 1002, lease)).to.equal(true);
            expect(await deps.jobQueue.complete(retaken, 'w2', now + 1003)).to.equal(true);
            const row = await databaseOf(app)('sync_jobs').where({ id: job.id }).first();
            expect(row).to.include({ status: 'done', active_client_id: null });
        });

        it('renews a lease so that a long sync is not retaken', async () => {

            const client = await newClient();
            const now = Date.now();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            const job = (await deps.jobQueue.claim({ owner: 'w1', now, leaseMs: 1000 }))!;
            expect(await deps.jobQueue.renew(job, 'w1', now + 900, 1000)).to.equal(true);
            expect(await deps.jobQueue.claim({ owner: 'w2', now: now + 1500, leaseMs: lease })).to.equal(null);
            expect(await deps.jobQueue.claim({ owner: 'w2', now: now + 1901, leaseMs: lease })).to.include({ id: job.id });
        });

        it('gives a job back on release without counting the attempt, and retries later', async () => {

            const client = await newClient();
            const now = Date.now();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            const job = (await deps.jobQueue.claim({ owner: 'w1', now, leaseMs: lease }))!;
            expect(await deps.jobQueue.release(job, 'w1', now)).to.equal(true);
            await deps.jobQueue.releaseKeyHold(job.keyId!, 'w1');
            const again = (await deps.jobQueue.claim({ owner: 'w2', now, leaseMs: lease }))!;
            expect(again).to.include({ id: job.id, attempts: 1 });

            expect(await deps.jobQueue.retry(again, 'w2', 'ARCA no está disponible', now + 60_000)).to.equal(true);
            expect(await deps.jobQueue.claim({ owner: 'w3', now: now + 59_000, leaseMs: lease })).to.equal(null);
            expect(await deps.jobQueue.counts([client.id], now)).to.deep.equal({ pending: 1, due: 0, running: 0 });
            await deps.jobQueue.releaseKeyHold(job.keyId!, 'w2');
            expect(await deps.jobQueue.claim({ owner: 'w3', now: now + 60_000, leaseMs: lease })).to.include({ id: job.id, attempts: 2 });
        });

        it('claims only the named clients when asked to', async () => {

            const [a, b] = [await newClient(), await newClient()];
            const now = Date.now();
            await deps.jobQueue.enqueue(a.id, 'manual', now);
            await deps.jobQueue.enqueue(b.id, 'manual', now + 1);
            expect(await deps.jobQueue.claim({ owner: 'w1', now: now + 2, leaseMs: lease, clientIds: [b.id] })).to.include({ clientId: b.id });
            expect(await deps.jobQueue.claim({ owner: 'w1', now: now + 2, leaseMs: lease, clientIds: [b.id] })).to.equal(null);
        });

        it('schedules every client not run in the last day once, and never twice', async () => {

            // 03:00 in Buenos Aires, inside the default window: today's is planned.
            const now = Date.parse('2026-03-10T06:00:00Z');
            const clients = (await databaseOf(app)('clients').select('id')).map((row) => Number(row.id));
            const recent = await newClient();
            await databaseOf(app)('sync_jobs').insert({
                client_id: recent.id,
                reason: 'first',
                status: 'done',
                run_after: now - 1000,
                attempts: 1,
                created_at: now - 1000
            });

            const clock = { now: () => new Date(now) };
            const { enqueued } = await scheduleDue({ ...deps, clock });
            expect(enqueued).to.equal(clients.length);
            expect((await scheduleDue({ ...deps, clock })).enqueued).to.equal(0);
            const pending = await databaseOf(app)('sync_jobs').where({ status: 'pending', reason: 'daily' }).pluck('client_id');
            expect(pending.map(Number).sort((x, y) => x - y)).to.deep.equal(clients);

            // A day after its last run, the recent one is due too.
            expect((await scheduleDue({ ...deps, clock: { now: () => new Date(now + 86_400_000) } })).enqueued).to.equal(1);
        });

        it('deletes finished jobs after 30 days when scheduling, and keeps everything else', async () => {

            const client = await newClient();
            const now = Date.now();
            const day = 86_400_000;
            const job = (status: string, finishedDaysAgo: number | null) => ({
                client_id: client.id, reason: 'daily', status, run_after: now - 40 * day, attempts: 1, created_at: now - 40 * day,
                finished_at: finishedDaysAgo === null ? null : now - finishedDaysAgo * day
            });
            await databaseOf(app)('sync_jobs').insert([job('done', 31), job('failed', 45), job('done', 29), job('failed', 2), job('pending', null)]);

            const { pruned } = await scheduleDue({ ...deps, clock: { now: () => new Date(now) } });
            expect(pruned).to.equal(2);
            const left = await databaseOf(app)('sync_jobs').where({ client_id: client.id }).orderBy('id').select('status', 'finished_at');
            expect(left.map((row) => [row.status, row.finished_at === null ? null : Math.round((now - Number(row.finished_at)) / day)])).to.deep.equal([
                ['done', 29], ['failed', 2], ['pending', null]
            ]);
        });

        it('deletes the login ledger\'s days older than 30 days when scheduling; proven and refused keys stay known', async () => {

            const now = Date.now();
            const day = 86_400_000;
            const attempt = (daysAgo: number) => ({
                key_cuit: '20999999990', key_id: `clave-${daysAgo}`, account_id: 1, day: arcaDay(now - daysAgo * day), proven: true, relogin: false,
                started_at: now - daysAgo * day, posted_at: now - daysAgo * day, outcome: 'ok', ends_day: false
            });
            const db = databaseOf(app);
            await db('sync_login_attempts').insert([attempt(40), attempt(31), attempt(8), attempt(0)]);
            await db('arca_keys').insert({ key_id: 'clave-40', key_cuit: '20999999990', proven_at: now - 40 * day });
            const { prunedLogins } = await scheduleDue({ ...deps, loginLedger: loginLedger(db), clock: { now: () => new Date(now) } });
            expect(prunedLogins).to.equal(2);
            expect(await db('sync_login_attempts').where({ key_cuit: '20999999990' }).orderBy('started_at').pluck('key_id')).to.deep.equal(['clave-8', 'clave-0']);
            expect(await db('arca_keys').where({ key_id: 'clave-40' }).pluck('key_id')).to.deep.equal(['clave-40']);
        });

        it('never enqueues a client twice when several workers schedule at once', async () => {

            const clock = { now: () => new Date() };
            const results = await Promise.all(Array.from({ length: 6 }, () => scheduleDue({ ...deps, clock })));
            const clients = (await databaseOf(app)('clients').pluck('id')).length;
            expect(results.reduce((sum, result) => sum + result.enqueued, 0)).to.equal(clients);
            const pending = await databaseOf(app)('sync_jobs').where({ status: 'pending' }).pluck('client_id');
            expect(new Set(pending).size).to.equal(pending.length);
        });

        it('turns a pending job into a forced one, due now, for a staff resync', async () => {

            const client = await newClient();
            const now = Date.now();
            const id = await deps.jobQueue.enqueue(client.id, 'daily', now + 3_600_000);
            const result = await forceResync({ ...deps, accounts: app.ports.accounts, clock: { now: () => new Date(now) } }, { cuit: client.cuit });
            expect(result.jobs).to.deep.equal([id]);
            const row = await databaseOf(app)('sync_jobs').where({ id }).first();
            expect(row.reason).to.equal('forced');
            expect(Number(row.run_after)).to.equal(now);
        });

        it('loses the jobs of a deleted client with it', async () => {

            const client = await newClient();
            const now = Date.now();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            const job = (await deps.jobQueue.claim({ owner: 'w1', now, leaseMs: lease }))!;
            await databaseOf(app)('clients').where({ id: client.id }).delete();
            expect(await databaseOf(app)('sync_jobs').where({ client_id: client.id })).to.have.length(0);
            expect(await deps.jobQueue.renew(job, 'w1', now, lease)).to.equal(false);
            expect(await deps.jobQueue.complete(job, 'w1', now)).to.equal(false);
        });
    });
}
