import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { listTags, listTagsParameters } from '../../../core/use-cases/list-tags.js';
import { principalOf, readRequestOf } from '../auth.js';
import { answerUseCase } from '../errors.js';

// docs/api.md, Reads
export const tagRoutes = (deps: Ports): ServerRoute[] => [{
    method: 'GET',
    path: '/v1/tags',
    options: { app: { parameters: listTagsParameters } },
    handler: answerUseCase(async (request) => listTags(deps, principalOf(request), readRequestOf(request)))
}];
