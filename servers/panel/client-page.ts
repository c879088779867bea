import type { Principal } from '../../core/domain/access.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { formatCuit } from '../../core/domain/cuit.js';
import type { CurrencySummary, IssuedInvoiceView, ReceivedInvoiceView } from '../../core/domain/invoice.js';
import { isFinalConsumer } from '../../core/domain/invoice.js';
import { arcaDay } from '../../core/domain/arca-day.js';
import { needsAttention } from '../../core/domain/health.js';
import type { Notification } from '../../core/domain/notification.js';
import type { DateRange } from '../../core/domain/period.js';
import { currentMonthUtc } from '../../core/domain/period.js';
import { summarizeSct } from '../../core/domain/sct.js';
import type { Ports } from '../../core/ports/index.js';
import { cachedRead } from '../../core/use-cases/cached-read.js';
import type { CuitHealthView } from '../../core/use-cases/cuit-health.js';
import { findVisibleClient } from '../../core/use-cases/find-visible-client.js';
import { getCcmaBalances } from '../../core/use-cases/get-ccma-balances.js';
import { getSct } from '../../core/use-cases/get-sct.js';
import { listCcmaMovements } from '../../core/use-cases/list-ccma-movements.js';
import { listIssuedInvoices, listReceivedInvoices } from '../../core/use-cases/list-invoices.js';
import { listNotifications } from '../../core/use-cases/list-notifications.js';
import { summarizeInvoiceMonths, summarizeInvoicePeriod } from '../../core/use-cases/summarize-invoice-period.js';
import { clientTexts } from './client-texts.js';
import { formatCalendarDay, formatMoment, formatMoney, formatYearMonth, monthName } from './client-format.js';
import type { ChartMonth } from './invoice-chart.js';
import { invoiceChart } from './invoice-chart.js';
import { panelTexts } from './texts.js';

// What each tab of a client's page shows, read through the same use cases as the REST API (so
// the page shows what the user's token sees through /v1), shaped for the templates
// (client-views.ts): every amount and date already in its es-AR words.

const clientTabs = ['comprobantes', 'monotributo', 'iva', 'sct', 'ccma', 'notificaciones', 'estado'] as const;
export type ClientTab = typeof clientTabs[number];

type Deps = Ports;

const internals = {
    c: clientTexts,
    invoicePage: 50,
    periodPage: 6,
    inboxPage: 50,
    tabPaths: { comprobantes: '', monotributo: '/monotributo', iva: '/iva', sct: '/cuenta-tributaria', ccma: '/ccma', notificaciones: '/notificaciones', estado: '/estado' } satisfies Record<ClientTab, string>,

    light: (health: CuitHealthView['estado']): 'ok' | 'waiting' | 'attention' => (health === 'ok' ? 'ok' : needsAttention(health) ? 'attention' : 'waiting'),

    money: (value: number | null): string => (value === null ? '' : formatMoney(value)),

    synced: (syncedAt: string | null): string | null => (syncedAt ? internals.c.syncedAt(formatMoment(syncedAt)) : null),

    // "Página N de M" with links that keep the rest of the query.
    paging(total: number, size: number, page: number, link: (page: number) => string, label: (page: number, pages: number) => string) {

        const pages = Math.max(1, Math.ceil(total / size));
        return pages > 1 ? {
            label: label(page, pages),
            previous: page > 1 ? link(page - 1) : null,
            next: page < pages ? link(page + 1) : null
        } : null;
    },

    // The last 12 months, this one (UTC, the API's default period) last.
    lastMonths(now: Date): DateRange[] {

        return Array.from({ length: 12 }, (_, index) => currentMonthUtc(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11 + index, 1))));
    },

    // A tab's values as read and worded for a client at its data version, kept with it as the
    // use cases keep their answers (cached-read.ts): the page then renders them without
    // formatting hundreds of amounts and dates again. `key` names what else they depend on.
    async kept<T>(deps: Deps, principal: Principal, cuit: Cuit, key: string, read: () => Promise<T>): Promise<T> {

        const client = await findVisibleClient(deps, principal, cuit);
        return cachedRead(deps.readCache, `panel-tab:${client.id}:${key}`, client.dataVersion, read);
    },

    pesos: (summary: { porMoneda: CurrencySummary[] }): number => Math.round(
        summary.porMoneda.reduce((sum, currency) => sum + currency.importe, 0) * 100
    ) / 100,

    number: (invoice: { puntoVenta: string; numeroDesde: string; numeroHasta: string }): string => `${invoice.puntoVenta}-${invoice.numeroDesde}`
        + (invoice.numeroHasta !== invoice.numeroDesde ? ` a ${invoice.numeroHasta}` : ''),

    invoiceRow(invoice: IssuedInvoiceView | ReceivedInvoiceView) {

        const counterpart = 'receptor' in invoice
            ? isFinalConsumer(invoice.receptor)
                ? { name: internals.c.finalConsumer, document: '' }
                : { name: invoice.receptor.nombre ?? '', document: invoice.receptor.numeroDocumento ?? '' }
            : { name: invoice.emisor.nombre, document: invoice.emisor.cuit };
        const foreign = invoice.tipoCambio !== 1 || !['PES', '$', 'ARS'].includes(invoice.monedaOriginal.trim().toUpperCase());
        return {
            fecha: formatCalendarDay(invoice.fecha),
            tipo: invoice.tipo,
            numero: internals.number(invoice),
            counterpart: counterpart.name,
            document: counterpart.document,
            neto: internals.money(invoice.impNetoGravado),
            iva: internals.money(invoice.iva),
            importe: formatMoney(invoice.importe),
            original: foreign ? `${invoice.monedaOriginal} ${formatMoney(invoice.importeOriginal).replace('$ ', '')}` : null
        };
    }
};

