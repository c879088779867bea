import type { AuthorityClient } from '../../ports/authority-client.js';
import type { JobQueue, SyncTargetRepository } from '../../ports/job-queue.js';
import type { Ports } from '../../ports/index.js';

// What the synchronization use cases work with: the repositories that store each system's
// result, the job queue, and the authority.
export type SyncDeps = Pick<Ports, 'invoices' | 'sct' | 'ccma' | 'notifications' | 'registry' | 'syncStates' | 'clock' | 'secretBox'> & {
    jobQueue: JobQueue;
    syncTargets: SyncTargetRepository;
    authority: AuthorityClient;
};

export type QueueDeps = Pick<SyncDeps, 'jobQueue' | 'syncTargets' | 'clock'>;
