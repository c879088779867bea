import { setTimeout as sleep } from 'node:timers/promises';
import type { SyncJob } from '../../ports/job-queue.js';
import type { SyncDeps } from './deps.js';
import type { JobResult, RunJobOptions } from './run-job.js';
import { createKeySessions } from './key-sessions.js';
import { runJob } from './run-job.js';
import type { SyncWindow } from './daily-window.js';
import { scheduleDue } from './schedule-due.js';

export interface WorkerOptions extends Omit<RunJobOptions, 'stopping'> {
    concurrency: number;
    pollMs?: number;
    // Only jobs of these clients (a one-shot `sync --cuit`).
    clientIds?: readonly number[];
    // One-shot: return once no job of the scope is due or running, instead of waiting for
    // more.
    drain?: boolean;
    // Long-running workers also enqueue the daily jobs, this often, over this window.
    scheduleEveryMs?: number | null;
    window?: SyncWindow;
    onStart?: (event: { jobId: number; clientId: number; at: number }) => void;
    onResult?: (result: JobResult & { at: number }) => void;
    onError?: (err: unknown) => void;
    // How long a key's session (and the worker's hold of the key) outlives its last job; null:
    // until the worker stops (a one-shot run).
    keyIdleMs?: number | null;
}

export interface Worker {
    // Resolves when every slot has stopped (drained, or stopped and its job given back).
    done: Promise<WorkerSummary>;
    stop(): Promise<WorkerSummary>;
}

export interface WorkerSummary {
    jobs: number;
    synced: number;
    failed: number;
    // Jobs whose key waits its turn at ARCA (state espera_arca): not failures.
    waiting: number;
    invoices: number;
}

// A pool of `concurrency` slots fed by one claimer: it claims a job whenever a slot is free
// and, when nothing is due, asks the queue again after `pollMs` or as soon as one of its jobs
// ends (which may let another job of that client through). One claimer, so that idle slots
// do not each ask the database every `pollMs`. Many
// workers may run at once, in one process or on many machines: the queue keeps each client
// to one.
export const startWorker = (deps: SyncDeps, options: WorkerOptions): Worker => {

    const pollMs = options.pollMs ?? 1000;
    const concurrency = Math.max(1, options.concurrency);
    // The day's logins, one per key, shared by every slot: a key's taxpayers are walked inside
    // one session, one at a time; different keys run in parallel (up to `concurrency`). A claim
    // gives the worker the key's hold; the key is let go with its session.
    const sessions = options.sessions ?? createKeySessions(deps.authority, deps.clock, {
        ledger: deps.loginLedger,
        pacer: deps.loginPacer,
        maxRelogins: deps.maxRelogins,
        weeklyWrongCap: deps.weeklyWrongCap,
        idleMs: options.keyIdleMs ?? null,
        onKeyClosed: (keyId) => deps.jobQueue.releaseKeyHold(keyId, options.owner),
        stillWanted: (keyId) => deps.jobQueue.keyHasDue(keyId, deps.clock.now().getTime())
    });
    // The holds of keys whose sessions live are renewed like job leases.
    const holds = setInterval(
        () => void deps.jobQueue.renewKeyHolds(options.owner, deps.clock.now().getTime(), options.leaseMs).catch(() => undefined),
        Math.max(50, Math.floor(options.leaseMs / 3))
    );
    holds.unref();
    const summary: WorkerSummary = { jobs: 0, synced: 0, failed: 0, waiting: 0, invoices: 0 };
    const running = new Set<Promise<void>>();
    let stopping = false;
    const wake = new AbortController();
    let idle = new AbortController();

    const nap = async (ms: number) => {

        await sleep(ms, undefined, { signal: AbortSignal.any([wake.signal, idle.signal]) }).catch(() => undefined);
    };

    const run = async (job: SyncJob): Promise<void> => {

        options.onStart?.({ jobId: job.id, clientId: job.clientId, at: deps.clock.now().getTime() });
        let result: JobResult;
        try {
            result = await runJob(deps, job, { ...options, sessions, stopping: () => stopping });
        }
        catch (err) {
            options.onError?.(err);
            return;
        }
        finally {
            // A job that never reached its key's session (a deleted client, no key, a key
            // refused before) lets the key go at once.
            if (job.keyId !== null && !sessions.has(job.keyId)) {
                await deps.jobQueue.releaseKeyHold(job.keyId, options.owner).catch(() => undefined);
            }
        }

        summary.jobs++;
        summary.invoices += result.invoices;
        if (result.disposition === 'done') {
            summary.synced++;
        }
        else if (result.waiting && result.disposition === 'retry') {
            summary.waiting++;
        }
        else if (result.disposition === 'retry' || result.disposition === 'failed') {
            summary.failed++;
        }

        options.onResult?.({ ...result, at: deps.clock.now().getTime() });
    };

    const claimer = async () => {

        while (!stopping) {
            if (running.size >= concurrency) {
                await Promise.race(running);
                continue;
            }

            let job;
            try {
                job = await deps.jobQueue.claim({
                    owner: options.owner,
                    now: deps.clock.now().getTime(),
                    leaseMs: options.leaseMs,
                    ...(options.clientIds ? { clientIds: options.clientIds } : {})
                });
                // Drained once nothing of the scope is due or running anywhere (our own jobs
                // are running until they end).
                if (!job && options.drain && running.size === 0) {
                    const counts = await deps.jobQueue.counts(options.clientIds, deps.clock.now().getTime());
                    if (counts.due === 0 && counts.running === 0) {
                        break;
                    }
                }
            }
            catch (err) {
                // The database went away for a moment: try again after a pause; an unsettled
                // job's lease expires and the job is retaken.
                options.onError?.(err);
                job = null;
            }

            if (!job) {
                await nap(pollMs);
                continue;
            }

            const task: Promise<void> = run(job).finally(() => {

                running.delete(task);
                // A finished job may let another job of its client through: claim again now.
                idle.abort();
                idle = new AbortController();
            });
            running.add(task);
        }

        await Promise.all(running);
    };

    const scheduler = async () => {

        if (!options.scheduleEveryMs) {
            return;
        }

        while (!stopping) {
            await scheduleDue(deps, options.window).catch(() => undefined);
            await nap(options.scheduleEveryMs);
        }
    };

    const done = Promise.all([claimer(), scheduler()]).then(async () => {

        stopping = true;
        if (!options.sessions) {
            await sessions.close();
        }

        clearInterval(holds);

        return summary;
    });

    return {
        done,
        async stop() {

            stopping = true;
            wake.abort();
            return await done;
        }
    };
};
