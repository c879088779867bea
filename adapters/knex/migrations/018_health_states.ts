import type { Knex } from 'knex';
import type { HealthState } from '../../../core/domain/health.js';
import { stateOfError } from '../../../core/domain/health.js';

// GET /v1/estados filtered by state pages in SQL (adapters/knex/health-states.ts):
// - a failure's state is read from sync_states.last_state, the kind stored beside it since
//   migration 014; rows recorded before get it here, from the words of their error, as the
//   derivation read them (stateOfError), so no state is recomputed from text any more but for
//   a row a process of an older version writes during an upgrade;
// - a key's logins of the ARCA day are found by its identity (sync_login_attempts by key_id and
//   day): the health of a page, and each CUIT of a filtered portfolio, look them up.

const internals = {
    batch: 500
};

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_login_attempts', (table) => {

        table.index(['key_id', 'day'], 'sync_login_attempts_key_day');
    });

    for (;;) {
        const rows = await knex('sync_states').select('client_id', 'system', 'last_error').whereNull('last_state').whereNotNull('last_error')
            .orderBy(['client_id', 'system']).limit(internals.batch) as { client_id: number; system: string; last_error: string }[];
        if (!rows.length) {
            break;
        }

        // One update per system and state.
        const groups = new Map<string, { system: string; state: HealthState; ids: number[] }>();
        for (const row of rows) {
            const state = stateOfError(row.last_error);
            const group = groups.get(`${row.system}:${state}`) ?? { system: row.system, state, ids: [] };
            group.ids.push(Number(row.client_id));
            groups.set(`${row.system}:${state}`, group);
        }

        for (const group of groups.values()) {
            await knex('sync_states').where({ system: group.system }).whereIn('client_id', group.ids).whereNull('last_state').update({ last_state: group.state });
        }
    }
};

// The states written stay: they are what the errors said.
export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_login_attempts', (table) => {

        table.dropIndex(['key_id', 'day'], 'sync_login_attempts_key_day');
    });
};
