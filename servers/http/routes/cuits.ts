import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { listCuits, listCuitsParameters } from '../../../core/use-cases/list-cuits.js';
import { principalOf, readRequestOf } from '../auth.js';
import { answerUseCase } from '../errors.js';

// docs/api.md, Reads; the core parses the query (core/contract/read-parameters.ts).
export const cuitRoutes = (deps: Ports): ServerRoute[] => [{
    method: 'GET',
    path: '/v1/cuits',
    options: { app: { parameters: listCuitsParameters } },
    handler: answerUseCase(async (request) => listCuits(deps, principalOf(request), readRequestOf(request)))
}];
