import type { ServerRoute } from '@hapi/hapi';

// SPEC §4.1: unauthenticated, free, plain text.
export const healthRoutes: ServerRoute[] = [{
    method: 'GET',
    path: '/healthcheck',
    options: { auth: false },
    handler: (_request, h) => h.response('OK').type('text/plain')
}];
