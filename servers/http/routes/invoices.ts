import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { listInvoicesParameters, listIssuedInvoices, listReceivedInvoices } from '../../../core/use-cases/list-invoices.js';
import { principalOf, readRequestOf } from '../auth.js';
import { answerUseCase } from '../errors.js';

// docs/api.md, Reads
export const invoiceRoutes = (deps: Ports): ServerRoute[] => [
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/mis-comprobantes/emitidos',
        options: { app: { parameters: listInvoicesParameters } },
        handler: answerUseCase(async (request) => listIssuedInvoices(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/mis-comprobantes/recibidos',
        options: { app: { parameters: listInvoicesParameters } },
        handler: answerUseCase(async (request) => listReceivedInvoices(deps, principalOf(request), readRequestOf(request)))
    }
];
