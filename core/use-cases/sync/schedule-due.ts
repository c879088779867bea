import type { QueueDeps } from './deps.js';
import { dayMs } from './sync-policy.js';

// Once a day per CUIT: every client whose last run is older than a day and that has nothing
// pending or running gets a 'daily' job. A run that failed is retried by its own job with
// backoff; once its attempts are spent the CUIT comes back the next day, which keeps a
// failing CUIT from hammering the authority (repeated logins bring CAPTCHAs and blocked
// keys). Finished jobs are kept for a while for staff to look at, then deleted, so the queue
// does not grow by one row per CUIT and day forever.
export const finishedJobsKeptDays = 30;

export const scheduleDue = async (deps: Pick<QueueDeps, 'jobQueue' | 'clock'>): Promise<{ enqueued: number; pruned: number }> => {

    const now = deps.clock.now().getTime();
    const enqueued = await deps.jobQueue.enqueueDue(now - dayMs, now);
    return { enqueued, pruned: await deps.jobQueue.prune(now - finishedJobsKeptDays * dayMs) };
};
