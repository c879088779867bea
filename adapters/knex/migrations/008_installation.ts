import type { Knex } from 'knex';

// Facts about the database itself, one row each: today only that the demo created it
// ('simulated'), so nothing sends its made-up keys to the real authority.

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('installation', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_bin');
        }

        table.string('name', 64).notNullable().primary();
        table.string('value', 255).notNullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTableIfExists('installation');
};
