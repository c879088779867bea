import type { App } from './compose.js';
import type { AuthorityClient } from '../core/ports/authority-client.js';
import type { QueueDeps, SyncDeps } from '../core/use-cases/sync/deps.js';

// The synchronization's ports of an app: the job queue, the clients as the sync reads them,
// and the authority client handed in by the caller.

export const queueDeps = (app: App): QueueDeps => ({
    jobQueue: app.ports.jobQueue,
    syncTargets: app.ports.syncTargets,
    clock: app.ports.clock
});

export const syncDeps = (app: App, authority: AuthorityClient): SyncDeps => ({
    ...app.ports,
    ...queueDeps(app),
    authority
});
