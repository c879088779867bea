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
import type { AgendaItem } from '../../core/domain/agenda.js';
import type { IvaPosition } from '../../core/domain/iva.js';
import type { MonotributoControl } from '../../core/domain/monotributo.js';
import type { MonotributoSummary } from '../../core/use-cases/monotributo.js';

type CuitAgenda = { desde: string; hasta: string; items: readonly AgendaItem[] };

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
    health: (label: string, health: ReadHealthView): string => systemSentence(label, health),

    // Whole pesos, as an accountant quotes a yearly figure: "$ 61.244.000".
    pesos: (value: number): string => `$ ${Math.round(value).toLocaleString('es-AR', { maximumFractionDigits: 0 })}`,

    percent: (ratio: number): string => `${Math.round(ratio * 100)} %`,

    month: (mes: string): string => `${mes.slice(5)}/${mes.slice(0, 4)}`,

    // The sentence an assistant can quote about a monotributista's cap (docs/answers.md):
    // "Facturó $ 61.244.000 en los últimos 12 meses: el 87 % del tope de la categoría H.", then
    // what follows from it: past the cap, out of the regime, the month the pace passes it.
    cap(control: {
        categoria: string | null;
        facturado: number;
        usoTope: number | null;
        usoTopeMaximo: number;
        categoriaSegunFacturacion: string | null;
        fueraDelRegimen: boolean;
        mesSuperaTope: string | null;
        comprasSuperanUmbral: boolean;
    }): string {

        const billed = `Facturó ${internals.pesos(control.facturado)} en los últimos 12 meses`;
        const use = control.categoria && control.usoTope !== null
            ? `${billed}: el ${internals.percent(control.usoTope)} del tope de la categoría ${control.categoria}.`
            : `${billed}: el ${internals.percent(control.usoTopeMaximo)} del tope de la categoría K (no se conoce su categoría).`;
        const consequence = control.fueraDelRegimen
            ? ' Supera el tope de la categoría K: queda fuera del régimen.'
            : control.usoTope !== null && control.usoTope > 1
                ? ` Supera el tope de su categoría: por lo facturado corresponde la categoría ${control.categoriaSegunFacturacion}.`
                : control.mesSuperaTope
                    ? ` Al ritmo de los últimos 3 meses superaría el tope en ${internals.month(control.mesSuperaTope)}.`
                    : '';
        const purchases = control.comprasSuperanUmbral ? ' Sus compras alcanzan el 40 % del tope de la categoría K (umbral de exclusión para servicios).' : '';
        return `${use}${consequence}${purchases}`;
    },

    capOfSummary: (summary: MonotributoSummary): string => internals.cap({
        ...summary,
        comprasSuperanUmbral: summary.riesgos.includes('exclusion') && !summary.fueraDelRegimen
    }),

    capOfControl: (control: MonotributoControl): string => internals.cap({
        ...control,
        mesSuperaTope: control.proyeccion.mesSuperaTope,
        comprasSuperanUmbral: control.compras.superaUmbralServicios
    }),

    atRisk: (summary: MonotributoSummary | undefined): boolean => Boolean(summary && summary.riesgos.length)
};