export const clientBase = (cuit: Cuit): string => `/panel/clientes/${formatCuit(cuit)}`;

// The page's top: who the client is, its semáforo, and the tabs.
export const clientHeader = (health: CuitHealthView, cuit: Cuit, tab: ClientTab) => {

    const light = internals.light(health.estado);
    const base = clientBase(cuit);
    return {
        title: `${health.nombre} · ${internals.c.tabs[tab]}`,
        client: { name: health.nombre, cuit: health.displayCuit, light, lightLabel: panelTexts.semaphore[light], sentence: health.mensaje, base },
        tabs: clientTabs.map((each) => ({ href: `${base}${internals.tabPaths[each]}`, label: internals.c.tabs[each], current: each === tab }))
    };
};

export interface InvoiceQuery {
    // The period as the invoice use cases take it (they check it): none for their default,
    // the current month.
    period: Record<string, string>;
    issuedPage: number;
    receivedPage: number;
}


// The period, both pages and the chart's last month (the current one) name what it shows.
export const invoicesTab = (deps: Deps, principal: Principal, cuit: Cuit, query: InvoiceQuery) => internals.kept(
    deps, principal, cuit, `comprobantes:${JSON.stringify(query)}:${currentMonthUtc(deps.clock.now()).fromDate}`, () => invoicesTabOf(deps, principal, cuit, query)
);

const invoicesTabOf = async (deps: Deps, principal: Principal, cuit: Cuit, query: InvoiceQuery) => {

    const base = clientBase(cuit);
    const path = { cuit };
    const page = (number: number) => ({ limit: String(internals.invoicePage), offset: String((number - 1) * internals.invoicePage) });
    const periodQuery = query.period;
    const [issued, received, issuedSummary, receivedSummary] = await Promise.all([
        listIssuedInvoices(deps, principal, { path, query: { ...periodQuery, ...page(query.issuedPage) } }),
        listReceivedInvoices(deps, principal, { path, query: { ...periodQuery, ...page(query.receivedPage) } }),
        summarizeInvoicePeriod(deps, principal, 'issued', { path, query: periodQuery }),
        summarizeInvoicePeriod(deps, principal, 'received', { path, query: periodQuery })
    ]);

    const months = internals.lastMonths(deps.clock.now());
    const totals = await summarizeInvoiceMonths(deps, principal, { path, query: {} }, months);
    const chartMonths: ChartMonth[] = months.map((month, index) => ({
        ...month, issued: internals.pesos(totals[index]!.issued), received: internals.pesos(totals[index]!.received)
    }));
    const periodLink = (period: DateRange) => `${base}?${new URLSearchParams({ desde: period.fromDate, hasta: period.toDate }).toString()}`;

    const shown = issued.filters;
    const link = (issuedPage: number, receivedPage: number) => `${base}?${new URLSearchParams({
        desde: shown.fromDate, hasta: shown.toDate, emitidos: String(issuedPage), recibidos: String(receivedPage)
    }).toString()}`;
    const kind = (
        id: string, title: string, counterpartLabel: string, list: typeof issued | typeof received, summary: typeof issuedSummary, pageNumber: number,
        linkTo: (page: number) => string
    ) => {

        const credit = summary.porMoneda.reduce((sum, currency) => sum + currency.notasDeCredito, 0);
        const first = list.pagination.offset + 1;
        return {
            id,
            title,
            counterpartLabel,
            summary: internals.c.summary(summary.cantidad, formatMoney(internals.pesos(summary))),
            creditNotes: credit ? internals.c.creditNotes(credit) : null,
            currencies: summary.porMoneda.filter((currency) => currency.moneda !== 'PES').map(
                (currency) => `${currency.moneda}: ${currency.cantidad} · ${formatMoney(currency.importeOriginal).replace('$ ', '')} (${formatMoney(currency.importe)})`
            ),
            rows: (list.data as (IssuedInvoiceView | ReceivedInvoiceView)[]).map(internals.invoiceRow),
            shown: internals.c.shownOf(Math.min(first, list.pagination.total), list.pagination.offset + list.data.length, list.pagination.total),
            paging: internals.paging(list.pagination.total, internals.invoicePage, pageNumber, linkTo, internals.c.pageOf)
        };
    };

    const download = (extension: string) => `${base}/comprobantes.${extension}?${new URLSearchParams({ desde: shown.fromDate, hasta: shown.toDate }).toString()}`;
    return {
        period: { from: shown.fromDate, to: shown.toDate, label: internals.c.periodOf(formatCalendarDay(shown.fromDate), formatCalendarDay(shown.toDate)) },
        downloads: { csv: download('csv'), xlsx: download('xlsx') },
        chart: invoiceChart(chartMonths, periodLink),
        chartRows: chartMonths.map((month) => ({
            month: monthName(month.fromDate), href: periodLink(month), issued: formatMoney(month.issued), received: formatMoney(month.received)
        })),
        issued: kind('emitidos', internals.c.issued, internals.c.invoiceColumns.receptor, issued, issuedSummary, query.issuedPage, (to) => link(to, query.receivedPage)),
        received: kind('recibidos', internals.c.received, internals.c.invoiceColumns.emisor, received, receivedSummary, query.receivedPage, (to) => link(query.issuedPage, to))
    };
};

