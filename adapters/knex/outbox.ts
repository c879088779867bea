import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { RecordChanges } from '../../core/domain/events.js';
import type { KeyState } from '../../core/domain/health.js';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import type { Timestamp } from '../../core/domain/time.js';
import type { Outbox, OutboxEvent } from '../../core/ports/unit-of-work.js';
import { toNumber } from './column-values.js';
import type { Dialect } from './connection.js';
import type { Binding, Step } from './fast/statements.js';

// The webhook outbox (migration 011) and what a sync's writes changed (sync_changes, migration
// 012): its one writer. Which event and its payload are core's (core/use-cases/sync/
// system-writes.ts), written in the unit of work's transaction (core/ports/unit-of-work.ts).
// Nothing is written for an account without an active endpoint: nobody would receive it.

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
const listeningCuit = async (trx: Knex.Transaction, clientId: number): Promise<string | null> => {

    const row = await trx.raw(listenedSql, [clientId]);
    const rows = (Array.isArray(row) ? (Array.isArray(row[0]) ? row[0] : row) : []) as { cuit: unknown }[];
    return rows.length ? String(rows[0]!.cuit) : null;
};

// An event about a client, as a statement: it writes nothing when the account has no active
// endpoint (the outbox's append, and an invoice save's events sent with its rows).
export const announceStep = (clientId: number, event: OutboxEvent, at: Timestamp): Step => ({
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

// What a system's write changed, in the write's transaction, for the CUIT's completed sync
// (announceSyncCompleted).
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

// The outbox of one client's unit of work (core/ports/unit-of-work.ts), in its transaction:
// the one writer of events and of what a sync's writes changed.
export const outbox = (trx: Knex.Transaction, dialect: Dialect, clientId: number): Outbox => {

    let listening: Promise<string | null> | null = null;
    const run = (step: Step) => trx.raw(step.sql, step.bindings as Knex.RawBinding[]);
    return {
        listening: () => (listening ??= listeningCuit(trx, clientId)),
        append: async (event, at, about = clientId) => void await run(announceStep(about, event, at)),
        changed: async (system, changes, at) => void await run(changesStep(dialect, clientId, system, changes, at)),

        async lastKeyState(loginClientId) {

            const last = await trx('webhook_events').select('data').where({ client_id: loginClientId, type: 'salud.cambio' }).whereNull('sync_system')
                .orderBy('id', 'desc').first() as { data: string | null } | undefined;
            return last?.data ? (JSON.parse(last.data) as { estado?: KeyState }).estado ?? null : null;
        },

        async takeChanges() {

            const rows = await trx('sync_changes').where({ client_id: clientId }) as Record<string, unknown>[];
            if (rows.length) {
                await trx('sync_changes').where({ client_id: clientId }).delete();
            }

            return rows.map((row) => ({
                system: row.system as SyncSystem,
                nuevos: toNumber(row.new_records),
                cambiados: toNumber(row.changed_records),
                eliminados: toNumber(row.removed_records)
            }));
        }
    };
};

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
