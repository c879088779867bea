import type { App } from './compose.js';
import { jobQueue, syncTargetRepository } from '../adapters/knex/job-queue.js';
import type { AuthorityClient } from '../core/ports/authority-client.js';
import type { QueueDeps, SyncDeps } from '../core/use-cases/sync/deps.js';

// The synchronization's adapters over an app's database: the job queue, the clients as the
// sync reads them, and the authority client handed in by the caller.

export const queueDeps = (app: App): QueueDeps => ({
    jobQueue: jobQueue(app.knex),
    syncTargets: syncTargetRepository(app.knex),
    clock: app.ports.clock
});

export const syncDeps = (app: App, authority: AuthorityClient): SyncDeps => ({
    ...app.ports,
    ...queueDeps(app),
    authority
});