// The total to pay is worded as of ARCA's day.
export const sctTab = (deps: Deps, principal: Principal, cuit: Cuit) => internals.kept(
    deps, principal, cuit, `sct:${arcaDay(deps.clock.now().getTime())}`, () => sctTabOf(deps, principal, cuit)
);

const sctTabOf = async (deps: Deps, principal: Principal, cuit: Cuit) => {

    const { data, syncedAt } = await getSct(deps, principal, { path: { cuit }, query: {} });
    const c = internals.c;
    return {
        syncedAt: internals.synced(syncedAt),
        sct: data && {
            total: formatMoney(summarizeSct(data, arcaDay(deps.clock.now().getTime())).totalAdeudado),
            debts: data.deuda.map((debt) => ({
                impuesto: debt.impuesto,
                concepto: debt.concepto,
                periodo: formatYearMonth(debt.periodo),
                vencimiento: debt.vencimiento ? formatCalendarDay(debt.vencimiento) : c.none,
                saldo: formatMoney(debt.saldo),
                intereses: formatMoney(debt.intResarcitorios + debt.intPunitorios),
                total: formatMoney(debt.saldo + debt.intResarcitorios + debt.intPunitorios)
            })),
            dueDates: data.vencimientos.map((due) => ({
                vencimiento: formatCalendarDay(due.vencimiento),
                impuesto: due.impuesto,
                concepto: due.concepto,
                periodo: formatYearMonth(due.periodo),
                detalle: due.detalle
            })),
            returns: data.ddjj.map((item) => ({
                impuesto: item.impuesto,
                concepto: item.concepto,
                periodo: formatYearMonth(item.periodo),
                cuota: item.antCuota,
                vencimiento: formatCalendarDay(item.vencimiento)
            }))
        }
    };
};

export const ccmaTab = async (deps: Deps, principal: Principal, cuit: Cuit, pageNumber: number) => {

    const request = { path: { cuit }, query: { limit: String(internals.periodPage), offset: String((pageNumber - 1) * internals.periodPage) } };
    const [balances, movements] = await Promise.all([
        getCcmaBalances(deps, principal, { path: { cuit }, query: {} }),
        listCcmaMovements(deps, principal, request)
    ]);
    // A null balance is one ARCA did not report: never shown as $ 0,00.
    const balance = (value: number | null): string => (value === null ? internals.c.notReported : formatMoney(value));
    const periods = new Map<string, ReturnType<typeof ccmaRow>[]>();
    const ccmaRow = (movement: (typeof movements.data)[number]) => ({
        fecha: formatCalendarDay(movement.fechaMovimiento),
        impuesto: movement.impuesto,
        concepto: movement.concepto,
        descripcion: movement.descripcion,
        debe: internals.money(movement.debe),
        haber: internals.money(movement.haber),
        saldo: formatMoney(movement.saldo)
    });
    for (const movement of movements.data) {
        periods.set(movement.periodo, [...periods.get(movement.periodo) ?? [], ccmaRow(movement)]);
    }

    return {
        syncedAt: internals.synced(balances.syncedAt),
        balances: balances.data && { debtor: balance(balances.data.saldoDeudor), creditor: balance(balances.data.saldoAcreedor) },
        periods: [...periods].map(([period, rows]) => ({ heading: internals.c.periodHeading(period), rows })),
        paging: internals.paging(movements.pagination.total, internals.periodPage, pageNumber, (to) => `${clientBase(cuit)}/ccma?pagina=${to}`, internals.c.periodsOf)
    };
};

