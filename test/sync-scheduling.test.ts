import { expect } from 'chai';
import type { AuthorityClient } from '../core/ports/authority-client.js';
import type { JobQueue } from '../core/ports/job-queue.js';
import type { SyncDeps } from '../core/use-cases/sync/deps.js';
import { startWorker } from '../core/use-cases/sync/run-worker.js';

// Who gets to ask next: the worker's claims on the queue.

const internals = {
    // Lets every promise callback and immediate queued so far run.
    async settle(turns = 5): Promise<void> {

        for (let i = 0; i < turns; ++i) {
            await new Promise((resolve) => setImmediate(resolve));
        }
    }
};

describe('sync scheduling', () => {

    it('an idle worker asks the queue once per poll, not once per slot', async () => {

        let claims = 0;
        const jobQueue = {
            claim: async () => {

                claims++;
                return null;
            },
            counts: async () => ({ pending: 0, due: 0, running: 0 })
        } as unknown as JobQueue;
        const deps = { jobQueue, clock: { now: () => new Date() }, authority: {} as AuthorityClient } as unknown as SyncDeps;
        const worker = startWorker(deps, { owner: 'w', concurrency: 8, leaseMs: 60_000, pollMs: 60_000 });
        await internals.settle();
        expect(claims).to.equal(1);
        await worker.stop();
    });
});
