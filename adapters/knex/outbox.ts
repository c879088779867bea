import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import type { Timestamp } from '../../core/domain/time.js';
import type { Step } from './statements.js';

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

    columns: 'public_id, account_id, client_id, cuit, type, sync_system, previous_error, error, data, created_at, fanned_out'
};

export const newEventId = (): string => `evt_${randomUUID().replace(/-/g, '')}`;

// Whether the client's account listens to events at all (read inside the write's
// transaction, before work that only an event needs).
export const isListened = async (trx: Knex.Transaction, clientId: number): Promise<boolean> => {

    const row = await trx.raw(`select 1 as listened from clients c where c.id = ? and ${internals.listened}`, [clientId]);
    const rows = Array.isArray(row) ? (Array.isArray(row[0]) ? row[0] : row) : [];
    return rows.length > 0;
};

// An event about a client, written in the caller's transaction.
export const announce = async (trx: Knex.Transaction, clientId: number, event: OutboxEvent, at: Timestamp): Promise<void> => {

    const step = announceStep(clientId, event, at);
    await trx.raw(step.sql, step.bindings as Knex.RawBinding[]);
};

// The same as a statement to send with others: it writes nothing when the account has no
// active endpoint.
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

// A system that failed before and is synchronized now left its failure: the change of health
// (the error it leaves read from sync_states before markSynced clears it).
export const recoveryStep = (clientId: number, system: SyncSystem, at: Timestamp): Step => ({
    sql: `insert into webhook_events (${internals.columns}) select ?, c.account_id, c.id, c.cuit, 'salud.cambio', s.system, s.last_error, null, null, ?, 0 ` +
        `from sync_states s inner join clients c on c.id = s.client_id where s.client_id = ? and s.system = ? and s.last_error is not null and ${internals.listened}`,
    bindings: [newEventId(), at, clientId, system]
});
