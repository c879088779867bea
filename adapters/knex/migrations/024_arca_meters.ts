import type { Knex } from 'knex';

// ARCA's own billing meter per client (issue 41, docs/answers.md): the latest reading of the
// monotributo service's CalcularFacturacion and of the portal's deberecategorizar, taken during
// the registry's read of the daily sync. One row per client, replaced by each reading; a read
// that fails leaves the last one.

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('arca_meters', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_unicode_ci');
        }

        table.integer('client_id').unsigned().notNullable().primary().references('clients.id').onDelete('CASCADE');
        table.decimal('facturado', 18, 2).nullable();
        table.decimal('tope', 18, 2).nullable();
        table.string('periodo', 100).nullable();
        table.boolean('debe_recategorizar').nullable();
        table.string('recategorizacion_desde', 10).nullable();
        table.string('recategorizacion_hasta', 10).nullable();
        table.bigInteger('leido_at').notNullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTable('arca_meters');
};
