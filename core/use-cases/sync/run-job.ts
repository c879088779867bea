import type { SyncJob } from '../../ports/job-queue.js';
import type { SyncDeps } from './deps.js';
import type { InvoiceWindowPolicy } from './sync-policy.js';
import { retryPolicy } from './sync-policy.js';
import type { KeySessions } from './key-sessions.js';
import type { SyncClientResult } from './sync-client.js';
import { syncClient } from './sync-client.js';

export interface RunJobOptions {
    owner: string;
    leaseMs: number;
    // True once the worker is asked to stop: the job stops before its next system and is
    // given back.
    stopping: () => boolean;
    invoicePolicy?: InvoiceWindowPolicy;
    maxAttempts?: number;
    retryDelayMs?: (attempts: number) => number;
    sessions?: KeySessions;
}

// done: finished; retry: back to pending with backoff; failed: not retried (key refused,
// attempts exhausted, nothing to log in with); released: given back on shutdown; lost: the
// lease was lost or the client deleted, nothing more written.
type JobDisposition = 'done' | 'retry' | 'failed' | 'released' | 'lost';

export interface JobResult extends SyncClientResult {
    jobId: number;
    attempts: number;
    disposition: JobDisposition;
    // When the sync itself ended (wall clock), before the job was settled and its client
    // became claimable again.
    endedAt: number;
}

// Run one claimed job: renew the lease while it runs, check it before every write, and
// settle the job by what the sync achieved.
export const runJob = async (deps: SyncDeps, job: SyncJob, options: RunJobOptions): Promise<JobResult> => {

    const { owner, leaseMs } = options;
    let held = true;
    const renew = async (): Promise<boolean> => {

        if (held) {
            held = await deps.jobQueue.renew(job, owner, deps.clock.now().getTime(), leaseMs).catch(() => held);
        }

        return held;
    };

    const heartbeat = setInterval(() => void renew(), Math.max(50, Math.floor(leaseMs / 3)));
    heartbeat.unref();

    let result: SyncClientResult;
    try {
        result = await syncClient(deps, {
            clientId: job.clientId,
            full: job.reason === 'forced',
            // A retry does not fetch again what an earlier attempt of this job already stored.
            skipSyncedSince: job.attempts > 1 ? job.createdAt : null,
            proceed: () => !options.stopping(),
            mayWrite: renew,
            ...(options.sessions ? { sessions: options.sessions } : {}),
            ...(options.invoicePolicy ? { invoicePolicy: options.invoicePolicy } : {})
        });
    }
    catch (err) {
        clearInterval(heartbeat);
        const endedAt = deps.clock.now().getTime();
        const message = err instanceof Error ? err.message : String(err);
        const settled = await settle(deps, job, options, { retry: true, retryAfterMs: 0, error: message.slice(0, 500) });
        return {
            clientId: job.clientId,
            cuit: null,
            outcome: 'failed',
            retry: true,
            retryAfterMs: 0,
            error: message,
            systems: [],
            invoices: 0,
            jobId: job.id,
            attempts: job.attempts,
            disposition: settled,
            endedAt
        };
    }

    clearInterval(heartbeat);
    const base = { ...result, jobId: job.id, attempts: job.attempts, endedAt: deps.clock.now().getTime() };
    if (result.outcome === 'gone') {
        return { ...base, disposition: 'lost' };
    }

    if (result.outcome === 'interrupted') {
        const released = held && await deps.jobQueue.release(job, owner, deps.clock.now().getTime());
        return { ...base, disposition: released ? 'released' : 'lost' };
    }

    if (result.outcome === 'synced') {
        return { ...base, disposition: await deps.jobQueue.complete(job, owner, deps.clock.now().getTime()) ? 'done' : 'lost' };
    }

    return { ...base, disposition: await settle(deps, job, options, { retry: result.retry, retryAfterMs: result.retryAfterMs, error: result.error ?? '' }) };
};

const settle = async (
    deps: SyncDeps,
    job: SyncJob,
    options: RunJobOptions,
    input: { retry: boolean; retryAfterMs: number; error: string }
): Promise<JobDisposition> => {

    const now = deps.clock.now().getTime();
    const maxAttempts = options.maxAttempts ?? retryPolicy.maxAttempts;
    if (input.retry && job.attempts < maxAttempts) {
        // A block or a failure after the password: never sooner than the failure asks.
        const delay = Math.max((options.retryDelayMs ?? retryPolicy.delayMs)(job.attempts), input.retryAfterMs);
        return await deps.jobQueue.retry(job, options.owner, input.error, now + delay) ? 'retry' : 'lost';
    }

    return await deps.jobQueue.fail(job, options.owner, input.error, now) ? 'failed' : 'lost';
};
