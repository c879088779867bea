import type { Knex } from 'knex';
import type { SyncSystem } from '../../../core/domain/sync-system.js';
import type { Timestamp } from '../../../core/domain/time.js';
import type { SyncStateRepository } from '../../../core/ports/index.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import type { Dialect } from '../connection.js';
import type { ClientStores } from '../../../core/ports/unit-of-work.js';
import type { Step } from '../fast/statements.js';
import { sqlByShape, statements } from '../fast/statements.js';
import { upsertSql } from '../fast/upsert.js';
import { syncedAtBySystemSql, syncedAtSql } from '../fast/cuit-reads.js';
import { syncStateOf } from '../sync-state-rows.js';

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
    )
};

// The sync date of systems whose data was just written, in the write's transaction (which raised
// the client's data version first, see data-versions.ts), so data and syncedAt move together or
// not at all: their failure, if any, is over. Several systems written in one transaction (a
// CUIT's issued and received invoices) are marked in one statement.
export const markSyncedStep = (dialect: Dialect, clientId: number, systems: readonly SyncSystem[], at: Timestamp): Step => ({
    sql: internals.synced(dialect, systems.length),
    bindings: systems.flatMap((entry) => [clientId, entry, at, at, null, null, null])
});

// The sync state's store in a client's unit of work (core/ports/unit-of-work.ts).
export const syncStateStore = (trx: Knex.Transaction, dialect: Dialect, clientId: number): ClientStores['syncStates'] => ({

    async get(system) {

        const row = await trx('sync_states').where({ client_id: clientId, system }).first() as Record<string, unknown> | undefined;
        return row ? syncStateOf(row) : undefined;
    },

    async markSynced(system, at) {

        const step = markSyncedStep(dialect, clientId, [system], at);
        await trx.raw(step.sql, step.bindings as Knex.RawBinding[]);
    },

    async recordFailure(system, record) {

        await trx('sync_states')
            .insert({
                client_id: clientId,
                system,
                synced_at: null,
                last_attempt_at: record.at,
                last_error: record.error,
                last_state: record.state ?? null,
                failing_since: record.failingSince
            })
            .onConflict(['client_id', 'system'])
            .merge(['last_attempt_at', 'last_error', 'last_state', 'failing_since']);
    }
});

export const syncStateRepository = (knex: Knex, sql = statements(knex)): Omit<SyncStateRepository, 'recordFailure' | 'announceSyncCompleted'> => ({

    // On every per-CUIT read: fixed SQL (fast/cuit-reads.ts).
    async syncedAt(clientId, system) {

        const row = await sql.first(syncedAtSql, [clientId, system]);
        return row ? toNullableNumber(row.synced_at) : null;
    },

    async syncedAtBySystem(clientId) {

        const rows = await sql.all(syncedAtBySystemSql, [clientId]);
        return Object.fromEntries(rows.map((row) => [row.system as SyncSystem, toNumber(row.synced_at)]));
    },

    async list(clientId) {

        const rows = await knex('sync_states').where({ client_id: clientId }).orderBy('system');
        return rows.map(syncStateOf);
    }
});
