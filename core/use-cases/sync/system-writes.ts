import { arcaDay } from '../../domain/arca-day.js';
import { newNotifications, sctDebtChange } from '../../domain/events.js';
import type { RecordChanges } from '../../domain/events.js';
import type { HealthState } from '../../domain/health.js';
import { keyHealth, stateOfRecord, systemNames } from '../../domain/health.js';
import { syncSystems } from '../../domain/sync-system.js';
import type { SyncSystem } from '../../domain/sync-system.js';
import type { Timestamp } from '../../domain/time.js';
import { billingWindow, capCrossing, capStanding } from '../../domain/monotributo.js';
import type { CategoryTable } from '../../domain/monotributo.js';
import { firstDayOf, lastDayOf } from '../../domain/months.js';
import type {
    CcmaRepository,
    InvoiceRepository,
    NotificationRepository,
    RegistryRepository,
    SctRepository,
    SyncState,
    SyncStateRepository
} from '../../ports/repositories.js';
import type { ClientWork, InvoiceStore, OutboxEvent, UnitOfWork } from '../../ports/unit-of-work.js';

// Each system's write of a sync, and the events it decides, through the unit of work
// (core/ports/unit-of-work.ts: no data without its event, no event without its data). Which
// event, with what payload, and each change announced once, are decided here; the stores only
// persist and the outbox only writes. Invoices keep their store's one-round-trip save
// (InvoiceStore), handed the events decided here; a monotributista's cap, which their billing
// moves, is checked after them through the unit of work (checkCap).

type Writes = {
    invoices: Pick<InvoiceRepository, 'save' | 'saveKinds'>;
    registry: RegistryRepository;
    sct: Pick<SctRepository, 'replace'>;
    ccma: Pick<CcmaRepository, 'replace'>;
    notifications: Pick<NotificationRepository, 'save'>;
    syncStates: Pick<SyncStateRepository, 'recordFailure' | 'announceSyncCompleted'>;
};

const internals = {
    // A system never attempted is pending; one that failed is in the state its error names.
    stateOf: (record: SyncState | undefined): HealthState => (
        !record || (record.syncedAt === null && record.lastError === null) ? 'pendiente' : stateOfRecord({ lastError: record.lastError, lastState: record.lastState ?? null })
    ),

    // A system stored now, as its record stood before: one that was failing left its failure,
    // a change of health (the event carries both states). null: it was not failing.
    recovery(system: SyncSystem, previous: SyncState | undefined): OutboxEvent | null {

        return previous && previous.lastError !== null ? {
            type: 'salud.cambio',
            system,
            previousError: previous.lastError,
            error: null,
            data: { estado: 'ok', estadoAnterior: internals.stateOf(previous) }
        } : null;
    },

    // The system stored now: its recovery, if it was failing (its error and state read before
    // the sync date clears them).
    async synced(work: ClientWork, system: SyncSystem, at: Timestamp): Promise<void> {

        if (await work.outbox.listening() !== null) {
            const recovery = internals.recovery(system, await work.syncStates.get(system));
            if (recovery) {
                await work.outbox.append(recovery, at);
            }
        }

        await work.syncStates.markSynced(system, at);
    },

    invoiceSystems: { issued: 'issued_invoices', received: 'received_invoices' } as const,

    // A monotributista's billing of the window (core/domain/monotributo.ts) against the caps of
    // the table in force on `at`'s Buenos Aires day: the level stored, and `monotributo.tope`
    // when it rose, naming the highest threshold crossed (once per crossing: staying above
    // announces nothing, falling below and crossing again does). Nothing for a client the
    // registry does not call a monotributista, nor without tables.
    async checkCap(work: ClientWork, at: Timestamp, tablesOf: TablesOf): Promise<void> {

        const today = arcaDay(at);
        const window = billingWindow(today);
        const billing = await work.monotributo.billing({ fromDate: firstDayOf(window.desde), toDate: lastDayOf(window.hasta) });
        const tables = billing ? await tablesOf(work, billing.tablesVersion) : [];
        if (!billing || !tables.length) {
            return;
        }

        const standing = capStanding(tables, today, billing.categoria, billing.facturado);
        await work.monotributo.saveLevel(standing, billing.level, at);
        // Whether anyone listens is asked only of a rise (one round trip less for the others).
        const cuit = standing.level > billing.level ? await work.outbox.listening() : null;
        const crossing = cuit === null ? null : capCrossing(cuit, billing.categoria, standing, billing.level);
        if (crossing) {
            await work.outbox.append({ type: 'monotributo.tope', data: crossing }, at);
        }
    },

    // A write whose store counts what it changed (only for an account that listens), and no
    // other event than its system's recovery.
    async counted(work: ClientWork, system: SyncSystem, at: Timestamp, write: (count: boolean) => Promise<RecordChanges | null>): Promise<void> {

        const changes = await write(await work.outbox.listening() !== null);
        if (changes) {
            await work.outbox.changed(system, changes, at);
        }

        await internals.synced(work, system, at);
    },

    // A key's change of state, with what the sync records of a CUIT it logs in for (a failure,
    // or the sync's end): the key derived as the API derives it (keyHealth), against the last
    // state announced of it to the account, so that it is announced once per change, whichever
    // of the CUITs it reaches brought it up, and to every account whose CUITs it reaches (each
    // account's own syncs bring it up there). A pending key is no news (a new key, or a new day:
    // its next login tells), nor is a key that works and was never announced; a CUIT without a
    // key is told by its systems' own changes (sin_clave).
    async keyChanged(work: ClientWork, at: Timestamp): Promise<void> {

        if (await work.outbox.listening() === null) {
            return;
        }

        const found = await work.keyOf(arcaDay(at));
        const health = found ? keyHealth(found.key) : null;
        if (!found || !health || health.state === 'pendiente' || health.state === 'sin_clave') {
            return;
        }

        const announced = await work.outbox.lastKeyState(found.loginClientId);
        if (announced === null && health.state === 'funciona') {
            return;
        }

        const previous = announced ?? (found.key.reach.some((record) => record.syncedAt !== null) ? 'funciona' : 'pendiente');
        if (previous !== health.state) {
            await work.outbox.append({
                type: 'salud.cambio',
                system: null,
                data: { clave: found.key.loginCuit, cuits: found.cuits, estado: health.state, estadoAnterior: previous, desde: health.since ?? at }
            }, at, found.loginClientId);
        }
    }
};

