import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { cuitHealthParameters, getCuitHealth, listPortfolioHealth, portfolioHealthParameters } from '../../../core/use-cases/cuit-health.js';
import { principalOf, readRequestOf } from '../auth.js';
import { answerUseCase } from '../errors.js';

// An addition to the first contract: each CUIT's synchronization health, one at a time and for the
// portfolio (core/use-cases/cuit-health.ts). Read-only; nothing here schedules or forces a sync.
export const cuitHealthRoutes = (deps: Ports): ServerRoute[] => [
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/estado',
        options: { app: { parameters: cuitHealthParameters } },
        handler: answerUseCase(async (request) => getCuitHealth(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/estados',
        options: { app: { parameters: portfolioHealthParameters } },
        handler: answerUseCase(async (request) => listPortfolioHealth(deps, principalOf(request), readRequestOf(request)))
    }
];
