import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { listIssuedInvoices, listReceivedInvoices } from '../../../core/use-cases/list-invoices.js';
import { cuitParam, principalOf } from '../auth.js';
import { handled } from '../errors.js';
import { dateParam, pageQuery, validateRoute } from '../validation.js';

const internals = {
    validate: validateRoute({ ...pageQuery, from_date: dateParam, to_date: dateParam }, { cuit: true, and: ['from_date', 'to_date'] }),

    input: (request: { params: Record<string, unknown>; query: Record<string, unknown> }) => ({
        cuit: cuitParam(request),
        limit: request.query.limit as number | undefined,
        offset: request.query.offset as number | undefined,
        fromDate: request.query.from_date as string | undefined,
        toDate: request.query.to_date as string | undefined
    })
};

// SPEC §4.6 and §4.7
export const invoiceRoutes = (deps: Ports): ServerRoute[] => [
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/mis-comprobantes/emitidos',
        options: { validate: internals.validate },
        handler: handled(async (request) => listIssuedInvoices(deps, principalOf(request), internals.input(request)))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/mis-comprobantes/recibidos',
        options: { validate: internals.validate },
        handler: handled(async (request) => listReceivedInvoices(deps, principalOf(request), internals.input(request)))
    }
];
