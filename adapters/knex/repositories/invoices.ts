import type { Knex } from 'knex';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { InvoiceRepository } from '../../../core/ports/index.js';
import type { Dialect } from '../connection.js';
import { clientDataIsolation, dialectOf } from '../connection.js';
import { touchClientStep } from '../data-versions.js';
import { invoiceListColumns, listQueries, seekDay } from '../list-queries.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import type { Binding, Step } from '../statements.js';
import { sqlByShape, statements, statementsTransaction } from '../statements.js';
import { upsertSql } from '../upsert.js';
import { markSyncedStep } from './sync-states.js';

const internals = {
    kinds: { issued: 'E', received: 'R' } as const satisfies Record<InvoiceKind, string>,
    systems: { issued: 'issued_invoices', received: 'received_invoices' } as const,
    naturalKey: ['client_id', 'kind', 'issuer_key', 'tipo', 'punto_venta', 'numero_desde'],
    // The row's values in this order (toBindings).
    columns: ['client_id', 'kind', 'issuer_key', ...invoiceListColumns],
    // Rows per statement on MySQL: a first sync's few hundred go in one round trip; 1000 rows
    // are ~100 kB of SQL, far under max_allowed_packet.
    batchSize: 1_000,

    // A save is written as fixed SQL straight to the driver (statements.ts): building a few
    // hundred rows through the query builder cost more than the database's work, and a save
    // runs too seldom in a sync for V8 to ever make that code fast. MySQL takes a batch of rows
    // per statement; SQLite, in process, runs one prepared row statement per invoice. The SQL
    // of the sizes every save uses (one row, a full batch) is built once; a last, partial batch's
    // size is rarely met again and is built when used.
    build: (dialect: Dialect, rows: number): string => upsertSql(dialect, 'invoices', internals.columns, internals.naturalKey, internals.columns.filter((column) => !internals.naturalKey.includes(column)), rows),
    built: sqlByShape((dialect: Dialect, rows: number): string => internals.build(dialect, rows)),

    upsert: (dialect: Dialect, rows = 1): string => (rows === 1 || rows === internals.batchSize ? internals.built(dialect, rows) : internals.build(dialect, rows)),

    totals: 'select moneda_original, tipo, count(*) as cantidad, ' +
        ['importe', 'importe_original', 'imp_neto_gravado', 'imp_neto_no_gravado', 'imp_op_exentas', 'otros_tributos', 'iva'].map((column) => `coalesce(sum(${column}), 0) as ${column}`).join(', ') +
        ' from invoices where client_id = ? and kind = ? and fecha between ? and ? group by moneda_original, tipo',

    // invoice_day_counts after a save. When every row went in as a new invoice (MySQL says so
    // of each multi-row insert) the save's own rows are added to their days: one statement,
    // nothing read. Otherwise an upsert may have moved an invoice to another day, and every
    // day of the client and kind is counted again, one grouped pass over the list index.
    addDays: (days: number): string => 'insert into invoice_day_counts (client_id, kind, fecha, count) values ' +
        new Array(days).fill('(?, ?, ?, ?)').join(', ') + ' on duplicate key update count = count + values(count)',
    forget: 'delete from invoice_day_counts where client_id = ? and kind = ?',
    recount: 'insert into invoice_day_counts (client_id, kind, fecha, count) ' +
        'select client_id, kind, fecha, count(*) from invoices where client_id = ? and kind = ? group by client_id, kind, fecha',

    // The statements that bring the kinds' day counts up to date: the save's rows added to
    // their days, or every day of each kind counted again.
    dayCounting(clientId: number, saves: readonly { kind: InvoiceKind; invoices: readonly InvoiceRecord[] }[], added: boolean): Step[] {

        if (!added) {
            return saves.flatMap(({ kind }) => [
                { sql: internals.forget, bindings: [clientId, internals.kinds[kind]] },
                { sql: internals.recount, bindings: [clientId, internals.kinds[kind]] }
            ]);
        }

        const days = saves.flatMap(({ kind, invoices }) => internals.dayBindings(clientId, internals.kinds[kind], invoices));
        return days.length ? [{ sql: internals.addDays(days.length / 4), bindings: days }] : [];
    },

    dayBindings(clientId: number, code: string, invoices: readonly InvoiceRecord[]): Binding[] {

        const days = new Map<string, number>();
        for (const invoice of invoices) {
            days.set(invoice.fecha, (days.get(invoice.fecha) ?? 0) + 1);
        }

        return [...days].flatMap(([fecha, count]) => [clientId, code, fecha, count]);
    },

    // A row of the list's page, its columns in invoiceListColumns' order (list-queries.ts).
    fromListRow(row: unknown[]): InvoiceRecord {

        const at = internals.listColumn;
        return {
            fecha: String(row[at.fecha]),
            tipo: String(row[at.tipo]),
            puntoVenta: String(row[at.punto_venta]),
            numeroDesde: String(row[at.numero_desde]),
            numeroHasta: String(row[at.numero_hasta]),
            codigoAutorizacion: row[at.codigo_autorizacion] as string | null,
            counterpart: {
                tipoDocumento: row[at.counterpart_doc_type] as string | null,
                numeroDocumento: row[at.counterpart_doc_number] as string | null,
                nombre: row[at.counterpart_name] as string | null
            },
            impNetoGravado: toNullableNumber(row[at.imp_neto_gravado]),
            impNetoNoGravado: toNullableNumber(row[at.imp_neto_no_gravado]),
            impOpExentas: toNullableNumber(row[at.imp_op_exentas]),
            otrosTributos: toNullableNumber(row[at.otros_tributos]),
            iva: toNullableNumber(row[at.iva]),
            tipoCambio: toNumber(row[at.tipo_cambio]),
            importeOriginal: toNumber(row[at.importe_original]),
            monedaOriginal: String(row[at.moneda_original]),
            importe: toNumber(row[at.importe])
        };
    },

    listColumn: Object.fromEntries(invoiceListColumns.map((column, index) => [column, index])) as Record<string, number>,

    toBindings: (clientId: number, kind: InvoiceKind, invoice: InvoiceRecord): Binding[] => [
        clientId,
        internals.kinds[kind],
        // Received invoices are told apart by their issuer too; issued ones are all ours.
        kind === 'received' ? (invoice.counterpart.numeroDocumento ?? '') : '',
        invoice.fecha,
        invoice.tipo,
        invoice.puntoVenta,
        invoice.numeroDesde,
        invoice.numeroHasta,
        invoice.codigoAutorizacion,
        invoice.counterpart.tipoDocumento,
        invoice.counterpart.numeroDocumento,
        invoice.counterpart.nombre,
        invoice.impNetoGravado,
        invoice.impNetoNoGravado,
        invoice.impOpExentas,
        invoice.otrosTributos,
        invoice.iva,
        invoice.tipoCambio,
        invoice.importeOriginal,
        invoice.monedaOriginal,
        invoice.importe
    ]
};