export const text = {
    cuits(
        result: ListCuitsResult,
        attention: readonly { cuit: string; estado: HealthState; mensaje: string; accion: string }[] = [],
        monotributo: readonly MonotributoSummary[] = []
    ): string {

        const marked = new Map(attention.map((entry) => [entry.cuit, entry]));
        const caps = new Map(monotributo.map((summary) => [summary.cuit, summary]));
        const lines = result.data.map((item) => {

            const tags = item.etiquetas.length ? `; etiquetas: ${item.etiquetas.join(', ')}` : '';
            const state = marked.get(item.cuit);
            const mark = state ? `\n  ⚠ requiere atención (${state.estado}): ${state.mensaje} ${state.accion}` : '';
            const cap = caps.get(item.cuit);
            const use = cap?.usoTope !== null && cap?.usoTope !== undefined ? `, uso del tope: ${internals.percent(cap.usoTope)}` : '';
            const capMark = cap && internals.atRisk(cap) ? `\n  ⚠ tope: ${internals.capOfSummary(cap)}` : '';
            return `- ${item.nombre} (CUIT ${item.displayCuit}, ${item.tipo}); monotributista: ${internals.yesNo(item.monotributista)}, autónomo: ${internals.yesNo(item.autonomo)}, categoría: ${item.categoria ?? 's/d'}${use}${tags}${mark}${capMark}`;
        });
        const count = attention.length;
        const summary = count
            ? [`${count} de estos CUIT no se ${byCount(count, 'puede', 'pueden')} sincronizar bien con ARCA (${byCount(count, 'marcado', 'marcados')} con ⚠).`]
            : [];
        const risky = monotributo.filter(internals.atRisk).length;
        const capSummary = risky
            ? [`${risky} de estos CUIT ${byCount(risky, 'está', 'están')} cerca del tope de su categoría del monotributo o ${byCount(risky, 'lo supera', 'lo superan')} (${byCount(risky, 'marcado', 'marcados')} con ⚠ tope).`]
            : [];
        return [internals.page('CUIT', 'CUIT', result.pagination, result.data.length), ...summary, ...capSummary, ...lines].join('\n');
    },

    invoices(
        kind: 'emitidos' | 'recibidos',
        result: ListInvoicesResult<IssuedInvoiceView | ReceivedInvoiceView>,
        summary: InvoicePeriodSummary,
        health: ReadHealthView,
        answer: { monotributo: MonotributoControl | null; iva: IvaPosition | null } = { monotributo: null, iva: null }
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
            ...(answer.monotributo ? [`Monotributo, categoría ${answer.monotributo.categoria ?? 's/d'}: ${internals.capOfControl(answer.monotributo)}`] : []),
            ...(answer.iva ? text.ivaPosition(answer.iva) : []),
            ...lines
        ].join('\n');
    },

    // The IVA position of the period's months (Responsable Inscripto): totals, a line a month,
    // and what it leaves out.
    ivaPosition(position: IvaPosition): string[] {

        const { totales } = position;
        const range = position.desde === position.hasta
            ? internals.month(position.desde)
            : `${internals.month(position.desde)} a ${internals.month(position.hasta)}`;
        const owed = totales.saldoTecnico > 0 ? ' a pagar' : totales.saldoTecnico < 0 ? ' a favor' : '';
        return [
            `Posición de IVA (Responsable Inscripto), ${range}: débito fiscal ${internals.money(totales.debitoFiscal)}, crédito fiscal ${internals.money(totales.creditoFiscal)}, saldo técnico ${internals.money(totales.saldoTecnico)}${owed}.`,
            ...(position.meses.length > 1
                ? position.meses.map((month) => `- ${internals.month(month.mes)}: débito ${internals.money(month.debitoFiscal)}, crédito ${internals.money(month.creditoFiscal)}, saldo ${internals.money(month.saldoTecnico)} (${
                    counted(month.comprobantesEmitidos, 'comprobante emitido', 'comprobantes emitidos')
                }, ${counted(month.comprobantesRecibidos, 'recibido', 'recibidos')})`)
                : []),
            `No incluye: ${position.excluye.map((item) => item.replace(/\.$/, '')).join('; ')}.`
        ];
    },

    // The CUIT's due dates ahead (consultar_sct): the portfolio agenda's items of this CUIT.
    agenda(agenda: CuitAgenda): string[] {

        const head = `Agenda del ${agenda.desde} al ${agenda.hasta}: ${agenda.items.length ? `${counted(agenda.items.length, 'vencimiento', 'vencimientos')}.` : 'sin vencimientos.'}`;
        return [head, ...agenda.items.map((item) => `- ${item.fecha} ${item.descripcion}${item.importe === null ? '' : ` (${internals.money(item.importe)})`}`)];
    },

    sct(result: SctResult, summary: SctSummary | null, health: ReadHealthView, agenda?: CuitAgenda): string {

        const state = internals.health('la cuenta corriente (SCT)', health);
        const upcoming = agenda ? text.agenda(agenda) : [];
        if (!result.data) {
            return [`Sin datos de la cuenta corriente (SCT). ${internals.synced(result.syncedAt)}`, state, ...upcoming].join('\n');
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
            ...ddjj.map((item) => `- ${item.impuesto}, período ${item.periodo}, vence ${internals.day(item.vencimiento)}`),
            ...upcoming
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
