import type { Knex } from 'knex';

// Failed sign-ins and client registrations counted per email or client address over a fixed
// window, shared by every server process (adapters/knex/throttle-counter.ts).

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('throttles', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_bin');
        }

        table.string('subject', 190).notNullable().primary();
        table.bigInteger('window_start').notNullable();
        table.integer('count').notNullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTableIfExists('throttles');
};