export const invoiceRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).invoices): InvoiceRepository => {

    // Each kind's invoices and syncedAt in one transaction, after raising the client's data
    // version once (a client data transaction, connection.ts, of fixed SQL from BEGIN to
    // COMMIT). On MySQL the rows of every kind go in the same multi-row statements, the first
    // batch in one round trip with BEGIN and the version raise, the days and syncedAt in another
    // with COMMIT; a kind's days are added only if no row of the whole save met a stored invoice.
    const saveKinds: InvoiceRepository['saveKinds'] = async (clientId, saves, syncedAt) => {

        if (!saves.length) {
            return;
        }

        const dialect = dialectOf(knex);
        const rows = saves.flatMap(({ kind, invoices }) => invoices.map((invoice) => internals.toBindings(clientId, kind, invoice)));
        const touch = touchClientStep(clientId);
        const synced = markSyncedStep(dialect, clientId, saves.map(({ kind }) => internals.systems[kind]), syncedAt);
        await statementsTransaction(knex, clientDataIsolation, async (trx) => {

            let added = false;
            if (dialect === 'sqlite') {
                await trx.run(touch.sql, touch.bindings);
                await trx.each(internals.upsert(dialect), rows);
            }
            else {
                const inserts: Step[] = [];
                for (let i = 0; i < rows.length; i += internals.batchSize) {
                    const batch = rows.slice(i, i + internals.batchSize);
                    inserts.push({ sql: internals.upsert(dialect, batch.length), bindings: batch.flat() });
                }

                // A first sync's thousands: a round trip per further batch.
                const written = (await trx.batch([touch, ...inserts.slice(0, 1)])).slice(1);
                for (const insert of inserts.slice(1)) {
                    written.push(...await trx.batch([insert]));
                }

                added = written.every(({ duplicates }) => duplicates === 0);
            }

            await trx.commitWith([...internals.dayCounting(clientId, saves, added), synced]);
        });
    };

    return {

        // Fixed SQL on the read path (see statements.ts and list-queries.ts).
        async list(clientId, kind, range, page) {

            const days = await sql.all(queries.days, [clientId, internals.kinds[kind], range.fromDate, range.toDate]);
            const start = seekDay(days, page.offset);
            const rows = start.from === null ? [] : await sql.arrays(queries.page, [clientId, internals.kinds[kind], start.from, range.toDate, page.limit, start.skip]);
            return { items: rows.map(internals.fromListRow), total: start.total };
        },

        // A grouped pass over the period's rows; sums of NULL amounts are 0.
        async totals(clientId, kind, range) {

            const rows = await sql.all(internals.totals, [clientId, internals.kinds[kind], range.fromDate, range.toDate]);
            return rows.map((row) => ({
                moneda: String(row.moneda_original),
                tipo: String(row.tipo),
                cantidad: toNumber(row.cantidad),
                importe: toNumber(row.importe),
                importeOriginal: toNumber(row.importe_original),
                impNetoGravado: toNumber(row.imp_neto_gravado),
                impNetoNoGravado: toNumber(row.imp_neto_no_gravado),
                impOpExentas: toNumber(row.imp_op_exentas),
                otrosTributos: toNumber(row.otros_tributos),
                iva: toNumber(row.iva)
            }));
        },

        save: (clientId, kind, invoices, syncedAt) => saveKinds(clientId, [{ kind, invoices }], syncedAt),
        saveKinds
    };
};
