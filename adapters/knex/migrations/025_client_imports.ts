import type { Knex } from 'knex';

// Imports of clients uploaded in the panel and waiting for confirmation (issue 40, item 2;
// core/use-cases/import-clients.ts): the file's rows, claves fiscales included, sealed with the
// secret box as the clients' keys are, for the user and account that uploaded them. Taken once
// by the confirmation (deleted), and dropped 30 minutes after upload. `public_id` is what the
// confirmation form names; the numeric id never leaves the database.

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('client_imports', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_unicode_ci');
        }

        table.increments('id');
        table.string('public_id', 36).notNullable().unique('client_imports_public_id_unique');
        table.integer('account_id').unsigned().notNullable().references('accounts.id').onDelete('CASCADE');
        table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE');
        table.text('sealed_rows', 'mediumtext').notNullable();
        table.integer('row_count').notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('expires_at').notNullable();
        table.index(['expires_at'], 'client_imports_expires_at');
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTable('client_imports');
};
