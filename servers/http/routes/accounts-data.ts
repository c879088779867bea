import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { getCcmaBalances, getCcmaBalancesParameters } from '../../../core/use-cases/get-ccma-balances.js';
import { getSct, getSctParameters } from '../../../core/use-cases/get-sct.js';
import { listCcmaMovements, listCcmaMovementsParameters } from '../../../core/use-cases/list-ccma-movements.js';
import { listNotifications, listNotificationsParameters } from '../../../core/use-cases/list-notifications.js';
import { principalOf, readRequestOf } from '../auth.js';
import { answerUseCase } from '../errors.js';

// docs/api.md, Reads: the tax current account, the monotributo/autónomos account and the
// electronic-address notifications of one CUIT.
export const accountDataRoutes = (deps: Ports): ServerRoute[] => [
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/sct',
        options: { app: { parameters: getSctParameters } },
        handler: answerUseCase(async (request) => getSct(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/ccma',
        options: { app: { parameters: getCcmaBalancesParameters } },
        handler: answerUseCase(async (request) => getCcmaBalances(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/ccma/movimientos',
        options: { app: { parameters: listCcmaMovementsParameters, pagesCount: 'periods' } },
        handler: answerUseCase(async (request) => listCcmaMovements(deps, principalOf(request), readRequestOf(request)))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/dfe',
        options: { app: { parameters: listNotificationsParameters } },
        handler: answerUseCase(async (request) => listNotifications(deps, principalOf(request), readRequestOf(request)))
    }
];
