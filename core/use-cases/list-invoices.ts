import type { Principal } from '../domain/access.js';
import type { InvoiceKind, InvoiceRecord, IssuedInvoiceView, ReceivedInvoiceView } from '../domain/invoice.js';
import type { Pagination } from '../domain/pagination.js';
import type { DateRange } from '../domain/period.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import { resolveDateRange } from '../domain/period.js';
import type { SyncSystem } from '../domain/sync-system.js';
import { dateToIso, toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';
import { cachedRead } from './cached-read.js';

export interface ListInvoicesResult<T> {
    data: T[];
    pagination: Pagination;
    filters: DateRange;
    syncedAt: string | null;
}

// docs/api.md, Reads: what both invoice lists take.
export const listInvoicesParameters = ['cuit', 'limit', 'offset', 'from_date', 'to_date'] as const;

type Deps = Pick<Ports, 'clients' | 'invoices' | 'syncStates' | 'clock' | 'readCache'>;

const internals = {
    systems: { issued: 'issued_invoices', received: 'received_invoices' } satisfies Record<InvoiceKind, SyncSystem>,

    common(invoice: InvoiceRecord) {

        return {
            fecha: dateToIso(invoice.fecha),
            puntoVenta: invoice.puntoVenta,
            numeroDesde: invoice.numeroDesde,
            numeroHasta: invoice.numeroHasta,
            tipo: invoice.tipo,
            impNetoGravado: invoice.impNetoGravado,
            impNetoNoGravado: invoice.impNetoNoGravado,
            impOpExentas: invoice.impOpExentas,
            otrosTributos: invoice.otrosTributos,
            iva: invoice.iva,
            tipoCambio: invoice.tipoCambio,
            importeOriginal: invoice.importeOriginal,
            monedaOriginal: invoice.monedaOriginal,
            importe: invoice.importe
        };
    },

    issued(invoice: InvoiceRecord): IssuedInvoiceView {

        // Object.assign, not a spread: see toClientListItem.
        return Object.assign(internals.common(invoice), {
            receptor: {
                tipoDocumento: invoice.counterpart.tipoDocumento,
                numeroDocumento: invoice.counterpart.numeroDocumento,
                nombre: invoice.counterpart.nombre
            }
        });
    },

    received(invoice: InvoiceRecord): ReceivedInvoiceView {

        return Object.assign(internals.common(invoice), {
            emisor: { nombre: invoice.counterpart.nombre ?? '', cuit: invoice.counterpart.numeroDocumento ?? '' }
        });
    },

    async list<T>(
        deps: Deps,
        principal: Principal,
        kind: InvoiceKind,
        request: ReadRequest,
        view: (invoice: InvoiceRecord) => T
    ): Promise<ListInvoicesResult<T>> {

        const input = parseReadRequest(request, listInvoicesParameters);
        const page = { limit: input.limit, offset: input.offset };
        const range = resolveDateRange(input, deps.clock.now());
        const client = await findVisibleClient(deps, principal, input.cuit);
        const key = `invoices:${client.id}:${kind}:${range.fromDate}:${range.toDate}:${page.limit}:${page.offset}`;
        return cachedRead(deps.readCache, key, client.dataVersion, async () => {

            const [result, syncedAt] = await Promise.all([
                deps.invoices.list(client.id, kind, range, page),
                clientSyncedAt(deps, client, internals.systems[kind])
            ]);

            return { data: result.items.map(view), pagination: { ...page, total: result.total }, filters: range, syncedAt: toIso(syncedAt) };
        });
    }
};

// docs/api.md, Reads: issued invoices of the period, by fecha; the current UTC month by default.
export const listIssuedInvoices = (
    deps: Deps,
    principal: Principal,
    request: ReadRequest
): Promise<ListInvoicesResult<IssuedInvoiceView>> => internals.list(deps, principal, 'issued', request, internals.issued);

// docs/api.md, Reads: same rules, with the issuer instead of the receiver.
export const listReceivedInvoices = (
    deps: Deps,
    principal: Principal,
    request: ReadRequest
): Promise<ListInvoicesResult<ReceivedInvoiceView>> => internals.list(
    deps,
    principal,
    'received',
    request,
    internals.received
);
