import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { getCcmaBalances } from '../../../core/use-cases/get-ccma-balances.js';
import { getSct } from '../../../core/use-cases/get-sct.js';
import { listCcmaMovements } from '../../../core/use-cases/list-ccma-movements.js';
import { listNotifications } from '../../../core/use-cases/list-notifications.js';
import { cuitParam, principalOf } from '../auth.js';
import { handled } from '../errors.js';
import { pageQuery, validateRoute } from '../validation.js';

// SPEC §4.8 to §4.11: the tax current account, the monotributo/autónomos account and the
// electronic-address notifications of one CUIT.
export const accountDataRoutes = (deps: Ports): ServerRoute[] => [
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/sct',
        options: { validate: validateRoute({}, { cuit: true }) },
        handler: handled(async (request) => getSct(deps, principalOf(request), { cuit: cuitParam(request) }))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/ccma',
        options: { validate: validateRoute({}, { cuit: true }) },
        handler: handled(async (request) => getCcmaBalances(deps, principalOf(request), { cuit: cuitParam(request) }))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/ccma/movimientos',
        options: { validate: validateRoute(pageQuery, { cuit: true }) },
        handler: handled(async (request) => listCcmaMovements(deps, principalOf(request), { cuit: cuitParam(request), ...request.query }))
    },
    {
        method: 'GET',
        path: '/v1/cuits/{cuit}/dfe',
        options: { validate: validateRoute(pageQuery, { cuit: true }) },
        handler: handled(async (request) => listNotifications(deps, principalOf(request), { cuit: cuitParam(request), ...request.query }))
    }
];