type Stores = { unitOfWork: UnitOfWork; invoices: InvoiceStore; syncStates: Pick<SyncStateRepository, 'list'> };

// The category tables of a check, by the fingerprint its billing read.
type TablesOf = (work: ClientWork, version: string) => Promise<readonly CategoryTable[]>;

// The category tables as last read, under their fingerprint: staff load one a semester (from
// another process, `arcasync monotributo cargar`), and every save of issued invoices checks a
// cap, so a check reads them again only when the fingerprint read with its billing differs.
// Read after the fingerprint in the same transaction, tables are never older than the
// fingerprint they are kept under: a table loaded in between only costs one more read.
const tablesReadThrough = (): TablesOf => {

    let held: { version: string; tables: readonly CategoryTable[] } | null = null;
    return async (work, version) => {

        if (held?.version !== version) {
            held = { version, tables: await work.monotributo.tables() };
        }

        return held.tables;
    };
};

const systemWrites = ({ unitOfWork, invoices, syncStates }: Stores): Writes => {

    const tablesOf = tablesReadThrough();

    // Invoices on their store's fast path, with the recovery of each kind that was failing as
    // the sync found it (or as read now, without the sync's context); then, after issued
    // invoices, the cap of a monotributista in a transaction of its own. The check's failure
    // costs only its event until the next save's check (the level is worked out again there),
    // never the invoices' save (it is not retried with them, nor taken for their failure).
    const saveKinds: Writes['invoices']['saveKinds'] = async (clientId, saves, syncedAt, known) => {

        if (!saves.length) {
            return;
        }

        const states = known?.states ?? await syncStates.list(clientId);
        const recoveries = saves.flatMap(({ kind }) => {

            const system = internals.invoiceSystems[kind];
            return internals.recovery(system, states.find((state) => state.system === system)) ?? [];
        });
        await invoices.saveKinds(clientId, saves, syncedAt, recoveries);
        if (saves.some(({ kind }) => kind === 'issued') && (known?.monotributista ?? true)) {
            await unitOfWork.transaction(clientId, (work) => internals.checkCap(work, syncedAt, tablesOf)).catch(() => undefined);
        }
    };

    return {

        invoices: {
            save: (clientId, kind, saved, syncedAt) => saveKinds(clientId, [{ kind, invoices: saved }], syncedAt),
            saveKinds
        },

        registry: {
            // One record: new on the first sync, changed when the classification moved.
            // ARCA's meter, when read, in the same transaction: it is no record of its own. A
            // monotributista whose classification moved (its category, or becoming one) has its cap
            // checked with it, when its account listens (otherwise the next save of issued invoices
            // works the level out before any event could go out).
            save: (clientId, classification, syncedAt, meter) => unitOfWork.transaction(clientId, async (work) => {

                if (meter) {
                    await work.registry.saveMeter(meter, syncedAt);
                }

                const listening = await work.outbox.listening() !== null;
                const changes = await work.registry.save(classification, syncedAt, listening);
                if (changes) {
                    await work.outbox.changed('registry', changes, syncedAt);
                }

                await internals.synced(work, 'registry', syncedAt);
                if (changes && (changes.nuevos || changes.cambiados) && classification.monotributista === true) {
                    await internals.checkCap(work, syncedAt, tablesOf);
                }
            })
        },

        sct: {
            // The debt's change (what is owed, what appeared or was settled), and what the sync
            // changed in each block.
            replace: (clientId, data, syncedAt) => unitOfWork.transaction(clientId, async (work) => {

                const cuit = await work.outbox.listening();
                const replaced = await work.sct.replace(data, syncedAt, cuit !== null);
                if (cuit !== null && replaced) {
                    const change = sctDebtChange(cuit, replaced.debts.before, replaced.debts.after);
                    if (change) {
                        await work.outbox.append({ type: 'sct.deuda_cambio', system: 'sct', data: change }, syncedAt);
                    }

                    await work.outbox.changed('sct', replaced.changes, syncedAt);
                }

                await internals.synced(work, 'sct', syncedAt);
            })
        },

        ccma: {
            // The movements, and the balances as one more record.
            replace: (clientId, balances, movements, syncedAt) => unitOfWork.transaction(clientId, (work) => internals.counted(
                work,
                'ccma',
                syncedAt,
                (count) => work.ccma.replace(balances, movements, syncedAt, count)
            ))
        },

        notifications: {
            // The notifications not stored before (dfe.nuevas), and those the authority now lists
            // otherwise.
            save: (clientId, notifications, syncedAt) => unitOfWork.transaction(clientId, async (work) => {

                const cuit = await work.outbox.listening();
                const saved = await work.notifications.save(notifications, syncedAt, cuit !== null);
                if (cuit !== null && saved) {
                    if (saved.fresh.length) {
                        await work.outbox.append({ type: 'dfe.nuevas', system: 'dfe', data: newNotifications(cuit, saved.fresh) }, syncedAt);
                    }

                    await work.outbox.changed('dfe', saved.changes, syncedAt);
                }

                await internals.synced(work, 'dfe', syncedAt);
            })
        },

        syncStates: {
            // The run of failures goes on while its cause stays the same (failingSince kept); a new
            // cause starts a new one, and is a change of health, as is a change of its key's state.
            // A deleted client gets nothing written.
            recordFailure: (clientId, system, error, at, state) => unitOfWork.transaction(clientId, async (work) => {

                if (!await work.exists()) {
                    return false;
                }

                const previous = await work.syncStates.get(system);
                const before = internals.stateOf(previous);
                const failingSince = previous && previous.lastError !== null && before === state ? previous.failingSince ?? at : at;
                await work.syncStates.recordFailure(system, { error, state, at, failingSince });
                if (before !== state) {
                    await work.outbox.append({ type: 'salud.cambio', system, previousError: previous?.lastError ?? null, error, data: { estado: state, estadoAnterior: before } }, at);
                }

                await internals.keyChanged(work, at);
                return true;
            }),

            // A CUIT's sync ended: what its writes changed (and what an earlier sync that died before
            // its end left) becomes one `sincronizacion.completada` event, the systems in their usual
            // order. False when there was nothing to announce. A key that works again after a
            // failure is announced first.
            announceSyncCompleted: (clientId, at) => unitOfWork.transaction(clientId, async (work) => {

                await internals.keyChanged(work, at);
                const changes = await work.outbox.takeChanges();
                if (!changes.length) {
                    return false;
                }

                const sistemas = syncSystems.flatMap((system) => changes.filter((entry) => entry.system === system).map((entry) => ({
                    sistema: systemNames[system],
                    nuevos: entry.nuevos,
                    cambiados: entry.cambiados,
                    eliminados: entry.eliminados
                })));
                await work.outbox.append({ type: 'sincronizacion.completada', data: { sistemas } }, at);
                return true;
            })
        }
    };
};

type ReadSides = {
    invoices: InvoiceStore;
    sct: Omit<SctRepository, 'replace'>;
    ccma: Omit<CcmaRepository, 'replace'>;
    notifications: Omit<NotificationRepository, 'save'>;
    syncStates: Omit<SyncStateRepository, 'recordFailure' | 'announceSyncCompleted'>;
    unitOfWork: UnitOfWork;
};

// The repositories as the use cases see them (core/ports: Ports): a store's reads, and its
// system's write through the unit of work.
export const withSystemWrites = <R extends ReadSides>(stores: R) => {

    const writes = systemWrites(stores);
    return {
        ...stores,
        invoices: { ...stores.invoices, ...writes.invoices },
        registry: writes.registry,
        sct: { ...stores.sct, ...writes.sct },
        ccma: { ...stores.ccma, ...writes.ccma },
        notifications: { ...stores.notifications, ...writes.notifications },
        syncStates: { ...stores.syncStates, ...writes.syncStates }
    };
};
