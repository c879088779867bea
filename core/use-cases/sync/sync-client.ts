import type { Cuit } from '../../domain/cuit.js';
import type { InvoiceKind, InvoiceRecord } from '../../domain/invoice.js';
import { messages } from '../../domain/messages.js';
import type { SyncSystem } from '../../domain/sync-system.js';
import type { Timestamp } from '../../domain/time.js';
import type { AuthorityFailureKind, TaxpayerSession } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import type { SyncTarget } from '../../ports/job-queue.js';
import type { SyncDeps } from './deps.js';
import type { InvoiceWindowPolicy } from './sync-policy.js';
import type { KeyLease, KeySessions } from './key-sessions.js';
import { createKeySessions } from './key-sessions.js';
import { failurePolicy, invoiceRanges, isKeyFailure, normalizeInvoice, systemsFor } from './sync-policy.js';
import { keyFingerprint } from '../../domain/sealed-key.js';
import { enteringNotification } from '../../domain/notification.js';

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

export interface SystemOutcome {
    system: SyncSystem;
    ok: boolean;
    error: string | null;
    records: number;
}

// synced: every system stored; partial: some failed; failed: nothing could be fetched;
// key_refused: the key was refused (now or before, unchanged since); gone: the client was
// deleted; interrupted: stopped before the end (shutdown or lost lease), nothing half-written.
export type SyncOutcome = 'synced' | 'partial' | 'failed' | 'key_refused' | 'gone' | 'interrupted';

export interface SyncClientResult {
    clientId: number;
    cuit: Cuit | null;
    outcome: SyncOutcome;
    // Worth running again soon (a transient failure of the authority or of the service).
    retry: boolean;
    // The earliest a retry may come (a block, a failure after the password was posted).
    retryAfterMs: number;
    error: string | null;
    systems: SystemOutcome[];
    invoices: number;
}

// A system fetched and not written yet.
interface Fetched {
    system: SyncSystem;
    records: number;
    write: { invoices: { kind: InvoiceKind; invoices: readonly InvoiceRecord[] } } | { store: (at: Timestamp) => Promise<void> };
}

class Gone extends Error {}

const internals = {
    detailMax: 200,

    // What is recorded for staff: the Spanish explanation, plus the client's detail without
    // anything secret in it.
    describe(err: unknown, password: string | null): { message: string; retry: boolean; retryAfterMs: number; kind: AuthorityFailureKind | null } {

        if (err instanceof AuthorityFailure) {
            let detail = err.detail;
            if (password) {
                detail = detail.split(password).join('***');
            }

            const text = messages.authority[err.kind];
            detail = detail.replace(/\s+/g, ' ').trim().slice(0, internals.detailMax);
            const policy = failurePolicy.of(err.kind, err.touchedPassword);
            return { message: detail ? `${text} (${detail})` : text, retry: policy.retry, retryAfterMs: policy.minDelayMs, kind: err.kind };
        }

        // Only the error's code (e.g. ER_LOCK_DEADLOCK): a database message can quote values.
        const code = (err as { code?: unknown } | null)?.code;
        return { message: typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `${messages.sync.internal} (${code})` : messages.sync.internal, retry: true, retryAfterMs: 0, kind: null };
    },

    // Each write is one idempotent, all-or-nothing transaction (an upsert or a replace), so a
    // failed one is simply tried again: concurrent syncs can deadlock on MySQL's gap locks, and
    // the database resolves that by aborting one of them.
    async write(store: () => Promise<void>): Promise<void> {

        for (let attempt = 1; ; ++attempt) {
            try {
                return await store();
            }
            catch (err) {
                if (attempt >= internals.writeAttempts) {
                    throw err;
                }

                await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
            }
        }
    },

    writeAttempts: 3,

    async fetchInvoices(deps: SyncDeps, session: TaxpayerSession, target: SyncTarget, kind: InvoiceKind, input: SyncClientInput): Promise<InvoiceRecord[]> {

        const lastSyncedAt = await deps.syncStates.syncedAt(target.id, `${kind}_invoices`);
        const ranges = invoiceRanges({ now: deps.clock.now().getTime(), lastSyncedAt, full: input.full ?? false, ...(input.invoicePolicy ? { policy: input.invoicePolicy } : {}) });
        const invoices: InvoiceRecord[] = [];
        for (const range of ranges) {
            for (const invoice of await session.invoices(kind, range)) {
                invoices.push(normalizeInvoice(invoice));
            }
        }

        return invoices;
    },

    // One system read from the authority, and what storing it takes: invoices, which a write
    // of several kinds takes together, or a store of its own.
    async fetch(deps: SyncDeps, session: TaxpayerSession, target: SyncTarget, system: SyncSystem, input: SyncClientInput): Promise<Fetched> {

        switch (system) {
            case 'registry': {
                const classification = await session.registry();
                return { system, records: 1, write: { store: (at) => deps.registry.save(target.id, classification, at) } };
            }

            case 'issued_invoices':
            case 'received_invoices': {
                const kind = system === 'issued_invoices' ? 'issued' : 'received';
                const invoices = await internals.fetchInvoices(deps, session, target, kind, input);
                return { system, records: invoices.length, write: { invoices: { kind, invoices } } };
            }

            case 'sct': {
                const data = await session.sct();
                return { system, records: data.deuda.length + data.vencimientos.length + data.ddjj.length, write: { store: (at) => deps.sct.replace(target.id, data, at) } };
            }

            case 'ccma': {
                const { balances, movements } = await session.ccma();
                return { system, records: movements.length, write: { store: (at) => deps.ccma.replace(target.id, balances, movements, at) } };
            }

            case 'dfe': {
                const listed = await session.notifications();
                const firstSync = await deps.syncStates.syncedAt(target.id, 'dfe') === null;
                return { system, records: listed.length, write: { store: (at) => deps.notifications.save(target.id, listed.map((notification) => enteringNotification(notification, firstSync)), at) } };
            }
        }
    },

    // A CUIT's issued and received invoices, fetched one after the other, are written in one
    // transaction: one commit instead of two, each kind still with its syncedAt. Every other
    // system is written on its own.
    joins: (pending: readonly Fetched[], system: SyncSystem): boolean => pending.every((fetched) => 'invoices' in fetched.write) && (system === 'issued_invoices' || system === 'received_invoices'),

    // A batch is one system with a store of its own, or invoice kinds that join (see joins).
    store(deps: SyncDeps, clientId: number, batch: readonly Fetched[], at: Timestamp): Promise<void> {

        const saves = [];
        for (const { write } of batch) {
            if ('store' in write) {
                return write.store(at);
            }

            saves.push(write.invoices);
        }

        return deps.invoices.saveKinds(clientId, saves, at);
    },

    // Every system of the run gets the same recorded error; a deleted client gets nothing.
    async recordAll(deps: SyncDeps, clientId: number, systems: readonly SyncSystem[], error: string): Promise<SystemOutcome[]> {

        const at = deps.clock.now().getTime();
        for (const system of systems) {
            if (!await deps.syncStates.recordFailure(clientId, system, error, at)) {
                throw new Gone();
            }
        }

        return systems.map((system) => ({ system, ok: false, error, records: 0 }));
    }
};

