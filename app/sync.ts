import type { App } from './compose.js';
import type { AuthorityClient } from '../core/ports/authority-client.js';
import type { QueueDeps, SyncDeps } from '../core/use-cases/sync/deps.js';
import type { LoginPacer } from '../core/use-cases/sync/login-pacing.js';
import { createLoginPacer } from '../core/use-cases/sync/login-pacing.js';

// The synchronization's dependencies, all from the app's ports: the job queue, the clients as
// the sync reads them, the fleet's login ledger and login pacing, and the authority client
// handed in by the caller.

const internals = {
    pacers: new WeakMap<App, LoginPacer>()
};

export const queueDeps = (app: App): QueueDeps => ({
    jobQueue: app.ports.jobQueue,
    syncTargets: app.ports.syncTargets,
    clock: app.ports.clock
});

// One pacer per process: every worker and run of the app shares its gap and cap.
export const loginPacerOf = (app: App): LoginPacer => {

    let pacer = internals.pacers.get(app);
    if (!pacer) {
        const fleet = app.config.fleet;
        pacer = createLoginPacer({
            gapMs: fleet.loginGapMs,
            maxInFlight: fleet.loginsInFlight,
            perMinute: fleet.loginsPerMinute
        }, app.ports.fleetLimits);
        internals.pacers.set(app, pacer);
    }

    return pacer;
};


export const syncDeps = (app: App, authority: AuthorityClient): SyncDeps => ({
    ...app.ports,
    ...queueDeps(app),
    authority,
    // Workers and runs pace their logins (app/worker.ts); a single sync called directly does not.
    loginPacer: null,
    maxRelogins: app.config.fleet.reloginsPerDay,
    weeklyWrongCap: app.config.fleet.wrongKeysPerWeek,
    checkDigits: app.config.fleet.checkDigits
});