export const notificationPath = (cuit: Cuit, arcaId: string): string => `${clientBase(cuit)}/notificaciones/${encodeURIComponent(arcaId)}`;

export const notificationsTab = async (deps: Deps, principal: Principal, cuit: Cuit, pageNumber: number) => {

    const list = await listNotifications(deps, principal, {
        path: { cuit }, query: { limit: String(internals.inboxPage), offset: String((pageNumber - 1) * internals.inboxPage) }
    });
    return {
        syncedAt: internals.synced(list.syncedAt),
        counts: internals.c.inboxCounts(list.pagination.total),
        rows: list.data.map((notification) => ({
            unread: notification.leidaAt === null,
            state: notification.leidaAt === null ? internals.c.unread : internals.c.read,
            asunto: notification.asunto,
            organismo: notification.organismo ?? '',
            recepcion: formatMoment(notification.fechaRecepcion),
            // One without the authority's id cannot be named in an address (none comes so from ARCA).
            href: notification.arcaId === null ? null : notificationPath(cuit, notification.arcaId),
            action: notification.arcaId === null ? null : `${notificationPath(cuit, notification.arcaId)}/${notification.leidaAt === null ? 'leida' : 'no-leida'}`,
            actionText: notification.leidaAt === null ? internals.c.markReadShort : internals.c.markUnreadShort,
            actionLabel: internals.c.markAs(notification.leidaAt === null ? internals.c.markRead : internals.c.markUnread, notification.asunto)
        })),
        // Where a row's form sends the browser back: this page of the inbox.
        inboxPage: String(pageNumber),
        paging: internals.paging(list.pagination.total, internals.inboxPage, pageNumber, (to) => `${clientBase(cuit)}/notificaciones?pagina=${to}`, internals.c.pageOf)
    };
};

export const notificationView = (cuit: Cuit, notification: Notification) => {

    const path = notificationPath(cuit, notification.arcaId ?? '');
    const unread = notification.leidaAt === null;
    return {
        asunto: notification.asunto,
        tipo: notification.tipo ?? internals.c.none,
        organismo: notification.organismo ?? internals.c.none,
        recepcion: formatMoment(notification.fechaRecepcion),
        notificacion: notification.fechaNotificacion ? formatMoment(notification.fechaNotificacion) : internals.c.none,
        leida: notification.leidaAt ? formatMoment(notification.leidaAt) : internals.c.notRead,
        id: notification.arcaId ?? internals.c.none,
        unread,
        action: `${path}/${unread ? 'leida' : 'no-leida'}`,
        inbox: `${clientBase(cuit)}/notificaciones`
    };
};

export const healthTab = (health: CuitHealthView) => {

    const c = internals.c;
    const when = (iso: string | null): string => (iso ? formatMoment(iso) : c.none);
    return {
        health: {
            state: c.stateOf(health.estado),
            since: when(health.desde),
            advice: health.accion ? `${health.mensaje} ${health.accion}` : health.mensaje,
            key: {
                state: c.stateOf(health.clave.estado),
                since: health.clave.desde ? formatMoment(health.clave.desde) : null,
                advice: health.clave.accion ? `${health.clave.mensaje} ${health.clave.accion}` : health.clave.mensaje,
                cuit: health.clave.cuit ? c.keyOf(formatCuit(health.clave.cuit)) : null
            },
            systems: health.sistemas.map((system) => ({
                name: c.systems[system.sistema] ?? system.sistema,
                state: c.stateOf(system.estado),
                light: internals.light(system.estado),
                since: when(system.desde),
                synced: system.syncedAt ? formatMoment(system.syncedAt) : panelTexts.never,
                message: system.mensaje,
                advice: system.accion
            }))
        }
    };
};
