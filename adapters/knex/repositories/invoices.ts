import type { Knex } from 'knex';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { InvoiceSave } from '../../../core/ports/index.js';
import type { InvoiceStore } from '../../../core/ports/unit-of-work.js';
import { clientDataIsolation, dialectOf } from '../connection.js';
import { touchClientStep } from '../data-versions.js';
import { invoiceListColumns, listQueries, seekDay } from '../fast/list-queries.js';
import { fittedText, storableText, textSizes, toNullableNumber, toNumber } from '../column-values.js';
import type { ValueRow } from '../fast/value-rows.js';
import { finite } from '../fast/value-rows.js';
import type { Step } from '../fast/statements.js';
import { statements, statementsTransaction } from '../fast/statements.js';
import type { DayRecount } from '../fast/invoice-sql.js';
import { invoiceSql } from '../fast/invoice-sql.js';
import { markSyncedStep } from './sync-states.js';
import { announceStep, changesStep, countedChangesStep, listenedSql } from '../outbox.js';

const internals = {
    kinds: { issued: 'E', received: 'R' } as const satisfies Record<InvoiceKind, string>,
    systems: { issued: 'issued_invoices', received: 'received_invoices' } as const,
    // Rows in one INSERT … VALUES on MySQL (fast/invoice-sql.ts).
    batchSize: 1_000,
    // The queries of a MySQL save, each a list of statements: the batches of rows, the first
    // with the client's version raise, the last with the day counts and the sync date (sent
    // with COMMIT).
    mysqlQueries(clientId: number, saves: readonly InvoiceSave[], rows: readonly ValueRow[], touch: Step, synced: readonly Step[]): Step[][] {

        const sql = invoiceSql.mysql;
        const inserts: Step[] = [];
        for (let i = 0; i < rows.length; i += internals.batchSize) {
            inserts.push({ sql: sql.insert, bindings: [rows.slice(i, i + internals.batchSize)] });
        }

        const queries = [[touch, { sql: sql.start, bindings: [] }, ...inserts.slice(0, 1)], ...inserts.slice(1).map((insert) => [insert])];
        const days = saves.flatMap(({ kind, invoices }) => internals.days(clientId, internals.kinds[kind], invoices));
        queries.at(-1)!.push(
            ...days.length ? [{ sql: sql.addDays, bindings: [days] }] : [],
            ...internals.recounting(sql.recount, clientId, saves),
            ...synced
        );
        return queries;
    },

    // The recount's statements for each saved kind.
    recounting: (sql: DayRecount, clientId: number, saves: readonly InvoiceSave[]): Step[] => saves.flatMap(({ kind }) => [
        { sql: sql.forget, bindings: [clientId, internals.kinds[kind]] },
        { sql: sql.recount, bindings: [clientId, internals.kinds[kind]] }
    ]),

    // [client, kind, fecha, invoices] of each day the invoices fall on.
    days(clientId: number, code: string, invoices: readonly InvoiceRecord[]): ValueRow[] {

        const days = new Map<string, number>();
        for (const invoice of invoices) {
            days.set(invoice.fecha, (days.get(invoice.fecha) ?? 0) + 1);
        }

        return [...days].map(([fecha, count]) => [clientId, code, fecha, count]);
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

    amount: (value: number): number => finite(value, 'un importe del comprobante'),
    nullableAmount: (value: number | null): number | null => (value === null ? null : internals.amount(value)),

    // The row's values in rowColumns' order.
    rowValues: (clientId: number, kind: InvoiceKind, invoice: InvoiceRecord): ValueRow => [
        clientId,
        internals.kinds[kind],
        // Received invoices are told apart by their issuer too; issued ones are all ours.
        kind === 'received' ? storableText(invoice.counterpart.numeroDocumento ?? '') : '',
        storableText(invoice.fecha),
        storableText(invoice.tipo),
        storableText(invoice.puntoVenta),
        storableText(invoice.numeroDesde),
        storableText(invoice.numeroHasta),
        storableText(invoice.codigoAutorizacion),
        storableText(invoice.counterpart.tipoDocumento),
        storableText(invoice.counterpart.numeroDocumento),
        fittedText(invoice.counterpart.nombre, textSizes.invoices.counterpart_name),
        internals.nullableAmount(invoice.impNetoGravado),
        internals.nullableAmount(invoice.impNetoNoGravado),
        internals.nullableAmount(invoice.impOpExentas),
        internals.nullableAmount(invoice.otrosTributos),
        internals.nullableAmount(invoice.iva),
        internals.amount(invoice.tipoCambio),
        internals.amount(invoice.importeOriginal),
        storableText(invoice.monedaOriginal),
        internals.amount(invoice.importe)
    ]
};

export const invoiceRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).invoices): InvoiceStore => {

    // Each kind's invoices and syncedAt in one transaction, after raising the client's data
    // version once (a client data transaction, connection.ts, of fixed SQL from BEGIN to
    // COMMIT). On MySQL the rows of every kind go in the same statements, and a save of up to
    // batchSize rows is one round trip: BEGIN, the version raise, the rows, the days, what it
    // changed, core's events, syncedAt and COMMIT; the days are added only if no row of the
    // whole save met a stored invoice.
    const saveKinds: InvoiceStore['saveKinds'] = async (clientId, saves, syncedAt, events) => {

        if (!saves.length) {
            return;
        }

        const dialect = dialectOf(knex);
        const kindRows = saves.map(({ kind, invoices }) => invoices.map((invoice) => internals.rowValues(clientId, kind, invoice)));
        const rows = kindRows.flat();
        const touch = touchClientStep(clientId);
        // Core's events (a failing kind's recovery), appended as the outbox appends them, then
        // the sync date of each kind.
        const systems = saves.map(({ kind }) => internals.systems[kind]);
        const synced = [...events.map((event) => announceStep(clientId, event, syncedAt)), markSyncedStep(dialect, clientId, systems, syncedAt)];
        // What each kind's save changed (written only for an account whose webhooks listen).
        const changes = saves.map(({ kind }, index) => countedChangesStep(
            dialect,
            clientId,
            internals.systems[kind],
            [`? - @arcasync_met_${internals.kinds[kind]}`, `@arcasync_changed_${internals.kinds[kind]}`, '0'],
            [kindRows[index]!.length],
            syncedAt
        ));
        const queries = dialect === 'mysql' ? internals.mysqlQueries(clientId, saves, rows, touch, [...changes, ...synced]) : [];
        await statementsTransaction(knex, clientDataIsolation, async (trx) => {

            if (dialect === 'sqlite') {
                await trx.run(touch.sql, touch.bindings);
                if (!await trx.first(listenedSql, [clientId])) {
                    await trx.each(invoiceSql.sqliteUpsert, rows);
                    await trx.commitWith([...internals.recounting(invoiceSql.sqliteRecount, clientId, saves), ...synced]);
                    return;
                }

                const counted: Step[] = [];
                for (const [index, { kind }] of saves.entries()) {
                    const count = async () => toNumber((await trx.first(invoiceSql.sqliteCount, [clientId, internals.kinds[kind]]))!.count);
                    const before = await count();
                    const written = await trx.each(invoiceSql.sqliteUpsertChanged, kindRows[index]!);
                    const nuevos = await count() - before;
                    counted.push(changesStep(dialect, clientId, internals.systems[kind], { nuevos, cambiados: written - nuevos, eliminados: 0 }, syncedAt));
                }

                await trx.commitWith([...internals.recounting(invoiceSql.sqliteRecount, clientId, saves), ...counted, ...synced]);
                return;
            }

            for (const query of queries.slice(0, -1)) {
                await trx.batch(query);
            }

            await trx.commitWith(queries.at(-1)!);
        });
    };

    return {

        // Fixed SQL on the read path (see statements.ts and list-queries.ts).
        async list(clientId, kind, range, page) {

            const days = await sql.all(queries.days, [clientId, internals.kinds[kind], range.fromDate, range.toDate]);
            const start = seekDay(days, page.offset);
            const rows = start.from === null ? [] : await sql.arrays(
                queries.page,
                [clientId, internals.kinds[kind], start.from, range.toDate, page.limit, start.skip]
            );
            return { items: rows.map(internals.fromListRow), total: start.total };
        },

        // A grouped pass over the period's rows; sums of NULL amounts are 0.
        async totals(clientId, kind, range) {

            const rows = await sql.all(invoiceSql.totals, [clientId, internals.kinds[kind], range.fromDate, range.toDate]);
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

        saveKinds
    };
};
