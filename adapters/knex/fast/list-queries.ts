// Fast path: paged lists through a named covering index and a deferred join. Earns it: an
// offset of 8,300 in a month took MariaDB 4 ms against 0.9 ms for the first page, now about the
// same (153e6db); stale statistics after a bulk sync made MariaDB scan every account's
// client_tags (7bf7881). Measure: test/deep-pages.test.ts and test/list-plans.test.ts (plans
// pinned on both databases), npm run bench:api.

import type { Dialect } from '../connection.js';
import { placeholders } from './statements.js';

// The SQL of every paged list (fixed SQL, run through statements.ts). A page costs the same
// at any offset: its keys are read from the list's covering index first (the skipped entries
// are index entries only, never rows), then only the page's rows are fetched by primary key
// (a deferred join). The index is named in the query (FORCE INDEX on MySQL, INDEXED BY on
// SQLite), so the plan does not depend on the optimizer's statistics: right after a bulk sync,
// before InnoDB refreshes them, MariaDB would otherwise walk another index of the same prefix
// and sort. The order is the API's, to the last tie (docs/api.md, Reads), in the inner and outer query.
//
// Invoices go further, since a month may hold thousands: the per-day counts kept with them
// (migration 005) give the total and the day the offset falls on, so the page is read from
// that day on, skipping only invoices of that day (seekDay).

const internals = {

    // `table alias` reading only `index`.
    from: (dialect: Dialect, table: string, alias: string, index: string): string => (dialect === 'mysql'
        ? `${table} ${alias} force index (${index})`
        : `${table} ${alias} indexed by ${index}`),

    // The page's keys, then its rows: MySQL's STRAIGHT_JOIN keeps that order whatever the
    // statistics say (SQLite already reads a FROM subquery first).
    join: (dialect: Dialect): string => (dialect === 'mysql' ? 'straight_join' : 'inner join'),

    invoiceColumns: [
        'fecha', 'tipo', 'punto_venta', 'numero_desde', 'numero_hasta', 'codigo_autorizacion',
        'counterpart_doc_type', 'counterpart_doc_number', 'counterpart_name',
        'imp_neto_gravado', 'imp_neto_no_gravado', 'imp_op_exentas', 'otros_tributos', 'iva',
        'tipo_cambio', 'importe_original', 'moneda_original', 'importe'
    ],

    clientColumns: [
        'c.id', 'c.public_id', 'c.account_id', 'c.cuit', 'c.tipo', 'c.nombre', 'c.apellido', 'c.razon_social',
        'c.representative_id', 'c.display_name', 'c.email', 'c.telefono', 'c.monotributista', 'c.autonomo', 'c.categoria',
        'c.data_version'
    ]
};

export interface ListQueries {
    // Bindings: client_id, kind, from, to [, limit, offset]. `days` answers fecha and count.
    invoices: { days: string; page: string };
    // Bindings: client_id [, limit, offset].
    notifications: { count: string; page: string };
    // Bindings: account_id [, limit, offset].
    tags: { count: string; page: string };
    // Bindings: client_id [, limit, offset]; then client_id and the page's period keys.
    ccma: { count: string; periods: string; movements(periods: number): string };
    // `condition` is on clients aliased `c`, with its own bindings; then limit, offset. An
    // owner's list walks the account's list index; a member's is driven by the member's own
    // assignments (few, next to the account's), which the optimizer finds from the condition.
    clients(condition: string, byListIndex: boolean): { count: string; page: string };
}

// Where a page at `offset` starts, from the range's per-day counts in fecha order: the day it
// falls on (null past the end) and how many invoices of that day come before it.
export const seekDay = (days: readonly Record<string, unknown>[], offset: number): { total: number; from: string | null; skip: number } => {

    let total = 0;
    let from: string | null = null;
    let skip = 0;
    for (const day of days) {
        const count = Number(day.count);
        if (from === null && offset < total + count) {
            from = String(day.fecha);
            skip = offset - total;
        }

        total += count;
    }

    return { total, from, skip };
};

export const clientListColumns = internals.clientColumns;
export const invoiceListColumns = internals.invoiceColumns;

export const listQueries = (dialect: Dialect): ListQueries => {

    const from = (table: string, alias: string, index: string) => internals.from(dialect, table, alias, index);
    const join = internals.join(dialect);
    return {
        invoices: {
            days: 'select d.fecha, d.count from invoice_day_counts d where d.client_id = ? and d.kind = ? and d.fecha between ? and ? order by d.fecha asc',
            page: `select ${internals.invoiceColumns.map((column) => `i.${column}`).join(', ')} ` +
                `from (select k.id from ${from('invoices', 'k', 'invoices_list')} where k.client_id = ? and k.kind = ? and k.fecha between ? and ? order by k.fecha asc, k.id asc limit ? offset ?) p ` +
                `${join} invoices i on i.id = p.id order by i.fecha asc, i.id asc`
        },
        notifications: {
            count: `select count(*) as count from ${from('dfe_notifications', 'n', 'dfe_notifications_list')} where n.client_id = ?`,
            page: 'select n.arca_id, n.tipo, n.asunto, n.organismo, n.fecha_recepcion, n.fecha_notificacion, n.leida_at ' +
                `from (select k.id from ${from('dfe_notifications', 'k', 'dfe_notifications_list')} where k.client_id = ? order by k.fecha_recepcion desc, k.id desc limit ? offset ?) p ` +
                `${join} dfe_notifications n on n.id = p.id order by n.fecha_recepcion desc, n.id desc`
        },
        tags: {
            count: `select count(*) as count from ${from('tags', 't', 'tags_account_id_sort_name_unique')} where t.account_id = ?`,
            // sort_name is unique in the account, so it alone is the whole order (with the id
            // after it MariaDB would sort the index entries instead of reading them in order).
            page: 'select t.name, t.color ' +
                `from (select k.id from ${from('tags', 'k', 'tags_account_id_sort_name_unique')} where k.account_id = ? order by k.sort_name asc limit ? offset ?) p ` +
                `${join} tags t on t.id = p.id order by t.sort_name asc`
        },
        ccma: {
            count: `select count(distinct m.period_key) as count from ${from('ccma_movements', 'm', 'ccma_movements_list')} where m.client_id = ?`,
            periods: `select distinct m.period_key from ${from('ccma_movements', 'm', 'ccma_movements_list')} where m.client_id = ? order by m.period_key desc limit ? offset ?`,
            movements: (
                periods
            ) => 'select m.period_key, m.orden, m.impuesto, m.concepto, m.subconcepto, m.descripcion, m.fecha_movimiento, m.debe, m.haber, m.saldo ' +
                `from ${from('ccma_movements', 'm', 'ccma_movements_list')} where m.client_id = ? and m.period_key in (${placeholders(periods)}) ` +
                'order by m.period_key desc, m.orden asc, m.id asc'
        },
        clients: (condition, byListIndex) => {

            const clients = byListIndex ? from('clients', 'c', 'clients_account_id_sort_name_id_index') : 'clients c';
            return {
                count: `select count(*) as count from ${clients} where ${condition}`,
                page: `select ${internals.clientColumns.join(', ')}, s.synced_at as registry_synced_at ` +
                    `from (select c.id from ${clients} where ${condition} order by c.sort_name asc, c.id asc limit ? offset ?) p ` +
                    `${join} clients c on c.id = p.id ` +
                    "left join sync_states s on s.client_id = c.id and s.system = 'registry' " +
                    'order by c.sort_name asc, c.id asc'
            };
        }
    };
};
