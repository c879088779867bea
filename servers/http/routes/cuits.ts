import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { categories } from '../../../core/domain/client.js';
import type { Ports } from '../../../core/ports/index.js';
import { listCuits } from '../../../core/use-cases/list-cuits.js';
import { principalOf } from '../auth.js';
import { handled } from '../errors.js';
import { pageQuery, validateRoute } from '../validation.js';

export const cuitRoutes = (deps: Ports): ServerRoute[] => [{
    method: 'GET',
    path: '/v1/cuits',
    options: {
        validate: validateRoute({
            ...pageQuery,
            // Repeated parameter (form, exploded); a single value arrives as a string.
            etiquetas: Joi.array().items(Joi.string().min(1).max(100)).single(),
            monotributista: Joi.boolean(),
            autonomo: Joi.boolean(),
            categoria: Joi.string().valid(...categories)
        })
    },
    handler: handled(async (request) => listCuits(deps, principalOf(request), request.query))
}];
