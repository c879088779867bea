import type { Knex } from 'knex';

// sync_changes: what each system's write of a CUIT's sync changed (records new, changed and
// removed), written in the transaction of that write, only while the account has an active
// webhook endpoint. A CUIT's sync ends by turning its rows into one `sincronizacion.completada`
// event and deleting them, in one transaction (README: States and webhooks). A sync that died
// before its end leaves its rows: they add up with the next sync's and go in its event.

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('sync_changes', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_bin');
        }

        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.string('system', 24).notNullable();
        table.integer('new_records').notNullable().defaultTo(0);
        table.integer('changed_records').notNullable().defaultTo(0);
        table.integer('removed_records').notNullable().defaultTo(0);
        table.bigInteger('synced_at').notNullable();
        table.primary(['client_id', 'system']);
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTableIfExists('sync_changes');
};
