import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ConfiguredAuthority } from './authority.js';
import { createAuthorityClient } from './authority.js';
import type { App } from './compose.js';
import { queueDeps, syncDeps } from './sync.js';
import type { JobResult } from '../core/use-cases/sync/run-job.js';
import type { Worker, WorkerOptions, WorkerSummary } from '../core/use-cases/sync/run-worker.js';
import { startWorker } from '../core/use-cases/sync/run-worker.js';

// The synchronization as processes run it: a worker over the app's database and the
// configured authority (`sync worker`, `serve --worker`, the demo), and a run to the end in
// this process (`sync`, the demo's first synchronization). Progress goes to callbacks; the
// front end decides how to show it.

// The worker's own options, each optional here: the defaults are filled in below.
export type SyncWorkerOptions = Partial<Pick<WorkerOptions, 'concurrency' | 'leaseMs' | 'pollMs' | 'clientIds' | 'drain' | 'scheduleEveryMs' | 'onStart' | 'onResult'>>;

export const workerDefaults = {
    concurrency: 8,
    leaseMs: 5 * 60_000,
    scheduleEveryMs: 60_000
};

const internals = {
    authorities: new WeakMap<App, ConfiguredAuthority>(),

    owner: () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
};

// One authority client per app (with AUTHORITY=simulated and no AUTHORITY_URL, one simulated
// authority in this process), shared by every worker of the app.
export const authorityOf = (app: App): ConfiguredAuthority => {

    let authority = internals.authorities.get(app);
    if (!authority) {
        authority = createAuthorityClient(app.config);
        internals.authorities.set(app, authority);
    }

    return authority;
};

// A worker over the app's database and the configured authority.
export const startSyncWorker = (app: App, options: SyncWorkerOptions = {}): Worker => {

    const deps = syncDeps(app, authorityOf(app));
    return startWorker(deps, {
        owner: internals.owner(),
        concurrency: options.concurrency ?? workerDefaults.concurrency,
        leaseMs: options.leaseMs ?? workerDefaults.leaseMs,
        ...(options.pollMs ? { pollMs: options.pollMs } : {}),
        ...(options.clientIds ? { clientIds: options.clientIds } : {}),
        drain: options.drain ?? false,
        scheduleEveryMs: options.scheduleEveryMs === undefined ? workerDefaults.scheduleEveryMs : options.scheduleEveryMs,
        ...(options.onStart ? { onStart: options.onStart } : {}),
        ...(options.onResult ? { onResult: options.onResult } : {})
    });
};

export interface SyncNowSummary extends WorkerSummary {
    failures: { cuit: string | null; error: string | null }[];
}

export interface SyncProgress {
    total: number;                     // jobs due or running in the scope when the run began
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

// Run the jobs of these clients (every due job when null) to the end in this process.
export const syncNow = async (app: App, options: SyncNowOptions): Promise<SyncNowSummary> => {

    const queue = queueDeps(app);
    const initial = await queue.jobQueue.counts(options.clientIds ?? undefined, app.ports.clock.now().getTime());
    const progress: SyncProgress = { total: initial.due + initial.running, done: 0, failed: 0 };
    const report = () => options.onProgress?.({ ...progress, total: Math.max(progress.total, progress.done) });
    const failures: SyncNowSummary['failures'] = [];
    report();
    const worker = startSyncWorker(app, {
        concurrency: options.concurrency,
        drain: true,
        scheduleEveryMs: null,
        pollMs: 200,
        ...(options.clientIds ? { clientIds: options.clientIds } : {}),
        onResult: (result: JobResult) => {

            progress.done++;
            if (result.disposition !== 'done' && result.disposition !== 'released') {
                progress.failed++;
            }

            if (result.disposition === 'retry' || result.disposition === 'failed') {
                failures.push({ cuit: result.cuit, error: result.error });
            }

            report();
        }
    });

    const stop = () => void worker.stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
        return { ...await worker.done, failures };
    }
    finally {
        options.signal?.removeEventListener('abort', stop);
    }
};
