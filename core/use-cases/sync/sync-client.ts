import type { SyncSystem } from '../../domain/sync-system.js';
import type { Timestamp } from '../../domain/time.js';
import type { TaxpayerSession } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import type { SyncTarget } from '../../ports/job-queue.js';
import type { InvoiceSaveContext } from '../../ports/repositories.js';
import type { SyncDeps } from './deps.js';
import type { Fetched } from './fetch-system.js';
import { fetchSystem, joinsBatch, storeBatch } from './fetch-system.js';
import type { KeySessions } from './key-sessions.js';
import { createKeySessions } from './key-sessions.js';
import type { SyncLogin } from './log-in.js';
import { logInForSync, refuseKey } from './log-in.js';
import { describeFailure } from './sync-failure.js';
import type { InvoiceWindowPolicy } from './sync-policy.js';
import { systemsFor } from './sync-policy.js';
import { isKeyFailureKind } from '../../domain/login-ledger.js';
import type { SyncClientResult, SyncReport } from './sync-report.js';
import { createSyncReport, goneResult } from './sync-report.js';

export type { SyncClientResult } from './sync-report.js';

export interface SyncClientInput {
    clientId: number;
    // A staff resync: invoices are read again over the whole backfill.
    full?: boolean;
    // On a retry, the systems already synchronized since this instant are not fetched again.
    skipSyncedSince?: Timestamp | null;
    // Asked before each system: false stops before fetching it (a worker shutting down).
    proceed?: () => boolean;
    // Asked after fetching, before writing: false writes nothing more (the lease was lost).
    mayWrite?: () => Promise<boolean>;
    invoicePolicy?: InvoiceWindowPolicy;
    // The day's key sessions, shared by every job of a worker (one login per key per day);
    // without it this sync logs in and out on its own.
    sessions?: KeySessions;
}

// One sync's reading and storing, after the login: what it reads with and reports to.
interface Reading {
    deps: SyncDeps;
    input: SyncClientInput;
    target: SyncTarget;
    systems: readonly SyncSystem[];
    login: SyncLogin;
    session: TaxpayerSession;
    report: SyncReport;
    // The systems' records as the sync began, and the registry's word as it stands: what the
    // invoice saves decide their events from.
    known: InvoiceSaveContext;
}

// null: go on with the next system.
type Stop = SyncClientResult | null;

const internals = {
    // On a retry, the systems an earlier attempt of the job already stored are not read again.
    systemsToRun(target: SyncTarget, known: InvoiceSaveContext, since: Timestamp | null | undefined): SyncSystem[] {

        const systems = systemsFor(target.tipo);
        if (since === undefined || since === null) {
            return systems;
        }

        const done = new Set(known.states.filter((state) => state.syncedAt !== null && state.syncedAt >= since).map((state) => state.system));
        return systems.filter((system) => !done.has(system));
    },

    // A system that could not be fetched or stored: its error recorded and the sync goes on,
    // or the sync ends (a deleted client, a refused key: every system left gets its error).
    async systemFailed(reading: Reading, system: SyncSystem, err: unknown): Promise<Stop> {

        const { deps, target, report, login } = reading;
        if (!(err instanceof AuthorityFailure) && !await deps.syncTargets.find(target.id)) {
            return report.finish('gone');
        }

        const failure = describeFailure(err, login.password);
        if (failure.kind && isKeyFailureKind(failure.kind)) {
            const refusal = await refuseKey(deps, login.key, { ...failure, kind: failure.kind });
            return await report.failRest(reading.systems.slice(reading.systems.indexOf(system)), refusal);
        }

        return await report.failed(system, failure) ? null : report.finish('gone');
    },

    // The systems fetched and not written yet, in one transaction: they succeed or fail together.
    async write(reading: Reading, batch: readonly Fetched[]): Promise<Stop> {

        if (!batch.length) {
            return null;
        }

        try {
            if (reading.input.mayWrite && !await reading.input.mayWrite()) {
                return reading.report.finish('interrupted');
            }

            await storeBatch(reading.deps, reading.target.id, batch, reading.deps.clock.now().getTime(), reading.known);
        }
        catch (err) {
            for (const { system } of batch) {
                const stop = await internals.systemFailed(reading, system, err);
                if (stop) {
                    return stop;
                }
            }

            return null;
        }

        for (const { system, records, write, notice, monotributista } of batch) {
            reading.report.stored(system, records, 'invoices' in write, notice);
            if (monotributista !== undefined) {
                reading.known = { ...reading.known, monotributista };
            }
        }

        return null;
    },

    // Each system is fetched, then written before anything else happens (the next system's
    // fetch, a stop, a failure), unless it joins the one fetched before it (joinsBatch): if
    // the received invoices fail, or the sync stops before them, the issued ones are written
    // alone first.
    async readAll(reading: Reading): Promise<SyncClientResult> {

        const { systems, input } = reading;
        let batch: Fetched[] = [];
        for (const [index, system] of systems.entries()) {
            reading.login.lease.progress(index / systems.length);
            if (!joinsBatch(batch, system)) {
                const stop = await internals.write(reading, batch);
                batch = [];
                if (stop) {
                    return stop;
                }
            }

            if (input.proceed && !input.proceed()) {
                return await internals.write(reading, batch) ?? reading.report.finish('interrupted');
            }

            let fetched: Fetched;
            try {
                fetched = await fetchSystem(reading.deps, reading.session, reading.target, system, {
                    full: input.full ?? false,
                    invoicePolicy: input.invoicePolicy,
                    states: reading.known.states
                });
            }
            catch (err) {
                const stop = await internals.write(reading, batch) ?? await internals.systemFailed(reading, system, err);
                batch = [];
                if (stop) {
                    return stop;
                }

                continue;
            }

            batch.push(fetched);
        }

        return await internals.write(reading, batch) ?? reading.report.finish();
    }
};