// Synchronize one CUIT: log in (a legal entity through its representative's key), then each
// system in turn, each stored in one transaction with its syncedAt. A failing system keeps
// its previous data and syncedAt and records the error; a refused key is remembered and not
// tried again until the key changes.
export const syncClient = async (deps: SyncDeps, input: SyncClientInput): Promise<SyncClientResult> => {

    const result: SyncClientResult = { clientId: input.clientId, cuit: null, outcome: 'failed', retry: false, retryAfterMs: 0, error: null, systems: [], invoices: 0 };
    const target = await deps.syncTargets.find(input.clientId);
    if (!target) {
        return { ...result, outcome: 'gone' };
    }

    result.cuit = target.cuit;
    let systems = systemsFor(target.tipo);
    if (input.skipSyncedSince !== undefined && input.skipSyncedSince !== null) {
        const since = input.skipSyncedSince;
        const done = new Set((await deps.syncStates.list(target.id)).filter((state) => state.syncedAt !== null && state.syncedAt >= since).map((state) => state.system));
        systems = systems.filter((system) => !done.has(system));
    }

    const fail = async (error: string, outcome: SyncOutcome, retry: boolean, remaining: readonly SyncSystem[] = systems, retryAfterMs = 0): Promise<SyncClientResult> => {

        try {
            return { ...result, outcome, retry, retryAfterMs: Math.max(result.retryAfterMs, retryAfterMs), error, systems: [...result.systems, ...await internals.recordAll(deps, target.id, remaining, error)] };
        }
        catch (err) {
            if (err instanceof Gone) {
                return { ...result, outcome: 'gone' };
            }

            throw err;
        }
    };

    if (!systems.length) {
        return { ...result, outcome: 'synced' };
    }

    if (target.loginCuit === null) {
        return await fail(messages.sync.noRepresentative, 'failed', false);
    }

    if (target.sealedKey === null || target.loginClientId === null) {
        return await fail(messages.sync.noKey, 'failed', false);
    }

    const fingerprint = keyFingerprint(target.sealedKey);
    if (target.keyFailure && target.keyFailure.fingerprint === fingerprint) {
        const kind = target.keyFailure.kind as AuthorityFailureKind;
        return await fail(`${messages.authority[kind] ?? messages.sync.internal} ${messages.sync.keyNotRetried}`, 'key_refused', false);
    }

    let password: string;
    try {
        password = deps.secretBox.open(target.sealedKey);
    }
    catch {
        return await fail(messages.sync.unreadableKey, 'failed', false);
    }

    const sessions = input.sessions ?? createKeySessions(deps.authority, deps.clock);
    let lease: KeyLease;
    try {
        lease = await sessions.acquire({ id: `${target.loginClientId}:${fingerprint}`, loginCuit: target.loginCuit, password });
    }
    catch (err) {
        if (!input.sessions) {
            await sessions.close();
        }

        const failure = internals.describe(err, password);
        if (failure.kind && isKeyFailure(failure.kind)) {
            await deps.syncTargets.recordKeyFailure(target.loginClientId, fingerprint, failure.kind, deps.clock.now().getTime());
            return await fail(`${failure.message} ${messages.sync.keyNotRetried}`, 'key_refused', false);
        }

        return await fail(failure.message, 'failed', failure.retry, systems, failure.retryAfterMs);
    }

    const session = lease.session.taxpayer(target.cuit);
    let broken = false;
    const mayWrite = input.mayWrite ?? (async () => true);
    const now = () => deps.clock.now().getTime();
    const loginClientId = target.loginClientId;

    // A system that could not be fetched or stored: its error recorded, or the end of the sync
    // (a deleted client, a refused key).
    const systemFailed = async (system: SyncSystem, err: unknown): Promise<SyncClientResult | null> => {

        // A write refused because the client was deleted meanwhile: nothing more.
        if (!(err instanceof AuthorityFailure) && !await deps.syncTargets.find(target.id)) {
            return { ...result, outcome: 'gone' };
        }

        broken ||= err instanceof AuthorityFailure && err.kind === 'session_expired';
        const failure = internals.describe(err, password);
        if (failure.kind && isKeyFailure(failure.kind)) {
            await deps.syncTargets.recordKeyFailure(loginClientId, fingerprint, failure.kind, now());
            return await fail(`${failure.message} ${messages.sync.keyNotRetried}`, 'key_refused', false, systems.slice(systems.indexOf(system)));
        }

        if (!await deps.syncStates.recordFailure(target.id, system, failure.message, now())) {
            return { ...result, outcome: 'gone' };
        }

        result.systems.push({ system, ok: false, error: failure.message, records: 0 });
        result.retry ||= failure.retry;
        result.retryAfterMs = Math.max(result.retryAfterMs, failure.retryAfterMs);
        result.error ??= failure.message;
        return null;
    };

    // Writes the systems fetched and not written yet, in one transaction: they succeed or fail
    // together (null: go on; a result: the sync ends, say interrupted by a lost lease).
    let pending: Fetched[] = [];
    const flush = async (): Promise<SyncClientResult | null> => {

        const batch = pending;
        pending = [];
        if (!batch.length) {
            return null;
        }

        try {
            if (!await mayWrite()) {
                return { ...result, outcome: 'interrupted' };
            }

            await internals.write(() => internals.store(deps, target.id, batch, now()));
        }
        catch (err) {
            for (const { system } of batch) {
                const end = await systemFailed(system, err);
                if (end) {
                    return end;
                }
            }

            return null;
        }

        for (const { system, records, write } of batch) {
            result.systems.push({ system, ok: true, error: null, records });
            if ('invoices' in write) {
                result.invoices += records;
            }
        }

        return null;
    };

    // Each system is fetched, then written before anything else happens (the next system's
    // fetch, a stop, a failure), unless it joins the one fetched before it (internals.joins):
    // if the received invoices fail, or the sync stops before them, the issued ones are
    // written alone first, as when each kind was written on its own.
    try {
        for (const [index, system] of systems.entries()) {
            if (index > 0) {
                lease.progress(index / systems.length);
            }

            const ended = internals.joins(pending, system) ? null : await flush();
            if (ended) {
                return ended;
            }

            if (input.proceed && !input.proceed()) {
                return await flush() ?? { ...result, outcome: 'interrupted' };
            }

            try {
                pending.push(await internals.fetch(deps, session, target, system, input));
            }
            catch (err) {
                const end = await flush() ?? await systemFailed(system, err);
                if (end) {
                    return end;
                }
            }
        }

        const end = await flush();
        if (end) {
            return end;
        }
    }
    finally {
        lease.release(broken);
        if (!input.sessions) {
            await sessions.close();
        }
    }

    const failed = result.systems.filter((entry) => !entry.ok).length;
    result.outcome = failed === 0 ? 'synced' : failed === result.systems.length ? 'failed' : 'partial';
    return result;
};
