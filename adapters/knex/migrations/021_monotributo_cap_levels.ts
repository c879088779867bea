import type { Knex } from 'knex';

// monotributo_cap_levels: where each monotributista's billing of the last 12 months stood
// against its caps when its issued invoices were last saved (core/domain/monotributo.ts,
// capLevels: 0 under 80 % of its category's cap, 1 from 80 %, 2 past it, 3 past K's), and where
// it stood the save before. A save that raises the level writes a `monotributo.tope` event in
// its own transaction (adapters/knex/repositories/invoices.ts), once per crossing: staying
// above announces nothing, falling below and crossing again does (docs/api.md, webhooks).

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('monotributo_cap_levels', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_bin');
        }

        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.integer('level').notNullable();
        table.integer('previous_level').notNullable();
        table.decimal('facturado', 18, 2).notNullable();
        table.decimal('tope', 18, 2).nullable();
        table.bigInteger('checked_at').notNullable();
        table.primary(['client_id']);
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTableIfExists('monotributo_cap_levels');
};
