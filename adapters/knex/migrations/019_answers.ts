import type { Knex } from 'knex';
import { categories } from '../../../core/domain/client.js';
import { publishedTables } from '../../../core/domain/monotributo-tables.js';

// The answers accountants act on (issue 41, docs/answers.md):
// - monotributo_tables: the category caps by the day they are in force, one row per table,
//   loaded with the four tables the repository ships (core/domain/monotributo-tables.ts); staff
//   add ARCA's next ones with `arcasync monotributo cargar`;
// - calendar_feeds: each user's private iCalendar address of the agenda, stored as the digest of
//   its secret (as API tokens are), one per user.
// - invoices_answers: the monotributo control of a portfolio sums a year of every visible
//   monotributista's invoices by client and month, and the IVA position a client's months, from
//   this index alone (client, then the date range, then what is summed): on MariaDB each
//   invoice read through invoices_list cost a lookup of its row, 180,000 of them for 5,000 CUITs.
// The agenda reads the SCT tables through their client index.

const internals = {
    mysql: (knex: Knex): boolean => knex.client.config.client === 'mysql2',

    table(knex: Knex, name: string, build: (table: Knex.CreateTableBuilder) => void) {

        const mysql = internals.mysql(knex);
        return knex.schema.createTable(name, (table) => {

            if (mysql) {
                table.engine('InnoDB');
                table.charset('utf8mb4');
                table.collate('utf8mb4_unicode_ci');
            }

            build(table);
        });
    },

    capColumn: (letter: string): string => `tope_${letter.toLowerCase()}`
};

export const up = async (knex: Knex): Promise<void> => {

    await internals.table(knex, 'monotributo_tables', (table) => {

        table.string('vigencia_desde', 10).notNullable().primary();
        table.string('fuente', 500).notNullable();
        for (const column of categories.map(internals.capColumn)) {
            table.decimal(column, 18, 2).notNullable();
        }

        table.bigInteger('loaded_at').notNullable();
    });

    await knex('monotributo_tables').insert(publishedTables.map((published) => ({
        vigencia_desde: published.vigenciaDesde,
        fuente: published.fuente,
        ...Object.fromEntries(categories.map((letter) => [internals.capColumn(letter), published.topes[letter]])),
        loaded_at: 0
    })));

    await knex.schema.alterTable('invoices', (table) => {

        table.index(['client_id', 'fecha', 'kind', 'tipo', 'importe', 'iva', 'tipo_cambio'], 'invoices_answers');
    });

    await internals.table(knex, 'calendar_feeds', (table) => {

        table.integer('user_id').unsigned().notNullable().primary().references('users.id').onDelete('CASCADE');
        table.string('token_hash', 64).notNullable().unique();
        table.string('hint', 16).notNullable();
        table.bigInteger('created_at').notNullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTable('calendar_feeds');
    await knex.schema.alterTable('invoices', (table) => {

        table.dropIndex(['client_id', 'fecha', 'kind', 'tipo', 'importe', 'iva', 'tipo_cambio'], 'invoices_answers');
    });
    await knex.schema.dropTable('monotributo_tables');
};
