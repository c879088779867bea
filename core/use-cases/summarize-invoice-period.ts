import type { Principal } from '../domain/access.js';
import type { CurrencySummary, InvoiceKind } from '../domain/invoice.js';
import { totalsByCurrency } from '../domain/invoice.js';
import type { DateRange } from '../domain/period.js';
import { resolveDateRange } from '../domain/period.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import { findVisibleClient } from './find-visible-client.js';
import { listInvoicesParameters } from './list-invoices.js';

export interface InvoicePeriodSummary {
    periodo: DateRange;
    cantidad: number;
    porMoneda: CurrencySummary[];
}

// The whole period of an invoice list added up (every page, not one), with the same
// parameters and rules as the list itself (docs/api.md, Reads): an assistant answers "¿cuánto facturó
// en octubre?" without paging through hundreds of invoices.
export const summarizeInvoicePeriod = async (
    deps: Pick<Ports, 'clients' | 'invoices' | 'clock' | 'readCache'>,
    principal: Principal,
    kind: InvoiceKind,
    request: ReadRequest
): Promise<InvoicePeriodSummary> => {

    const input = parseReadRequest(request, listInvoicesParameters);
    const periodo = resolveDateRange(input, deps.clock.now());
    const client = await findVisibleClient(deps, principal, input.cuit);
    return cachedRead(deps.readCache, `invoice-summary:${client.id}:${kind}:${periodo.fromDate}:${periodo.toDate}`, client.dataVersion, async () => {

        const porMoneda = totalsByCurrency(await deps.invoices.totals(client.id, kind, periodo));
        return { periodo, cantidad: porMoneda.reduce((sum, currency) => sum + currency.cantidad, 0), porMoneda };
    });
};

// Several months of both kinds added up, as summarizeInvoicePeriod adds each (the panel's
// 12-month chart): one visibility check and one cached answer for them all, where a summary a
// month and kind costs its own check and lookup (docs/panel.md, Benchmark).
export const summarizeInvoiceMonths = async (
    deps: Pick<Ports, 'clients' | 'invoices' | 'clock' | 'readCache'>,
    principal: Principal,
    request: ReadRequest,
    months: readonly DateRange[]
): Promise<{ issued: InvoicePeriodSummary; received: InvoicePeriodSummary }[]> => {

    const { cuit } = parseReadRequest(request, ['cuit'] as const);
    const client = await findVisibleClient(deps, principal, cuit);
    const key = `invoice-months:${client.id}:${months.map((month) => `${month.fromDate}:${month.toDate}`).join(',')}`;
    return cachedRead(deps.readCache, key, client.dataVersion, () => Promise.all(months.map(async (periodo) => {

        const [issued, received] = await Promise.all((['issued', 'received'] as const).map(async (kind) => {

            const porMoneda = totalsByCurrency(await deps.invoices.totals(client.id, kind, periodo));
            return { periodo, cantidad: porMoneda.reduce((sum, currency) => sum + currency.cantidad, 0), porMoneda };
        }));
        return { issued: issued!, received: received! };
    })));
};
