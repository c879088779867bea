import type { AuthorityClient } from '../../ports/authority-client.js';
import type { JobQueue, SyncTargetRepository } from '../../ports/job-queue.js';
import type { Ports } from '../../ports/index.js';
import type { LoginLedger } from '../../ports/fleet.js';
import type { LoginPacer } from './login-pacing.js';

// What the synchronization use cases work with: the repositories that store each system's
// result, the job queue, and the authority.
export type SyncDeps = Pick<Ports, 'invoices' | 'sct' | 'ccma' | 'notifications' | 'registry' | 'syncStates' | 'clock' | 'secretBox' | 'keyIdentity'> & {
    jobQueue: JobQueue;
    syncTargets: SyncTargetRepository;
    authority: AuthorityClient;
    // Shared by the fleet: every login is counted per key and ARCA day, and paced.
    loginLedger: LoginLedger;
    loginPacer: LoginPacer | null;
    // Logins of a key after the day's first (an expired session, a worker that died).
    maxRelogins: number;
    // Unproven posts of one CUIT in any 7 days, over every account (core/domain/login-ledger.ts).
    weeklyWrongCap: number;
    // CUITs whose check digit is wrong are never sent as logins (false: the simulated
    // authority's made-up CUITs).
    checkDigits: boolean;
};

export type QueueDeps = Pick<SyncDeps, 'jobQueue' | 'syncTargets' | 'clock'>;
