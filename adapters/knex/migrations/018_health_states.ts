import type { Knex } from 'knex';
import { storeStatesOfOlderErrors } from './older-error-words.js';

// GET /v1/estados filtered by state pages in SQL (adapters/knex/health-states.ts):
// - a failure's state is read from sync_states.last_state, the kind stored beside it since
//   migration 014; rows recorded before get it here, from the words of their error, as the
//   derivation read them (stateOfError), so no state is recomputed from text any more but for
//   a row a process of an older version writes during an upgrade;
// - a key's logins of the ARCA day are found by its identity (sync_login_attempts by key_id and
//   day): the health of a page, and each CUIT of a filtered portfolio, look them up.

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_login_attempts', (table) => {

        table.index(['key_id', 'day'], 'sync_login_attempts_key_day');
    });

    await storeStatesOfOlderErrors(knex);
};

// The states written stay: they are what the errors said.
export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_login_attempts', (table) => {

        table.dropIndex(['key_id', 'day'], 'sync_login_attempts_key_day');
    });
};
