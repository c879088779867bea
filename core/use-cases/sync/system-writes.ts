import { arcaDay } from '../../domain/arca-day.js';
import { newNotifications, sctDebtChange } from '../../domain/events.js';
import type { RecordChanges } from '../../domain/events.js';
import type { HealthState } from '../../domain/health.js';
import { keyHealth, stateOfRecord, systemNames } from '../../domain/health.js';
import { syncSystems } from '../../domain/sync-system.js';
import type { SyncSystem } from '../../domain/sync-system.js';
import type { Timestamp } from '../../domain/time.js';
import type { CcmaRepository, NotificationRepository, RegistryRepository, SctRepository, SyncState, SyncStateRepository } from '../../ports/repositories.js';
import type { ClientWork, UnitOfWork } from '../../ports/unit-of-work.js';

// Each system's write of a sync, and the events it decides, through the unit of work
// (core/ports/unit-of-work.ts: no data without its event, no event without its data). Which
// event, with what payload, and each change announced once, are decided here; the stores only
// persist and the outbox only writes.

type Writes = {
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

    // The system stored now: a system that was failing left its failure, a change of health
    // (its error and state read before the sync date clears them; the event carries both states).
    async synced(work: ClientWork, system: SyncSystem, at: Timestamp): Promise<void> {

        if (await work.outbox.listening() !== null) {
            const previous = await work.syncStates.get(system);
            if (previous && previous.lastError !== null) {
                await work.outbox.append({
                    type: 'salud.cambio',
                    system,
                    previousError: previous.lastError,
                    error: null,
                    data: { estado: 'ok', estadoAnterior: internals.stateOf(previous) }
                }, at);
            }
        }

        await work.syncStates.markSynced(system, at);
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

const systemWrites = (unitOfWork: UnitOfWork): Writes => ({

    registry: {
        // One record: new on the first sync, changed when the classification moved.
        // ARCA's meter, when read, in the same transaction: it is no record of its own.
        save: (clientId, classification, syncedAt, meter) => unitOfWork.transaction(clientId, async (work) => {

            if (meter) {
                await work.registry.saveMeter(meter, syncedAt);
            }

            await internals.counted(work, 'registry', syncedAt, (count) => work.registry.save(classification, syncedAt, count));
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
});

type ReadSides = {
    sct: Omit<SctRepository, 'replace'>;
    ccma: Omit<CcmaRepository, 'replace'>;
    notifications: Omit<NotificationRepository, 'save'>;
    syncStates: Omit<SyncStateRepository, 'recordFailure' | 'announceSyncCompleted'>;
    unitOfWork: UnitOfWork;
};

// The repositories as the use cases see them (core/ports: Ports): a store's reads, and its
// system's write through the unit of work.
export const withSystemWrites = <R extends ReadSides>(stores: R) => {

    const writes = systemWrites(stores.unitOfWork);
    return {
        ...stores,
        registry: writes.registry,
        sct: { ...stores.sct, ...writes.sct },
        ccma: { ...stores.ccma, ...writes.ccma },
        notifications: { ...stores.notifications, ...writes.notifications },
        syncStates: { ...stores.syncStates, ...writes.syncStates }
    };
};
