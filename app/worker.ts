import type { App } from './compose.js';
import { processOwner } from './compose.js';
import { loginPacerOf, queueDeps, syncDeps } from './sync.js';
import type { JobResult } from '../core/use-cases/sync/run-job.js';
import type { Worker, WorkerOptions, WorkerSummary } from '../core/use-cases/sync/run-worker.js';
import { startWorker } from '../core/use-cases/sync/run-worker.js';
import { checkAuthority } from '../core/use-cases/sync/check-authority.js';
import { checkKeyIdentity } from '../core/use-cases/key-identity.js';

// The synchronization as processes run it: a worker over the app's database and the
// configured authority (`sync worker`, `serve --worker`, the demo), and a run to the end in
// this process (`sync`, the demo's first synchronization). Progress goes to callbacks; the
// front end decides how to show it.

// The worker's own options, each optional here: the defaults are filled in below.
export type SyncWorkerOptions = Partial<Pick<WorkerOptions, 'concurrency' | 'leaseMs' | 'pollMs' | 'clientIds' | 'drain' | 'scheduleEveryMs' | 'onStart' | 'onResult'>>;

const workerDefaults = {
    concurrency: 8,
    leaseMs: 5 * 60_000,
    scheduleEveryMs: 60_000
};

// Before anything contacts the authority: the demo's database never reaches the real one, and
// the keys' identity secret opens (or the worker refuses to start, saying what to do, rather
// than fail every login).
export const checkAuthorityFor = async (app: App): Promise<void> => {

    await checkAuthority(app.ports, app.config.authority);
    await checkKeyIdentity(app.ports);
};

// A worker over the app's database and the configured authority.
export const startSyncWorker = (app: App, options: SyncWorkerOptions = {}): Worker => {

    const deps = { ...syncDeps(app, app.authority), loginPacer: loginPacerOf(app) };
    const drain = options.drain ?? false;
    return startWorker(deps, {
        owner: processOwner(),
        keyIdleMs: drain ? null : app.config.fleet.keyIdleMs,
        window: app.config.fleet.window,
        concurrency: options.concurrency ?? workerDefaults.concurrency,
        leaseMs: options.leaseMs ?? workerDefaults.leaseMs,
        ...(options.pollMs ? { pollMs: options.pollMs } : {}),
        ...(options.clientIds ? { clientIds: options.clientIds } : {}),
        drain,
        scheduleEveryMs: options.scheduleEveryMs === undefined ? workerDefaults.scheduleEveryMs : options.scheduleEveryMs,
        ...(options.onStart ? { onStart: options.onStart } : {}),
        ...(options.onResult ? { onResult: options.onResult } : {})
    });
};

export interface SyncNowSummary extends WorkerSummary {
    // One entry per CUIT whose last attempt of this run ended with an error.
    failures: { cuit: string | null; error: string | null }[];
    // CUITs of the run that another worker synchronized meanwhile (its lease, its result).
    otherWorkers: number;
}

export interface SyncProgress {
    total: number;                     // CUITs due or running in the scope when the run began
    done: number;
    failed: number;
}

export interface SyncNowOptions {
    clientIds: readonly number[] | null;
    concurrency: number;
    onProgress?: (progress: SyncProgress) => void;
    // Stops the run: no new jobs; running ones are given back to the queue.
    signal?: AbortSignal;
}

const outcomes = {
    // What a CUIT's last attempt of the run says about it: synced, ended with an error, or
    // neither (given back on stop; or its lease lost to another worker).
    of(result: JobResult): 'synced' | 'failed' | 'waiting' | 'other' | 'none' {

        switch (result.disposition) {
            case 'done': return 'synced';
            case 'retry': return result.waiting ? 'waiting' : 'failed';
            case 'failed': return 'failed';
            case 'lost': return 'other';
            default: return 'none';
        }
    }
};

// Run the jobs of these clients (every due job when null) to the end in this process. The
// summary counts CUITs, each by its last attempt: a CUIT retried within the run is one CUIT
// with one outcome; `jobs` counts the attempts.
export const syncNow = async (app: App, options: SyncNowOptions): Promise<SyncNowSummary> => {

    await checkAuthorityFor(app);
    const queue = queueDeps(app);
    const initial = await queue.jobQueue.counts(options.clientIds ?? undefined, app.ports.clock.now().getTime());
    const total = initial.due + initial.running;
    const last = new Map<number, JobResult>();
    const count = (outcome: ReturnType<typeof outcomes.of>) => [...last.values()].filter((result) => outcomes.of(result) === outcome).length;
    const report = () => options.onProgress?.({ total: Math.max(total, last.size), done: last.size, failed: count('failed') });
    report();
    const worker = startSyncWorker(app, {
        concurrency: options.concurrency,
        drain: true,
        scheduleEveryMs: null,
        pollMs: 200,
        ...(options.clientIds ? { clientIds: options.clientIds } : {}),
        onResult: (result: JobResult) => {

            last.set(result.clientId, result);
            report();
        }
    });

    const stop = () => void worker.stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
        const attempts = await worker.done;
        const failures = [...last.values()].filter((result) => outcomes.of(result) === 'failed').map((result) => ({ cuit: result.cuit, error: result.error }));
        const ours = [...last.values()].filter((result) => outcomes.of(result) !== 'other').length;
        return {
            jobs: attempts.jobs,
            synced: count('synced'),
            failed: failures.length,
            waiting: count('waiting'),
            invoices: attempts.invoices,
            failures,
            // Jobs due or running when the run began that this process did not finish (after
            // a stop, the unfinished ones are nobody's yet).
            otherWorkers: options.signal?.aborted ? count('other') : Math.max(count('other'), total - ours)
        };
    }
    finally {
        options.signal?.removeEventListener('abort', stop);
    }
};
