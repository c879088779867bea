import type { Timestamp } from '../../core/domain/time.js';
import type { SyncReason } from '../../core/ports/job-queue.js';

// A new synchronization job as sync_jobs stores it: pending, no attempt yet, due at `runAfter`.
// The one shape every writer of a new job uses (a client's creation, JobQueue.enqueue, the
// daily scheduler), tests that queue one by hand included.
export const pendingJobRow = (job: { clientId: number; reason: SyncReason; runAfter: Timestamp; createdAt: Timestamp }) => ({
    client_id: job.clientId,
    reason: job.reason,
    status: 'pending' as const,
    run_after: job.runAfter,
    attempts: 0,
    created_at: job.createdAt
});
