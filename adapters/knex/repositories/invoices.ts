import type { Knex } from 'knex';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { InvoiceRepository } from '../../../core/ports/index.js';
import { clientDataTransaction, dialectOf } from '../connection.js';
import { touchClient } from '../data-versions.js';
import { invoiceListColumns, listQueries, seekDay } from '../list-queries.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import { statements } from '../statements.js';
import { markSynced } from './sync-states.js';

const internals = {
    kinds: { issued: 'E', received: 'R' } as const satisfies Record<InvoiceKind, string>,
    systems: { issued: 'issued_invoices', received: 'received_invoices' } as const,
    naturalKey: ['client_id', 'kind', 'issuer_key', 'tipo', 'punto_venta', 'numero_desde'],
    batchSize: 400,
    columns: invoiceListColumns,

    totals: 'select moneda_original, tipo, count(*) as cantidad, ' +
        ['importe', 'importe_original', 'imp_neto_gravado', 'imp_neto_no_gravado', 'imp_op_exentas', 'otros_tributos', 'iva'].map((column) => `coalesce(sum(${column}), 0) as ${column}`).join(', ') +
        ' from invoices where client_id = ? and kind = ? and fecha between ? and ? group by moneda_original, tipo',

    // Every day of the client and kind is counted again after a save: an upsert may move an
    // invoice to another day, and one grouped pass over the index is cheap next to the sync.
    recount: 'insert into invoice_day_counts (client_id, kind, fecha, count) ' +
        'select client_id, kind, fecha, count(*) from invoices where client_id = ? and kind = ? group by client_id, kind, fecha',

    toRecord: (row: Record<string, unknown>): InvoiceRecord => ({
        fecha: String(row.fecha),
        tipo: String(row.tipo),
        puntoVenta: String(row.punto_venta),
        numeroDesde: String(row.numero_desde),
        numeroHasta: String(row.numero_hasta),
        codigoAutorizacion: row.codigo_autorizacion as string | null,
        counterpart: {
            tipoDocumento: row.counterpart_doc_type as string | null,
            numeroDocumento: row.counterpart_doc_number as string | null,
            nombre: row.counterpart_name as string | null
        },
        impNetoGravado: toNullableNumber(row.imp_neto_gravado),
        impNetoNoGravado: toNullableNumber(row.imp_neto_no_gravado),
        impOpExentas: toNullableNumber(row.imp_op_exentas),
        otrosTributos: toNullableNumber(row.otros_tributos),
        iva: toNullableNumber(row.iva),
        tipoCambio: toNumber(row.tipo_cambio),
        importeOriginal: toNumber(row.importe_original),
        monedaOriginal: String(row.moneda_original),
        importe: toNumber(row.importe)
    }),

    toRow: (clientId: number, kind: InvoiceKind, invoice: InvoiceRecord) => ({
        client_id: clientId,
        kind: internals.kinds[kind],
        // Received invoices are told apart by their issuer too; issued ones are all ours.
        issuer_key: kind === 'received' ? (invoice.counterpart.numeroDocumento ?? '') : '',
        fecha: invoice.fecha,
        tipo: invoice.tipo,
        punto_venta: invoice.puntoVenta,
        numero_desde: invoice.numeroDesde,
        numero_hasta: invoice.numeroHasta,
        codigo_autorizacion: invoice.codigoAutorizacion,
        counterpart_doc_type: invoice.counterpart.tipoDocumento,
        counterpart_doc_number: invoice.counterpart.numeroDocumento,
        counterpart_name: invoice.counterpart.nombre,
        imp_neto_gravado: invoice.impNetoGravado,
        imp_neto_no_gravado: invoice.impNetoNoGravado,
        imp_op_exentas: invoice.impOpExentas,
        otros_tributos: invoice.otrosTributos,
        iva: invoice.iva,
        tipo_cambio: invoice.tipoCambio,
        importe_original: invoice.importeOriginal,
        moneda_original: invoice.monedaOriginal,
        importe: invoice.importe
    })
};

export const invoiceRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).invoices): InvoiceRepository => ({

    // Fixed SQL on the read path (see statements.ts and list-queries.ts).
    async list(clientId, kind, range, page) {

        const days = await sql.all(queries.days, [clientId, internals.kinds[kind], range.fromDate, range.toDate]);
        const start = seekDay(days, page.offset);
        const rows = start.from === null ? [] : await sql.all(queries.page, [clientId, internals.kinds[kind], start.from, range.toDate, page.limit, start.skip]);
        return { items: rows.map(internals.toRecord), total: start.total };
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

    async save(clientId, kind, invoices, syncedAt) {

        await clientDataTransaction(knex, async (trx) => {

            await touchClient(trx, clientId);
            for (let i = 0; i < invoices.length; i += internals.batchSize) {
                const rows = invoices.slice(i, i + internals.batchSize).map((invoice) => internals.toRow(clientId, kind, invoice));
                await trx('invoices').insert(rows).onConflict(internals.naturalKey).merge(internals.columns.filter((column) => !internals.naturalKey.includes(column)));
            }

            await trx('invoice_day_counts').where({ client_id: clientId, kind: internals.kinds[kind] }).del();
            await trx.raw(internals.recount, [clientId, internals.kinds[kind]]);

            await markSynced(trx, clientId, internals.systems[kind], syncedAt);
        });
    }
});
