// Fast path: the SQL of an invoice save and of a period's totals (repositories/invoices.ts).
// Earns it: statements.ts's figure, a save a quarter less CPU on MariaDB and 7x faster on SQLite
// than the builder's 400-row inserts (bbb30ab); npm run bench:sync.

import { invoiceListColumns } from './list-queries.js';
import { upsertChangedSql, upsertCountingSql, upsertSql } from './upsert.js';

export type DayRecount = { forget: string; recount: string };

// The invoices table as a save writes it: a row's values in rowColumns' order (rowValues, repositories/invoices.ts),
// the natural key's columns kept, the others updated.
const naturalKey = ['client_id', 'kind', 'issuer_key', 'tipo', 'punto_venta', 'numero_desde'];
const rowColumns = ['client_id', 'kind', 'issuer_key', ...invoiceListColumns];
const table = { naturalKey, rowColumns, updated: rowColumns.filter((column) => !naturalKey.includes(column)) };

// Every day of a client's kind counted again (bindings: the client, the kind), one grouped
// pass over the list index; `client` is what client_id is compared with.
const dayRecount = (client: string): DayRecount => ({
    forget: `delete from invoice_day_counts where client_id = ${client} and kind = ?`,
    recount: 'insert into invoice_day_counts (client_id, kind, fecha, count) ' +
        `select client_id, kind, fecha, count(*) from invoices where client_id = ${client} and kind = ? group by client_id, kind, fecha`
});

export const invoiceSql = {
    // A save is written as fixed SQL straight to the driver (statements.ts): building a few
    // hundred rows through the query builder cost more than the database's work, and a save
    // runs too seldom in a sync for V8 to ever make that code fast. SQLite, in process, runs
    // one prepared row statement per invoice. MySQL takes up to batchSize rows in one
    // INSERT … VALUES (value-rows.ts): a sync's save of a few hundred is one round trip from
    // BEGIN to COMMIT; 1000 rows are ~150 kB of SQL, far under max_allowed_packet, and a first
    // sync's thousands take a round trip per further 1000 (batchSize, repositories/invoices.ts).
    sqliteUpsert: upsertSql('sqlite', 'invoices', table.rowColumns, table.naturalKey, table.updated),
    // When the account's webhooks listen: the same, rows whose values are all the same left
    // untouched, so that the rows written count the new and the changed ones; the new ones are
    // what the kind's count grew by.
    sqliteUpsertChanged: upsertChangedSql('invoices', table.rowColumns, table.naturalKey, table.updated),
    sqliteCount: 'select count(*) as count from invoices where client_id = ? and kind = ?',
    // SQLite counts every day of a saved kind again, in the save's transaction.
    sqliteRecount: dayRecount('?'),

    // MySQL. @arcasync_met counts the save's rows that met a stored invoice, or one listed
    // before them in the save, as they are written (upsertCountingSql). A user variable holds one
    // value for a whole statement, so MySQL decides a WHERE on it once, before reading any
    // row: the day-count statements below that do not apply cost nothing.
    // MySQL too counts per kind the rows that met a stored invoice (@arcasync_met_E, _R) and
    // those of them whose values differ from the stored ones (@arcasync_changed_E, _R): what a
    // save changed, for the account's webhooks (countedChangesStep); a kind's new rows are its
    // rows in the save less those that met one.
    mysql: {
        start: 'set @arcasync_met = 0, @arcasync_met_E = 0, @arcasync_met_R = 0, @arcasync_changed_E = 0, @arcasync_changed_R = 0',
        // Binding: the batch's rows.
        insert: upsertCountingSql('invoices', table.rowColumns, table.updated, 'values ?', '@arcasync_met', ['E', 'R'].flatMap((code) => [
            `@arcasync_met_${code} := @arcasync_met_${code} + (\`invoices\`.\`kind\` = '${code}')`,
            `@arcasync_changed_${code} := @arcasync_changed_${code} + (\`invoices\`.\`kind\` = '${code}' and not (${
                table.updated.map((column) => `\`invoices\`.\`${column}\` <=> values(\`${column}\`)`).join(' and ')
            }))`
        ])),

        // invoice_day_counts after the save: the save's invoices are added to their days, one
        // statement, nothing read. That is the whole change when none of its rows met a stored
        // invoice. Otherwise an upsert may have moved an invoice to another day, and every day
        // of the client and kind is counted again, replacing what was just added.
        addDays: 'insert into invoice_day_counts (client_id, kind, fecha, count) values ? on duplicate key update count = count + values(count)',
        recount: dayRecount('if(@arcasync_met > 0, ?, null)')
    },

    totals: 'select moneda_original, tipo, count(*) as cantidad, ' +
        ['importe', 'importe_original', 'imp_neto_gravado', 'imp_neto_no_gravado', 'imp_op_exentas', 'otros_tributos', 'iva'].map((column) => `coalesce(sum(${column}), 0) as ${column}`).join(', ') +
        ' from invoices where client_id = ? and kind = ? and fecha between ? and ? group by moneda_original, tipo'
};
