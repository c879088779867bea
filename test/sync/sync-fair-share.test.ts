import { expect } from 'chai';
import type { App } from '../../app/compose.js';
import { queueDeps } from '../../app/sync.js';
import type { QueueDeps } from '../../core/use-cases/sync/deps.js';
import { useApp } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import { addClient, seedAccount } from '../support/fixtures.js';

// Fair share between accounts (issue 36): the claim lets accounts take turns, so one account's
// hundreds of queued first syncs never hold another account's new CUIT behind them.

for (const database of testDatabases()) {

    describe(`sync fair share between accounts (${database.name})`, () => {

        let app: App;
        let deps: QueueDeps;
        const lease = 60_000;
        useApp(database, (opened) => (app = opened));

        before(() => {

            deps = queueDeps(app);
        });

        it('claims another account\'s one first sync within the first jobs after one account queued 500', async function () {

            this.timeout(120_000);
            const busy = (await seedAccount(app.ports)).accountId;
            const other = (await seedAccount(app.ports)).accountId;
            const start = Date.now();
            for (let i = 0; i < 500; i++) {
                const client = await addClient(app.ports, busy, { cuit: `20${String(30_000_000 + i).padStart(8, '0')}1` });
                await deps.jobQueue.enqueue(client.id, 'first', start + i);
            }

            const late = await addClient(app.ports, other, { cuit: '27999999991' });
            await deps.jobQueue.enqueue(late.id, 'first', start + 500);

            // One worker, one job at a time: each claimed job ends and its key's session
            // closes before the next claim, as a single slot does.
            const now = start + 501;
            const order: number[] = [];
            for (let i = 0; i < 5; i++) {
                const job = await deps.jobQueue.claim({ owner: 'w1', now, leaseMs: lease });
                expect(job).to.not.equal(null);
                order.push(job!.clientId);
                expect(await deps.jobQueue.complete(job!, 'w1', now)).to.equal(true);
                if (job!.keyId !== null) {
                    await deps.jobQueue.releaseKeyHold(job!.keyId, 'w1');
                }
            }

            expect(order.slice(0, 2)).to.include(late.id);
        });
    });
}
