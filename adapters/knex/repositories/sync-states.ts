import type { Knex } from 'knex';
import type { SyncSystem } from '../../../core/domain/sync-system.js';
import type { Timestamp } from '../../../core/domain/time.js';
import type { SyncStateRepository } from '../../../core/ports/index.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import type { Dialect } from '../connection.js';
import type { Statements, Step } from '../statements.js';
import { sqlByShape, statements, statementsOf } from '../statements.js';
import { upsertSql } from '../upsert.js';
import type { HealthState } from '../../../core/domain/health.js';
import { stateOfRecord } from '../../../core/domain/health.js';
import { syncStateOf } from '../sync-state-rows.js';
import { announce, announceKeyChange, announceSyncCompleted, recoveryStep } from '../outbox.js';
import { retriedOnLockConflict } from '../lock-retries.js';

const internals = {
    // Fixed SQL: markSynced closes every write of synchronized data; one row per system.
    synced: sqlByShape(
        (dialect: Dialect, systems: number): string => upsertSql(
            dialect,
            'sync_states',
            ['client_id', 'system', 'synced_at', 'last_attempt_at', 'last_error', 'last_state', 'failing_since'],
            ['client_id', 'system'],
            ['synced_at', 'last_attempt_at', 'last_error', 'last_state', 'failing_since'],
            systems
        )
    ),

    // A system never attempted is pending; one that failed is in the state stored with its error.
    stateOf: (row: Record<string, unknown> | undefined): HealthState => (
        !row || (row.synced_at === null && row.last_error === null)
            ? 'pendiente'
            : stateOfRecord({ lastError: row.last_error as string | null, lastState: (row.last_state ?? null) as HealthState | null })
    )
};

// Called inside the transaction that writes a system's data (which raised the client's data
// version first, see data-versions.ts), so data and syncedAt move together or not at all.
// Several systems written in one transaction (a CUIT's issued and received invoices) are
// marked in one statement.
// The same transaction tells the account's webhooks (outbox.ts) that each system that was
// failing left its failure; what the write changed goes with it (changesStep), for the one
// event that ends the CUIT's sync (announceSyncCompleted).
export const markSynced = async (
    trx: Knex.Transaction | Statements,
    clientId: number,
    system: SyncSystem | readonly SyncSystem[],
    at: Timestamp
): Promise<void> => {

    const sql = statementsOf(trx);
    const systems = typeof system === 'string' ? [system] : system;
    if (systems.length) {
        for (const step of markSyncedSteps(sql.dialect, clientId, systems, at)) {
            await sql.run(step.sql, step.bindings);
        }
    }
};

// The same writes as statements to send with others (one or more systems), in order.
export const markSyncedSteps = (dialect: Dialect, clientId: number, systems: readonly SyncSystem[], at: Timestamp): Step[] => [
    ...systems.map((entry) => recoveryStep(clientId, entry, at)),
    {
        sql: internals.synced(dialect, systems.length),
        bindings: systems.flatMap((entry) => [clientId, entry, at, at, null, null, null])
    }
];

export const syncStateRepository = (knex: Knex, sql = statements(knex)): SyncStateRepository => ({

    announceSyncCompleted: (clientId, at) => announceSyncCompleted(knex, clientId, at),

    // On every per-CUIT read: fixed SQL (see statements.ts).
    async syncedAt(clientId, system) {

        const row = await sql.first('select s.synced_at from sync_states s where s.client_id = ? and s.system = ? limit 1', [clientId, system]);
        return row ? toNullableNumber(row.synced_at) : null;
    },

    async syncedAtBySystem(clientId) {

        const rows = await sql.all('select s.system, s.synced_at from sync_states s where s.client_id = ? and s.synced_at is not null', [clientId]);
        return Object.fromEntries(rows.map((row) => [row.system as SyncSystem, toNumber(row.synced_at)]));
    },

    async list(clientId) {

        const rows = await knex('sync_states').where({ client_id: clientId }).orderBy('system');
        return rows.map(syncStateOf);
    },

    // The client's existence is checked in the same transaction as the write (and the foreign
    // key backs it), so a deleted client gets nothing written.
    // The run of failures goes on while its cause stays the same (failing_since kept); a new
    // cause starts a new one, and is a change of health the account's webhooks hear of, as is
    // a change of its key's state (announceKeyChange).
    async recordFailure(clientId, system, error, at, state) {

        return await retriedOnLockConflict(() => knex.transaction(async (trx) => {

            const client = await trx('clients').select('id').where({ id: clientId }).first();
            if (!client) {
                return false;
            }

            const previous = await trx('sync_states').select('synced_at', 'last_error', 'last_state', 'failing_since').where({
                client_id: clientId,
                system
            }).first() as Record<string, unknown> | undefined;
            const before = internals.stateOf(previous);
            const after = state;
            const failingSince = previous && previous.last_error !== null && before === after ? toNullableNumber(previous.failing_since) ?? at : at;
            await trx('sync_states')
                .insert({
                    client_id: clientId, system, synced_at: null, last_attempt_at: at, last_error: error, last_state: state, failing_since: failingSince
                })
                .onConflict(['client_id', 'system'])
                .merge(['last_attempt_at', 'last_error', 'last_state', 'failing_since']);
            if (before !== after) {
                await announce(trx, clientId, {
                    type: 'salud.cambio',
                    system,
                    previousError: (previous?.last_error as string | null | undefined) ?? null,
                    error,
                    data: { estado: after, estadoAnterior: before }
                }, at);
            }

            // The key that logs in for it may have changed state with this failure.
            await announceKeyChange(trx, clientId, at);
            return true;
        }));
    }
});
