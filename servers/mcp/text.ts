import type { ListCuitsResult } from '../../core/use-cases/list-cuits.js';
import type { ListInvoicesResult } from '../../core/use-cases/list-invoices.js';
import type { IssuedInvoiceView, ReceivedInvoiceView } from '../../core/domain/invoice.js';
import type { SctResult } from '../../core/use-cases/get-sct.js';
import type { SctSummary } from '../../core/domain/sct.js';
import type { InvoicePeriodSummary } from '../../core/use-cases/summarize-invoice-period.js';
import type { CcmaBalancesResult } from '../../core/use-cases/get-ccma-balances.js';
import type { CcmaMovementsResult } from '../../core/use-cases/list-ccma-movements.js';
import type { NotificationsResult } from '../../core/use-cases/list-notifications.js';
import type { Pagination } from '../../core/domain/pagination.js';
import type { ReadHealthView } from '../../core/use-cases/cuit-health.js';
import type { HealthState } from '../../core/domain/health.js';
import { systemSentence } from '../../core/domain/health.js';
import { isFinalConsumer } from '../../core/domain/invoice.js';
import { byCount, counted } from '../../core/domain/spanish.js';

// The readable side of each tool's answer: a short Spanish summary, one line per record, for
// people and for clients that do not read structuredContent.

const internals = {
    money: (value: number | null): string => (value === null ? 's/d' : `$ ${value.toLocaleString('es-AR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`),

    day: (iso: string | null): string => (iso ? iso.slice(0, 10) : 's/d'),

    capitalized: (text: string): string => `${text[0]!.toUpperCase()}${text.slice(1)}`,

    // "Comprobantes 1 a 50 de 120.", "Notificación 3 de 3.", "Sin notificaciones (total: 0).".
    page(one: string, many: string, pagination: Pagination, shown: number): string {

        if (!shown) {
            return `Sin ${many} (total: ${pagination.total}).`;
        }

        const first = pagination.offset + 1;
        return shown === 1
            ? `${internals.capitalized(one)} ${first} de ${pagination.total}.`
            : `${internals.capitalized(many)} ${first} a ${pagination.offset + shown} de ${pagination.total}.`;
    },

    vouchers: (count: number): string => counted(count, 'comprobante', 'comprobantes'),

    // The other party of an issued invoice: a consumidor final has no name nor document (ARCA
    // writes type 99, number 0), so it is named as such.
    receptor(receptor: IssuedInvoiceView['receptor']): string {

        if (isFinalConsumer(receptor)) {
            return receptor.nombre ? `${receptor.nombre} (consumidor final)` : 'consumidor final';
        }

        return `${receptor.nombre ?? 's/d'} (${receptor.numeroDocumento ?? 's/d'})`;
    },

    synced: (syncedAt: string | null): string => (syncedAt ? `Última sincronización con ARCA: ${syncedAt}.` : 'Todavía no se sincronizó con ARCA.'),

    // "Resumen del período: 120 comprobantes (3 notas de crédito, que restan).", then a line per
    // currency with its totals.
    summary(summary: InvoicePeriodSummary): string[] {

        if (!summary.cantidad) {
            return ['Resumen del período: sin comprobantes.'];
        }

        const credit = summary.porMoneda.reduce((sum, currency) => sum + currency.notasDeCredito, 0);
        return [
            `Resumen del período: ${internals.vouchers(summary.cantidad)}${
                credit ? ` (${counted(credit, 'nota de crédito', 'notas de crédito')}, que ${byCount(credit, 'resta', 'restan')})` : ''
            }.`,
            ...summary.porMoneda.map((currency) => {

                const original = currency.moneda === 'PES' || currency.moneda === '$' ? '' : `, ${currency.importeOriginal.toLocaleString('es-AR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency.moneda} de origen`;
                return `- ${currency.moneda}: ${internals.vouchers(currency.cantidad)}; total ${internals.money(currency.importe)}${original}; neto gravado ${internals.money(currency.impNetoGravado)}, no gravado ${internals.money(currency.impNetoNoGravado)}, exento ${internals.money(currency.impOpExentas)}, IVA ${internals.money(currency.iva)}, otros tributos ${internals.money(currency.otrosTributos)}.`;
            })
        ];
    },

    yesNo: (value: boolean | null): string => (value === null ? 's/d' : value ? 'sí' : 'no'),

    // The state of what was read, in one sentence: "Sin datos de la cuenta corriente (SCT): ARCA
    // exige cambiar la clave fiscal (desde el 3/11/2026). Pedile al cliente que…".
    health: (label: string, health: ReadHealthView): string => systemSentence(label, health)
};

