import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { RecordChanges } from '../../core/domain/events.js';
import { arcaDay } from '../../core/domain/arca-day.js';
import type { KeyState } from '../../core/domain/health.js';
import { keyHealth, systemNames } from '../../core/domain/health.js';
import { syncSystems } from '../../core/domain/sync-system.js';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import type { Timestamp } from '../../core/domain/time.js';
import { toNumber } from './column-values.js';
import type { Dialect } from './connection.js';
import { retriedOnLockConflict } from './lock-retries.js';
import type { Binding, Step } from './statements.js';
import { keyOfClient } from './repositories/health.js';

// The webhook outbox as the sync's writes fill it (migration 011): every event goes in the
// transaction of the data it announces, so an event never arrives without its data and data
// never changes without its event. Nothing is written for an account without an active
// endpoint: nobody would receive it.

export interface OutboxEvent {
    type: string;
    system?: SyncSystem | null;
    previousError?: string | null;
    error?: string | null;
    data?: unknown;
}

const internals = {
    // The client's account has an endpoint that is not disabled (alias c: clients).
    listened: 'exists (select 1 from webhook_endpoints e where e.account_id = c.account_id and e.disabled_at is null)',

    // A system's changes added to what the CUIT's sync wrote before (sync_changes, migration 012).
    changesSql(dialect: Dialect, values: readonly [string, string, string]): string {

        const head = 'insert into sync_changes (client_id, system, new_records, changed_records, removed_records, synced_at) ' +
            `select c.id, ?, ${values.join(', ')}, ? from clients c where c.id = ? and ${internals.listened}`;
        const added = ['new_records', 'changed_records', 'removed_records'];
        return dialect === 'mysql'
            ? `${head} on duplicate key update ${added.map((column) => `${column} = ${column} + values(${column})`).join(', ')}, synced_at = values(synced_at)`
            : `${head} on conflict (client_id, system) do update set ${added.map((column) => `${column} = ${column} + excluded.${column}`).join(', ')}, synced_at = excluded.synced_at`;
    },

    columns: 'public_id, account_id, client_id, cuit, type, sync_system, previous_error, error, data, created_at, fanned_out'
};

export const newEventId = (): string => `evt_${randomUUID().replace(/-/g, '')}`;

// The same as fixed SQL (binding: the client's id): a row, with the client's CUIT, when it listens.
export const listenedSql = `select c.cuit from clients c where c.id = ? and ${internals.listened}`;

// The client's CUIT when its account listens to events at all, else null (read inside the
// write's transaction, before work that only an event needs; an event's `listado` names it).
export const listeningCuit = async (trx: Knex.Transaction, clientId: number): Promise<string | null> => {

    const row = await trx.raw(listenedSql, [clientId]);
    const rows = (Array.isArray(row) ? (Array.isArray(row[0]) ? row[0] : row) : []) as { cuit: unknown }[];
    return rows.length ? String(rows[0]!.cuit) : null;
};

export const isListened = async (trx: Knex.Transaction, clientId: number): Promise<boolean> => await listeningCuit(trx, clientId) !== null;

// An event about a client, written in the caller's transaction.
export const announce = async (trx: Knex.Transaction, clientId: number, event: OutboxEvent, at: Timestamp): Promise<void> => {

    const step = announceStep(clientId, event, at);
    await trx.raw(step.sql, step.bindings as Knex.RawBinding[]);
};

// The same as a statement to send with others: it writes nothing when the account has no
// active endpoint.
const announceStep = (clientId: number, event: OutboxEvent, at: Timestamp): Step => ({
    sql: `insert into webhook_events (${internals.columns}) select ?, c.account_id, c.id, c.cuit, ?, ?, ?, ?, ?, ?, 0 from clients c where c.id = ? and ${internals.listened}`,
    bindings: [
        newEventId(),
        event.type,
        event.system ?? null,
        event.previousError ?? null,
        event.error ?? null,
        event.data === undefined ? null : JSON.stringify(event.data),
        at,
        clientId
    ]
});

// A system that failed before and is synchronized now left its failure: the change of health
// (the error it leaves, and its state, read from sync_states before markSynced clears them).
export const recoveryStep = (clientId: number, system: SyncSystem, at: Timestamp): Step => ({
    sql: `insert into webhook_events (${internals.columns}) select ?, c.account_id, c.id, c.cuit, 'salud.cambio', s.system, s.last_error, null, ` +
        "json_object('estado', 'ok', 'estadoAnterior', coalesce(s.last_state, 'error')), ?, 0 " +
        `from sync_states s inner join clients c on c.id = s.client_id where s.client_id = ? and s.system = ? and s.last_error is not null and ${internals.listened}`,
    bindings: [newEventId(), at, clientId, system]
});

