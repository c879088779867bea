import type { ServerRoute } from '@hapi/hapi';
import { messages } from '../../../core/domain/messages.js';
import type { Ports } from '../../../core/ports/index.js';

// docs/api.md, Endpoints: unauthenticated, free, plain text. "OK" only when the database answers: a
// balancer takes a process whose database is away out of rotation, and brings it back when
// it answers again. It answers within a second whatever the database does.
const internals = {
    timeoutMs: 1000
};

export const healthRoutes = (deps: Pick<Ports, 'database'>): ServerRoute[] => [{
    method: 'GET',
    path: '/healthcheck',
    options: { auth: false },
    async handler(_request, h) {

        try {
            await deps.database.ping(internals.timeoutMs);
        }
        catch (err) {
            const failure = deps.database.failureOf(err) ?? { retryAfter: 5 };
            return h.response(messages.unavailable).type('text/plain').code(503).header('Retry-After', String(failure.retryAfter));
        }

        return h.response('OK').type('text/plain');
    }
}];