// What the steps of one sync share, filled in as they go.
interface Sync {
    deps: SyncDeps;
    input: SyncClientInput;
    target?: SyncTarget;
    systems?: SyncSystem[];
    known?: InvoiceSaveContext;
    report?: SyncReport;
    reading?: Reading;
    result?: SyncClientResult;
    // What is undone when the sync ends, however it ends, the last added first.
    undo: (() => Promise<void> | void)[];
}

// A step either lets the next one go on (null) or ends the sync with its result.
type SyncStep = (sync: Sync) => Promise<SyncClientResult | null>;

const steps = {
    // A CUIT deleted since its job was queued is gone.
    async find(sync: Sync) {

        sync.target = await sync.deps.syncTargets.find(sync.input.clientId) ?? undefined;
        return sync.target ? null : goneResult(sync.input.clientId);
    },

    // Its systems (by its kind), less those an earlier attempt of the job stored: none left
    // is a sync done. Their records are read once, here: the invoices' windows and the DFE's
    // first read start from them, and the invoice saves decide their events from them.
    async systems(sync: Sync) {

        sync.known = { states: await sync.deps.syncStates.list(sync.target!.id), monotributista: sync.target!.monotributista };
        sync.systems = internals.systemsToRun(sync.target!, sync.known, sync.input.skipSyncedSince);
        sync.report = createSyncReport(sync.deps, sync.target!);
        return sync.systems.length ? null : sync.report.finish('synced');
    },

    // The key's session of the day, shared by every job of the worker (key-sessions.ts), or
    // this sync's own; a refused key fails every system with its reason.
    async login(sync: Sync) {

        const { deps, input, target, report, systems, known } = sync as Required<Sync>;
        const sessions = input.sessions ?? createKeySessions(deps.authority, deps.clock, {
            ledger: deps.loginLedger,
            pacer: deps.loginPacer,
            maxRelogins: deps.maxRelogins,
            weeklyWrongCap: deps.weeklyWrongCap
        });
        if (!input.sessions) {
            sync.undo.push(() => sessions.close());
        }

        const login = await logInForSync(deps, target, sessions);
        if ('refused' in login) {
            return await report.failRest(systems, login.refused);
        }

        // The session ended under the sync (the portal's): the key's next taxpayer logs in again.
        sync.undo.push(() => login.lease.release(report.sessionExpired()));
        sync.reading = { deps, input, target, systems, login, session: login.lease.session.taxpayer(target.cuit), report, known };
        return null;
    },

    // Each system fetched and stored in its own transaction; a failing one keeps its data and
    // records why, and the others go on (or the sync ends: the CUIT deleted, the key refused,
    // the worker stopping, the lease lost).
    async read(sync: Sync) {

        sync.result = await internals.readAll(sync.reading!);
        return null;
    },

    // Once some system was stored, what the writes changed becomes the CUIT's one
    // `sincronizacion.completada` event (README: States and webhooks). If that fails, the
    // changes stay recorded and go with the next sync's event: not the job's failure.
    async announce({ deps, result }: Sync) {

        if (result!.systems.some((entry) => entry.ok)) {
            await deps.syncStates.announceSyncCompleted(result!.clientId, deps.clock.now().getTime()).catch(() => false);
        }

        return null;
    }
};

// Synchronize one CUIT, top to bottom: a step's result ends it early, else it ends with what
// reading the systems found. A failing system keeps its previous data and syncedAt and records
// the error; a refused key is remembered and not tried again until the key changes. Whatever
// ends it, the key's lease is given back and a session of its own closed (Sync.undo).
const syncSteps: readonly (readonly [name: string, step: SyncStep])[] = [
    ['find the CUIT', steps.find],
    ['choose its systems', steps.systems],
    ['log in', steps.login],
    ['read and store each system', steps.read],
    ['announce', steps.announce]
];

export const syncClient = async (deps: SyncDeps, input: SyncClientInput): Promise<SyncClientResult> => {

    const sync: Sync = { deps, input, undo: [] };
    try {
        for (const [, step] of syncSteps) {
            const result = await step(sync);
            if (result) {
                return result;
            }
        }

        return sync.result!;
    }
    finally {
        for (const undo of sync.undo.reverse()) {
            await undo();
        }
    }
};