// What a system's write changed, in the write's transaction, for the CUIT's completed sync
// (announceSyncCompleted). Nothing is written for an account without an active endpoint.
export const changesStep = (dialect: Dialect, clientId: number, system: SyncSystem, changes: RecordChanges, at: Timestamp): Step => ({
    sql: internals.changesSql(dialect, ['?', '?', '?']),
    bindings: [system, changes.nuevos, changes.cambiados, changes.eliminados, at, clientId]
});

// The same with counts the statements before it left in SQL expressions (MySQL's user
// variables): `values` are the new, changed and removed counts, taking `bindings`.
export const countedChangesStep = (
    dialect: Dialect,
    clientId: number,
    system: SyncSystem,
    values: readonly [string, string, string],
    bindings: readonly Binding[],
    at: Timestamp
): Step => ({
    sql: internals.changesSql(dialect, values),
    bindings: [system, ...bindings, at, clientId]
});

// A key's change of state, in the transaction of what the sync records of a CUIT it logs in for
// (a failure, or the sync's end): the key derived as the API derives it (keyHealth), against
// the last state announced of it to the account (its outbox), so that it is announced once per
// change, whichever of the CUITs it reaches brought it up, and to every account whose CUITs it
// reaches (each account's own syncs bring it up there). A pending key is no news (a new key,
// or a new day: its next login tells), nor is a key that works and was never announced; a CUIT
// without a key is told by its systems' own changes (sin_clave).
export const announceKeyChange = async (trx: Knex.Transaction, clientId: number, at: Timestamp): Promise<void> => {

    if (!await isListened(trx, clientId)) {
        return;
    }

    const found = await keyOfClient(trx, clientId, arcaDay(at));
    const health = found ? keyHealth(found.key) : null;
    if (!found || !health || health.state === 'pendiente' || health.state === 'sin_clave') {
        return;
    }

    const last = await trx('webhook_events').select('data').where({ client_id: found.loginClientId, type: 'salud.cambio' }).whereNull('sync_system')
        .orderBy('id', 'desc').first() as { data: string | null } | undefined;
    const announced = last?.data ? (JSON.parse(last.data) as { estado?: KeyState }).estado ?? null : null;
    if (announced === null && health.state === 'funciona') {
        return;
    }

    const previous = announced ?? (found.key.reach.some((record) => record.syncedAt !== null) ? 'funciona' : 'pendiente');
    if (previous !== health.state) {
        await announce(trx, found.loginClientId, {
            type: 'salud.cambio',
            system: null,
            data: { clave: found.key.loginCuit, cuits: found.cuits, estado: health.state, estadoAnterior: previous, desde: health.since ?? at }
        }, at);
    }
};

// A CUIT's sync ended: what its writes changed (and what an earlier sync that died before its
// end left) becomes one `sincronizacion.completada` event, in one transaction; the systems in
// their usual order. False when there was nothing to announce. A key that works again after a
// failure is announced first. Run again when it loses to another transaction over locks.
export const announceSyncCompleted = (
    knex: Knex,
    clientId: number,
    at: Timestamp
): Promise<boolean> => retriedOnLockConflict(() => knex.transaction(async (trx) => {

    await announceKeyChange(trx, clientId, at);
    const rows = await trx('sync_changes').where({ client_id: clientId }) as Record<string, unknown>[];
    if (!rows.length) {
        return false;
    }

    const bySystem = new Map(rows.map((row) => [String(row.system), row]));
    const sistemas = syncSystems.filter((system) => bySystem.has(system)).map((system) => {

        const row = bySystem.get(system)!;
        return {
            sistema: systemNames[system],
            nuevos: toNumber(row.new_records),
            cambiados: toNumber(row.changed_records),
            eliminados: toNumber(row.removed_records)
        };
    });
    await announce(trx, clientId, { type: 'sincronizacion.completada', data: { sistemas } }, at);
    await trx('sync_changes').where({ client_id: clientId }).delete();
    return true;
}));

// A stored row and a row about to be written compared as the database keeps them: numbers
// (a DECIMAL comes back from MySQL as a string, a boolean as 0 or 1) and texts alike, on both
// sides.
export const storedValue = (row: Record<string, unknown>, columns: readonly string[]): string => JSON.stringify(columns.map((column) => {

    const value = row[column];
    if (value === null || value === undefined) {
        return null;
    }

    if (typeof value === 'boolean') {
        return Number(value);
    }

    const text = String(value);
    return typeof value === 'number' || typeof value === 'bigint' || /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}));
