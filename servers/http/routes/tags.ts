import type { ServerRoute } from '@hapi/hapi';
import type { Ports } from '../../../core/ports/index.js';
import { listTags } from '../../../core/use-cases/list-tags.js';
import { principalOf } from '../auth.js';
import { handled } from '../errors.js';
import { pageQuery, validateRoute } from '../validation.js';

// SPEC §4.12
export const tagRoutes = (deps: Ports): ServerRoute[] => [{
    method: 'GET',
    path: '/v1/tags',
    options: { validate: validateRoute(pageQuery) },
    handler: handled(async (request) => listTags(deps, principalOf(request), request.query))
}];
