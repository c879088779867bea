import type { Knex } from 'knex';

// sync_jobs.active_key holds a key's identity (64 characters) since migration 014, which widened
// it on MySQL alone: SQLite keeps a varchar of any length, so its table still declared
// varchar(11). Declared as the current schema says (adapters/knex/schema.ts) on SQLite too, so
// that a migrated SQLite database equals the schema with no exception. knex rebuilds the table
// (nothing references sync_jobs), its rows and indexes kept; MySQL has nothing to change.

const internals = {
    sqlite: (knex: Knex): boolean => knex.client.config.client !== 'mysql2'
};

export const up = async (knex: Knex): Promise<void> => {

    if (internals.sqlite(knex)) {
        await knex.schema.alterTable('sync_jobs', (table) => {

            table.string('active_key', 64).nullable().alter();
        });
    }
};

export const down = async (knex: Knex): Promise<void> => {

    if (internals.sqlite(knex)) {
        await knex.schema.alterTable('sync_jobs', (table) => {

            table.string('active_key', 11).nullable().alter();
        });
    }
};
