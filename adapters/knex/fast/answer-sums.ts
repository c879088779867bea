// Fast path: the answers' portfolio sums as fixed SQL through migration 019's covering index
// (repositories/answers.ts, cap-levels.ts). Earns it: docs/architecture.md's table of fast paths,
// GET /v1/monotributo on 5,000 CUITs 1.3 s on SQLite and 3.5 s on MariaDB before the index (c53cad8).

import type { Knex } from 'knex';
import type { TypeRule } from '../../../core/domain/monotributo.js';
import { dialectOf } from '../connection.js';
import type { Binding } from './statements.js';
import { placeholders } from './statements.js';

// Invoices are read through migration 019's covering index (invoices_answers), named in the
// query so the plan does not depend on the optimizer's statistics (as list-queries.ts does).
// Also an invoice save's billing (cap-levels.ts): a year of a client's invoices summed.
export const invoicesForSums = (knex: Knex): string => (dialectOf(knex) === 'mysql' ? 'invoices i force index (invoices_answers)' : 'invoices i indexed by invoices_answers');

// `+i.importe` for the rule's adding types of a kind, `-i.importe` for its subtracting ones, else
// 0 (alias i: invoices), as the answers and an invoice save's cap levels sum them.
export const signedAmount = (kind: 'E' | 'R', rule: TypeRule): { sql: string; bindings: Binding[] } => ({
    sql: `case when i.kind = '${kind}' and i.tipo in (${placeholders(rule.adds.length)}) then i.importe ` +
        `when i.kind = '${kind}' and i.tipo in (${placeholders(rule.subtracts.length)}) then -i.importe else 0 end`,
    bindings: [...rule.adds, ...rule.subtracts]
});

// The visible monotributistas (`visible`, `only`: conditions on clients c, with their bindings).
export const monotributistasSql = (visible: string, only: string): string =>
    `select c.id, c.cuit, c.display_name, c.tipo, c.monotributista, c.categoria from clients c where ${visible} and c.monotributista = 1${only} order by c.sort_name asc, c.id asc`;

// Bindings: the billed and bought sums', the window's first and last day, then visible's and only's.
export const monotributoMonthsSql = (invoicesFrom: string, billed: string, bought: string, visible: string, only: string): string =>
    `select i.client_id, substr(i.fecha, 1, 7) as mes, sum(${billed}) as facturado, sum(${bought}) as compras ` +
    `from clients c inner join ${invoicesFrom} on i.client_id = c.id and i.fecha between ? and ? and i.kind in ('E', 'R') ` +
    `where ${visible} and c.monotributista = 1${only} group by i.client_id, substr(i.fecha, 1, 7)`;

// Bindings: the client, the window's first and last day.
export const ivaTotalsSql = (invoicesFrom: string): string =>
    'select substr(i.fecha, 1, 7) as mes, i.kind, i.tipo, sum(coalesce(i.iva, 0) * i.tipo_cambio) as iva, count(*) as cantidad ' +
    `from ${invoicesFrom} where i.client_id = ? and i.fecha between ? and ? and i.kind in ('E', 'R') group by substr(i.fecha, 1, 7), i.kind, i.tipo`;

export const agendaClientsSql = (visible: string): string => `select c.id, c.cuit, c.display_name, c.monotributista from clients c where ${visible} order by c.cuit asc`;

// Bindings: visible's, then the range's start and end, three times.
export const sctAgendaSql = (visible: string): string =>
    'select d.client_id, \'vencimiento\' as kind, d.vencimiento, d.impuesto, d.concepto, d.periodo, d.detalle, null as importe ' +
    `from sct_due_dates d inner join clients c on c.id = d.client_id where ${visible} and d.vencimiento between ? and ? ` +
    'union all select r.client_id, \'ddjj\' as kind, r.vencimiento, r.impuesto, r.concepto, r.periodo, null as detalle, null as importe ' +
    `from sct_returns r inner join clients c on c.id = r.client_id where ${visible} and r.vencimiento between ? and ? ` +
    'union all select b.client_id, \'deuda\' as kind, b.vencimiento, b.impuesto, b.concepto, b.periodo, null as detalle, ' +
    'b.saldo + b.int_resarcitorios + b.int_punitorios as importe ' +
    `from sct_debts b inner join clients c on c.id = b.client_id where ${visible} and b.vencimiento between ? and ?`;
