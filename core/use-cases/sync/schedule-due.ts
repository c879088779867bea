import { arcaDay } from '../../domain/arca-day.js';
import type { LoginLedger } from '../../ports/fleet.js';
import type { QueueDeps } from './deps.js';
import type { SyncWindow } from './daily-window.js';
import { spreadFairly, windowPlan } from './daily-window.js';
import { dayMs } from './sync-policy.js';

// Once a day per CUIT: every client with nothing pending or running and no job of the ARCA day
// gets a 'daily' job, at its time in the day's window (daily-window.ts). A run that failed is
// retried by its own job with backoff; once its attempts are spent the CUIT comes back the next
// day, which keeps a failing CUIT from hammering the authority (repeated logins bring CAPTCHAs
// and blocked keys). Finished jobs and the login ledger's days are kept for a while for staff
// to look at, then deleted, so neither grows by rows per CUIT and day forever.
const finishedJobsKeptDays = 30;

// 01:00 to 07:00 in Buenos Aires.
const defaultSyncWindow: SyncWindow = { startMs: 60 * 60_000, endMs: 7 * 60 * 60_000 };

export const scheduleDue = async (
    deps: Pick<QueueDeps, 'jobQueue' | 'clock'> & { loginLedger?: LoginLedger },
    window: SyncWindow = defaultSyncWindow
): Promise<{ enqueued: number; pruned: number; prunedLogins: number }> => {

    const now = deps.clock.now().getTime();
    const plan = windowPlan(now, window);
    const enqueued = await deps.jobQueue.enqueueDaily({ dayStart: plan.dayStart, now, plan: (due) => spreadFairly(due, plan.from, plan.to) });
    const pruned = await deps.jobQueue.prune(now - finishedJobsKeptDays * dayMs);
    // The ledger's past days go the same way (its rule looks 7 days back; proven and refused
    // keys stay known in arca_keys), so it does not grow by a row per login forever.
    const prunedLogins = deps.loginLedger ? await deps.loginLedger.prune(arcaDay(now - finishedJobsKeptDays * dayMs)) : 0;
    return { enqueued, pruned, prunedLogins };
};
