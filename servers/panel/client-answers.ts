import type { Principal } from '../../core/domain/access.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { firstDayOf, lastDayOf } from '../../core/domain/months.js';
import type { Ports } from '../../core/ports/index.js';
import { getIvaPosition } from '../../core/use-cases/iva-position.js';
import { getMonotributoControl } from '../../core/use-cases/monotributo.js';
import { answerTexts, formatPercent } from './answer-texts.js';
import { capGauge } from './cap-gauge.js';
import { clientBase } from './client-page.js';
import { clientTexts } from './client-texts.js';
import { formatCalendarDay, formatMoment, formatMoney, monthName } from './client-format.js';
import { invoiceChart } from './invoice-chart.js';

// The client's Monotributo and IVA tabs (docs/panel.md, El cliente): the answers of
// GET /v1/cuits/{cuit}/monotributo and /iva through their use cases, in es-AR words. Where an
// answer does not apply (a Responsable Inscripto's Monotributo, a monotributista's IVA) the tab
// says why, in the API's words.

const internals = {
    a: answerTexts,

    month: (mes: string): string => monthName(firstDayOf(mes)),

    synced: (syncedAt: string | null): string | null => (syncedAt ? clientTexts.syncedAt(formatMoment(syncedAt)) : null),

    // A month of the chart opens the comprobantes tab on it.
    monthLink: (cuit: Cuit) => (month: { fromDate: string; toDate: string }) => `${clientBase(cuit)}?${new URLSearchParams({ desde: month.fromDate, hasta: month.toDate }).toString()}`
};

export const monotributoTab = async (deps: Ports, principal: Principal, cuit: Cuit) => {

    const { data, syncedAt } = await getMonotributoControl(deps, principal, { path: { cuit }, query: {} });
    const a = internals.a;
    if (!data.aplica) {
        return { syncedAt: internals.synced(syncedAt), notApplicable: data.motivo };
    }

    const months = data.meses.map((month) => ({
        fromDate: firstDayOf(month.mes), toDate: lastDayOf(month.mes), issued: month.facturado, received: month.compras
    }));
    const window = a.windowOf(internals.month(data.ventana.desde), internals.month(data.ventana.hasta));
    const recategorization = data.recategorizacion;
    return {
        syncedAt: internals.synced(syncedAt),
        monotributo: {
            billed: a.billed(window, formatMoney(data.facturado)),
            gauge: capGauge([
                ...(data.categoria !== null && data.usoTope !== null ? [{ label: a.againstCategory(data.categoria), use: data.usoTope }] : []),
                { label: a.againstK, use: data.usoTopeMaximo }
            ]),
            facts: [
                { term: a.categoryRegistered, value: data.categoria ?? a.noCategory },
                { term: a.cap, value: data.tope === null ? a.noCategory : formatMoney(data.tope) },
                { term: a.categoryImplied, value: data.categoriaSegunFacturacion ?? a.outOfRegime },
                { term: a.nextRecategorization, value: a.recategorization(
                    formatCalendarDay(recategorization.desde), formatCalendarDay(recategorization.hasta),
                    internals.month(recategorization.evaluaDesde), internals.month(recategorization.evaluaHasta), recategorization.enCurso
                ) },
                { term: a.projection, value: data.proyeccion.mesSuperaTope
                    ? a.projectionPasses(internals.month(data.proyeccion.mesSuperaTope), formatMoney(data.proyeccion.ritmoMensual))
                    : a.projectionSafe(formatMoney(data.proyeccion.ritmoMensual)) }
            ],
            purchases: [
                { term: a.purchases, value: `${formatMoney(data.compras.total)} · ${a.purchasesUse(formatPercent(data.compras.usoTopeMaximo))}` },
                { term: a.goodsThreshold, value: `${formatMoney(data.compras.umbralBienes)} · ${data.compras.superaUmbralBienes ? a.exceeded : a.notExceeded}` },
                { term: a.servicesThreshold, value: `${formatMoney(data.compras.umbralServicios)} · ${data.compras.superaUmbralServicios ? a.exceeded : a.notExceeded}` }
            ],
            table: a.table(formatCalendarDay(data.tabla.vigenciaDesde), data.tabla.fuente),
            tableNotice: data.tabla.aviso,
            chart: invoiceChart(months, internals.monthLink(cuit), (month, billed, bought) => a.monthBar(month, billed, bought)),
            chartRows: months.map((month) => ({ month: monthName(month.fromDate), billed: formatMoney(month.issued), bought: formatMoney(month.received) }))
        }
    };
};

export const ivaTab = async (deps: Ports, principal: Principal, cuit: Cuit) => {

    const { data, syncedAt } = await getIvaPosition(deps, principal, { path: { cuit }, query: {} });
    if (!data.aplica) {
        return { syncedAt: internals.synced(syncedAt), notApplicable: data.motivo };
    }

    return {
        syncedAt: internals.synced(syncedAt),
        iva: {
            months: data.meses.map((month) => ({
                month: internals.month(month.mes),
                debito: formatMoney(month.debitoFiscal),
                credito: formatMoney(month.creditoFiscal),
                saldo: formatMoney(month.saldoTecnico),
                emitidos: String(month.comprobantesEmitidos),
                recibidos: String(month.comprobantesRecibidos)
            })),
            totals: {
                debito: formatMoney(data.totales.debitoFiscal), credito: formatMoney(data.totales.creditoFiscal), saldo: formatMoney(data.totales.saldoTecnico)
            },
            excluye: data.excluye
        }
    };
};
