import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from '../../app/compose.js';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { connect } from '../../adapters/knex/connection.js';
import { fleetLimits } from '../../adapters/knex/fleet-state.js';
import { pendingJobRow } from '../../adapters/knex/pending-job.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { databaseOf } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import { spawnSyncProcess, syncEnv, until } from '../support/sync-processes.js';

// Login starts spread across the fleet (issue 36 item 9, docs/scaling.md): four `sync worker`
// processes over one database, sixteen keys queued at once. The gap between login starts
// (SYNC_LOGIN_GAP_MS) is the fleet's, not each process's: the simulated authority's record of
// the login starts it saw at auth never holds more than two in any one second. With the gap
// kept per process, the four workers start their first logins together. The turn is held from
// a login's start to its first answer, renewed while its process lives, and a dead process's
// turn frees itself.

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    gapMs: 600,

    // A daily window away from now, so that only the queued jobs are due.
    window(): string {

        const minute = Math.floor((Date.now() - 3 * 3_600_000) / 60_000) % 1440;
        return minute < 5 ? '12:00-12:01' : '00:00-00:01';
    },

    // Sixteen persons' CUITs with their right check digit (ARCA's weights 5432765432).
    keys(): string[] {

        const keys: string[] = [];
        for (let number = 41_000_000; keys.length < 16; number++) {
            const body = `20${number}`;
            const sum = [...body].reduce((total, digit, index) => total + Number(digit) * [5, 4, 3, 2, 7, 6, 5, 4, 3, 2][index]!, 0);
            const check = (11 - (sum % 11)) % 11;
            if (check < 10) {
                keys.push(`${body}${check}`);
            }
        }

        return keys;
    },

    // The most login starts the authority saw within any one second.
    peakPerSecond(starts: number[]): number {

        const sorted = [...starts].sort((a, b) => a - b);
        return Math.max(0, ...sorted.map((at, index) => sorted.slice(index).filter((later) => later < at + 1_000).length));
    }
};

for (const database of testDatabases()) {

    describe(`login starts paced across a fleet of sync workers (${database.name})`, function () {

        this.timeout(300_000);
        let app: App;
        let release: () => Promise<void>;

        before(async () => {

            const db = await database.create();
            release = db.release;
            app = await composeApp(loadConfig({ DATABASE_URL: db.url, ARCASYNC_SECRET_KEY: internals.secretKey }));
        });

        after(async () => {

            await app.close();
            await release();
        });

        it('four workers and sixteen keys: never more than two login starts in any one second at auth', async () => {

            const authority = await startSimulatedAuthority({ port: 0, latencyMs: 4 });
            const keys = internals.keys();
            const { accountId } = await seedAccount(app.ports);
            const clientIds: number[] = [];
            for (const cuit of keys) {
                const names = { nombre: 'Ana', apellido: `Prueba ${cuit}`, razonSocial: null };
                const name = displayName({ tipo: 'persona-fisica', ...names });
                const client = await app.ports.clients.insert({
                    publicId: randomUUID(), accountId, cuit: cuit as Cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                    displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: app.ports.secretBox.seal('clave'),
                    keyDigest: await app.ports.keyIdentity.of(cuit as Cuit, 'clave'), createdAt: Date.now()
                });
                clientIds.push(client!.id);
            }

            // The clients' first syncs are queued below, once every worker is waiting for them.
            await databaseOf(app)('sync_jobs').delete();
            const env = syncEnv(app.config.databaseUrl, internals.secretKey, authority.url, {
                SYNC_WINDOW: internals.window(), SYNC_LOGIN_GAP_MS: String(internals.gapMs), SYNC_LOGINS_IN_FLIGHT: '4', SYNC_LOGINS_PER_MINUTE: '600'
            });
            const workers = [0, 1, 2, 3].map(
                () => spawnSyncProcess(['sync', 'worker', '--json', '--concurrency', '4', '--poll-seconds', '0.05', '--lease-seconds', '30'], env)
            );
            try {
                await until(() => workers.every((worker) => worker.events.some((event) => event.event === 'ready')), 120_000, 'the workers');
                const now = Date.now();
                await databaseOf(app)('sync_jobs').insert(clientIds.map((clientId) => pendingJobRow({ clientId, reason: 'first', runAfter: now, createdAt: now })));
                await until(() => authority.loginStarts().length >= keys.length, 120_000, 'every key\'s login').catch((err: unknown) => {

                    throw new Error(`${String(err)}: ${workers.map((worker) => worker.output()).join('\n')}`);
                });
                // The daily jobs the workers' schedulers plan wait for their window.
                await until(
                    async () => Number((await databaseOf(app)('sync_jobs').where(
                        (due) => due.where('status', 'running').orWhere((pending) => pending.where('status', 'pending').andWhere('run_after', '<=', Date.now()))
                    ).count({ n: '*' }).first())!.n) === 0,
                    120_000,
                    'every job'
                );
            }
            finally {
                for (const worker of workers) {
                    worker.child.kill('SIGTERM');
                    await worker.exited;
                }

                await authority.stop();
            }

            const logins = authority.loginStarts();
            expect(logins.map((login) => login.cuit).sort()).to.deep.equal([...keys].sort());
            // Every worker took some of the keys: the fleet, not one process, started them.
            const ran = workers.map((worker) => worker.events.filter((event) => event.event === 'start').length);
            expect(ran.filter((jobs) => jobs > 0), `jobs per worker: ${ran.join(', ')}`).to.have.length.above(1);
            const starts = logins.map((login) => login.at);
            const first = Math.min(...starts);
            expect(internals.peakPerSecond(starts), `login starts (ms after the first): ${starts.map((at) => at - first).sort((a, b) => a - b).join(', ')}`).to.be.at.most(2);
        });

        it('a turn held past its lease stays held while its process lives, and frees itself once the process is gone', async function () {

            // A turn that never frees itself hangs here: fail within a minute, not the suite's five.
            this.timeout(60_000);
            const lease = { turnLeaseMs: 300 };
            const held = connect(app.config.databaseUrl);
            const waiter = fleetLimits(databaseOf(app), 'waiter', lease);
            const order: string[] = [];
            try {
                // Held for several leases (the renewals keep it), then answered: the other
                // process's turn comes after the answer.
                const first = await fleetLimits(held, 'held', lease).takeLoginTurn(50);
                const next = waiter.takeLoginTurn(50).then((turn) => {

                    order.push('next turn');
                    return turn;
                });
                await sleep(1_200);
                order.push('answered');
                await first.answered();
                await (await next).answered();
                expect(order).to.deep.equal(['answered', 'next turn']);

                // A process gone while it held the turn (its connection, and so its renewals,
                // with it): the turn frees itself after the lease.
                const orphan = await fleetLimits(held, 'held', lease).takeLoginTurn(50);
                await held.destroy();
                await (await waiter.takeLoginTurn(50)).answered();
                await orphan.ended();
            }
            finally {
                await held.destroy();
            }
        });
    });
}
