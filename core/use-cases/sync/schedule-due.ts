import type { QueueDeps } from './deps.js';
import type { SyncWindow } from './daily-window.js';
import { spreadFairly, windowPlan } from './daily-window.js';
import { dayMs } from './sync-policy.js';

// Once a day per CUIT: every client with nothing pending or running and no job of the ARCA day
// gets a 'daily' job, at its time in the day's window (daily-window.ts). A run that failed is
// retried by its own job with backoff; once its attempts are spent the CUIT comes back the next
// day, which keeps a failing CUIT from hammering the authority (repeated logins bring CAPTCHAs
// and blocked keys). Finished jobs are kept for a while for staff to look at, then deleted, so
// the queue does not grow by one row per CUIT and day forever.
export const finishedJobsKeptDays = 30;

// 01:00 to 07:00 in Buenos Aires.
export const defaultSyncWindow: SyncWindow = { startMs: 60 * 60_000, endMs: 7 * 60 * 60_000 };

export const scheduleDue = async (
    deps: Pick<QueueDeps, 'jobQueue' | 'clock'>,
    window: SyncWindow = defaultSyncWindow
): Promise<{ enqueued: number; pruned: number }> => {

    const now = deps.clock.now().getTime();
    const plan = windowPlan(now, window);
    const enqueued = await deps.jobQueue.enqueueDaily({ dayStart: plan.dayStart, now, plan: (due) => spreadFairly(due, plan.from, plan.to) });
    return { enqueued, pruned: await deps.jobQueue.prune(now - finishedJobsKeptDays * dayMs) };
};
