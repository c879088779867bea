import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createAuthorityClient } from '../../app/authority.js';
import { syncDeps } from '../../app/sync.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { retriedOnLockConflict } from '../../adapters/knex/lock-retries.js';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { databaseOf } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';

// A delete during a sync answers 204, never 500 (issue 37, item 8): `DELETE /v1/cuits/{cuit}`
// while that CUIT synced met a deadlock on MariaDB (the delete's `select id from clients … for
// update` against a sync's write) and answered 500 in 1 to 3 of 6 tries. A transaction the
// database aborts as a deadlock or a lock wait timeout is run again before anything answers.
// Each round creates CUITs through the API, syncs them, and deletes each as the sync stores one
// of its systems (so the delete meets the next system's write), in an account that listens to
// webhooks (its events are written in the sync's transactions too).

const internals = {
    today: '2026-03-15',
    rounds: 6,
    secretKey: randomBytes(32).toString('base64'),
    // After which system's write each CUIT of a round is deleted: the next one's write is then
    // under way or about to be (the DFE, last, is the largest write).
    triggers: ['ccma', 'sct', 'received_invoices', 'issued_invoices', 'ccma', 'registry'] as SyncSystem[],

    checkDigit(first10: string): string {

        const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
        const digit = 11 - (weights.reduce((sum, weight, index) => sum + weight * Number(first10[index]), 0) % 11);
        return String(digit === 11 ? 0 : digit === 10 ? 9 : digit);
    },

    cuit(round: number, index: number): string {

        const first10 = `20${String(31_000_000 + round * 100 + index).padStart(8, '0')}`;
        return `${first10}${internals.checkDigit(first10)}`;
    }
};

for (const database of testDatabases()) {

    describe(`a CUIT deleted while it syncs (${database.name})`, function () {

        this.timeout(300_000);
        let authority: SimulatedAuthority;
        let server: TestServer;
        let user: SeededUser;

        before(async () => {

            authority = await startSimulatedAuthority({
                port: 0,
                today: internals.today,
                fesMinGapMs: 0,
                data: { issuedPerMonth: [60, 90], receivedPerMonth: [40, 60] }
            });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey }, clock: testClock(`${internals.today}T12:00:00Z`) });
            user = await seedAccount(server.app.ports, { writing: true });
            // Nobody delivers: the events only have to be written.
            const created = await runCli(server.app.config.databaseUrl, [
                'webhook', 'create', '--account', String(user.accountId), '--url', 'http://127.0.0.1:9/hooks'
            ], { ARCASYNC_SECRET_KEY: internals.secretKey, WEBHOOK_ALLOW_HTTP_LOOPBACK: '1' });
            expect(created.code, created.stderr).to.equal(0);
        });

        after(async () => {

            await server?.stop();
            await authority?.stop();
        });

        it(`answers 204 (or 404 once gone) to every DELETE raced against running syncs, never 500, in ${internals.rounds} rounds`, async () => {

            const statuses: string[] = [];
            for (let round = 0; round < internals.rounds; round++) {
                const cuits = internals.triggers.map((_, index) => internals.cuit(round, index));
                const ids = new Map<string, number>();
                for (const cuit of cuits) {
                    const res = await server.request('/v1/cuits', {
                        token: user.token,
                        method: 'POST',
                        body: { tipo: 'persona-fisica', cuit, nombre: 'Ana', apellido: `Ronda ${round}`, clave_arca: `clave-${cuit}` }
                    });
                    expect(res.status, res.text).to.equal(201);
                    ids.set(cuit, Number((await databaseOf(server.app)('clients').select('id').where({ cuit }).first()).id));
                    // A large DFE: its write (the last) is the longest.
                    const served = authority.expected(cuit).notifications;
                    served.push(...Array.from({ length: 400 }, (_, index) => ({ ...served[0]!, arcaId: String(900_000 + index) })));
                }

                const deps = syncDeps(server.app, createAuthorityClient({ authority: 'simulated', authorityUrl: authority.url }));
                const worker = startWorker(deps, { owner: `race-${round}`, concurrency: 3, leaseMs: 60_000, drain: true, pollMs: 10 });
                let running = true;
                const done = worker.done.finally(() => {

                    running = false;
                });

                // Each CUIT deleted as soon as its trigger system is stored, or once the worker ended.
                await Promise.all(cuits.map(async (cuit, index) => {

                    const trigger = internals.triggers[index]!;
                    while (running) {
                        const stored = await databaseOf(server.app)('sync_states').where({ client_id: ids.get(cuit)!, system: trigger }).whereNotNull('synced_at').first();
                        if (stored) {
                            break;
                        }

                        await new Promise((resolve) => setTimeout(resolve, 2));
                    }

                    const res = await server.request(`/v1/cuits/${cuit}`, { token: user.token, method: 'DELETE' });
                    statuses.push(`${res.status} ${res.status === 204 || res.status === 404 ? '' : res.text}`.trim());
                }));
                await done;
            }

            expect(statuses.filter((status) => status !== '204' && status !== '404'), statuses.join('\n')).to.deep.equal([]);
            expect(statuses).to.have.length(internals.rounds * internals.triggers.length);
            expect(await databaseOf(server.app)('clients').where({ account_id: user.accountId }).count({ n: '*' }).first()).to.deep.include({ n: 0 });
        });
    });
}

describe('a transaction that lost over locks runs again, a bounded number of times', () => {

    // A transaction failing with `code` its first `failures` times; how many times it ran.
    const attempts = async (code: string, failures: number): Promise<{ runs: number; error: string | null }> => {

        let runs = 0;
        try {
            await retriedOnLockConflict(async () => {

                if (++runs <= failures) {
                    throw Object.assign(new Error(code), { code });
                }
            }, undefined, () => 0);
            return { runs, error: null };
        }
        catch (err) {
            return { runs, error: (err as { code: string }).code };
        }
    };

    it('retries a deadlock up to five runs in all and a lock wait timeout once; nothing else', async () => {

        expect(await attempts('ER_LOCK_DEADLOCK', 4)).to.deep.equal({ runs: 5, error: null });
        expect(await attempts('ER_LOCK_DEADLOCK', 9)).to.deep.equal({ runs: 5, error: 'ER_LOCK_DEADLOCK' });
        expect(await attempts('ER_LOCK_WAIT_TIMEOUT', 1)).to.deep.equal({ runs: 2, error: null });
        expect(await attempts('ER_LOCK_WAIT_TIMEOUT', 9)).to.deep.equal({ runs: 2, error: 'ER_LOCK_WAIT_TIMEOUT' });
        expect(await attempts('ER_DUP_ENTRY', 9)).to.deep.equal({ runs: 1, error: 'ER_DUP_ENTRY' });
        expect(await attempts('SQLITE_BUSY', 9)).to.deep.equal({ runs: 1, error: 'SQLITE_BUSY' });
    });
});