export const text = {
    cuits(result: ListCuitsResult, attention: readonly { cuit: string; estado: HealthState; mensaje: string; accion: string }[] = []): string {

        const marked = new Map(attention.map((entry) => [entry.cuit, entry]));
        const lines = result.data.map((item) => {

            const tags = item.etiquetas.length ? `; etiquetas: ${item.etiquetas.join(', ')}` : '';
            const state = marked.get(item.cuit);
            const mark = state ? `\n  ⚠ requiere atención (${state.estado}): ${state.mensaje} ${state.accion}` : '';
            return `- ${item.nombre} (CUIT ${item.displayCuit}, ${item.tipo}); monotributista: ${internals.yesNo(item.monotributista)}, autónomo: ${internals.yesNo(item.autonomo)}, categoría: ${item.categoria ?? 's/d'}${tags}${mark}`;
        });
        const count = attention.length;
        const summary = count
            ? [`${count} de estos CUIT no se ${byCount(count, 'puede', 'pueden')} sincronizar bien con ARCA (${byCount(count, 'marcado', 'marcados')} con ⚠).`]
            : [];
        return [internals.page('CUIT', 'CUIT', result.pagination, result.data.length), ...summary, ...lines].join('\n');
    },

    invoices(
        kind: 'emitidos' | 'recibidos',
        result: ListInvoicesResult<IssuedInvoiceView | ReceivedInvoiceView>,
        summary: InvoicePeriodSummary,
        health: ReadHealthView
    ): string {

        const lines = result.data.map((invoice) => {

            const other = 'receptor' in invoice
                ? `receptor: ${internals.receptor(invoice.receptor)}`
                : `emisor: ${invoice.emisor.nombre} (${invoice.emisor.cuit})`;
            return `- ${internals.day(invoice.fecha)} tipo ${invoice.tipo} ${invoice.puntoVenta}-${invoice.numeroDesde}: ${internals.money(invoice.importe)}; ${other}`;
        });
        return [
            `Comprobantes ${kind} del ${result.filters.fromDate} al ${result.filters.toDate}. ${internals.page('comprobante', 'comprobantes', result.pagination, result.data.length)}`,
            internals.synced(result.syncedAt),
            internals.health(`los comprobantes ${kind}`, health),
            ...internals.summary(summary),
            ...lines
        ].join('\n');
    },

    sct(result: SctResult, summary: SctSummary | null, health: ReadHealthView): string {

        const state = internals.health('la cuenta corriente (SCT)', health);
        if (!result.data) {
            return `Sin datos de la cuenta corriente (SCT). ${internals.synced(result.syncedAt)}\n${state}`;
        }

        const { deuda, vencimientos, ddjj } = result.data;
        const next = summary?.proximoVencimiento;
        return [
            `Cuenta corriente (SCT). ${internals.synced(result.syncedAt)}`,
            state,
            `Total adeudado hoy (saldo más intereses): ${internals.money(summary?.totalAdeudado ?? 0)}. Próximo vencimiento: ${next ? `${internals.day(next.vencimiento)}, ${next.impuesto}, período ${next.periodo}` : 'ninguno informado'}.`,
            `Deudas: ${deuda.length}.`,
            ...deuda.map((item) => `- ${item.impuesto}, período ${item.periodo}: saldo ${internals.money(item.saldo)}, intereses ${internals.money(item.intResarcitorios + item.intPunitorios)}, vence ${internals.day(item.vencimiento)}`),
            `Vencimientos próximos: ${vencimientos.length}.`,
            ...vencimientos.map((item) => `- ${internals.day(item.vencimiento)} ${item.impuesto}, período ${item.periodo}: ${item.detalle}`),
            `Declaraciones juradas: ${ddjj.length}.`,
            ...ddjj.map((item) => `- ${item.impuesto}, período ${item.periodo}, vence ${internals.day(item.vencimiento)}`)
        ].join('\n');
    },

    ccmaBalances(result: CcmaBalancesResult, health: ReadHealthView): string {

        const state = internals.health('la cuenta de monotributo y autónomos (CCMA)', health);
        if (!result.data) {
            return `Sin saldos de la cuenta de monotributo y autónomos (CCMA). ${internals.synced(result.syncedAt)}\n${state}`;
        }

        return [
            `Saldos de la cuenta de monotributo y autónomos (CCMA). ${internals.synced(result.syncedAt)}`,
            state,
            `Saldo deudor: ${internals.money(result.data.saldoDeudor)}.`,
            `Saldo acreedor: ${internals.money(result.data.saldoAcreedor)}.`
        ].join('\n');
    },

    // limit and offset count periods: the head says which periods of how many, and how many
    // movements they hold ("Movimientos de la CCMA: períodos 1 a 3 de 7 (12 movimientos).").
    ccmaMovements(result: CcmaMovementsResult, health: ReadHealthView): string {

        const { offset, total } = result.pagination;
        const periods = new Set(result.data.map((item) => item.periodo)).size;
        const head = !periods
            ? `Sin movimientos de la CCMA${total ? ` en esta página (${counted(total, 'período', 'períodos')} en total)` : ''}.`
            : `Movimientos de la CCMA: ${periods === 1 ? `período ${offset + 1}` : `períodos ${offset + 1} a ${offset + periods}`} de ${total} (${
                counted(result.data.length, 'movimiento', 'movimientos')
            }).`;
        return [
            `${head} ${internals.synced(result.syncedAt)}`,
            internals.health('la cuenta de monotributo y autónomos (CCMA)', health),
            ...result.data.map((item) => `- ${item.periodo} #${item.orden} ${item.descripcion}: debe ${internals.money(item.debe)}, haber ${internals.money(item.haber)}, saldo ${internals.money(item.saldo)}`)
        ].join('\n');
    },

    dfe(result: NotificationsResult, health: ReadHealthView): string {

        return [
            `${internals.page('notificación', 'notificaciones', result.pagination, result.data.length)} ${internals.synced(result.syncedAt)}`,
            internals.health('el domicilio fiscal electrónico (DFE)', health),
            ...result.data.map((item) => `- ${internals.day(item.fechaRecepcion)} ${item.asunto} (${item.organismo ?? 's/d'}; ${item.leidaAt ? 'leída' : 'no leída'})`)
        ].join('\n');
    }
};
