import type { Knex } from 'knex';

// A counter per account and per client, raised in the same transaction as any change a read
// endpoint can show: what a process keeps from an earlier read is valid only while the
// counter it was read at is still current (see adapters/knex/data-versions.ts).

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('accounts', (table) => {

        table.bigInteger('data_version').notNullable().defaultTo(0);
    });

    await knex.schema.alterTable('clients', (table) => {

        table.bigInteger('data_version').notNullable().defaultTo(0);
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('clients', (table) => {

        table.dropColumn('data_version');
    });

    await knex.schema.alterTable('accounts', (table) => {

        table.dropColumn('data_version');
    });
};
