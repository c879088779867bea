import { randomUUID } from 'node:crypto';
import type { Request, ResponseObject, Server } from '@hapi/hapi';
import type { Logger } from 'pino';

// One JSON line per request, tagged with a request id: the caller's X-Request-Id when it is a
// sane token, a new UUID otherwise; returned in the response either way so a support request
// can be matched to the log. The line says what an operator asks first: who (user and account,
// never a credential), what (method, path, query, the MCP tool), and what came of it (status,
// time, which limit refused it). What failed inside a request is logged by errors.ts, once.

declare module '@hapi/hapi' {
    interface RequestApplicationState {
        // Who is asking, once the token is known (also when a limit then refuses the request),
        // and the tool an MCP call ran.
        caller?: { userId: number; accountId: number; tool?: string };
    }
}

const internals = {
    requestIdPattern: /^[A-Za-z0-9._:-]{1,128}$/,
    // A query is logged as sent, cut short: it carries filters and pages, not credentials
    // (and the logger blanks anything shaped like a token anyway).
    maxQuery: 256,

    header(response: Request['response'], name: string): string | undefined {

        const headers = 'isBoom' in response && response.isBoom ? response.output.headers : (response as ResponseObject).headers;
        const key = Object.keys(headers ?? {}).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
        return key === undefined ? undefined : String(headers[key]);
    },

    line(request: Request): Record<string, unknown> {

        const response = request.response;
        const statusCode = 'isBoom' in response && response.isBoom ? response.output.statusCode : (response as ResponseObject).statusCode;
        const user = request.app.caller;
        const query = request.url.search.slice(1, internals.maxQuery + 1);
        const limit = statusCode === 429 ? internals.header(response, 'X-RateLimit-Limit') : undefined;
        return {
            requestId: request.info.id,
            req: { method: request.method.toUpperCase(), path: request.path },
            ...(query ? { query } : {}),
            res: { statusCode },
            responseTime: (request.info.completed || request.info.responded || Date.now()) - request.info.received,
            ...(user ? { userId: user.userId, accountId: user.accountId } : {}),
            ...(user?.tool ? { tool: user.tool } : {}),
            ...(limit ? { rateLimited: { limit: Number(limit), retryAfter: Number(internals.header(response, 'Retry-After')) } } : {})
        };
    }
};

export const registerLogging = (server: Server, logger: Logger): void => {

    server.ext('onRequest', (request, h) => {

        const given = request.headers['x-request-id'];
        const id = typeof given === 'string' && internals.requestIdPattern.test(given) ? given : randomUUID();
        (request.info as { id: string }).id = id;
        return h.continue;
    });

    server.events.on('response', (request) => {

        if (request.path === '/healthcheck') {
            return;
        }

        const line = internals.line(request);
        const { req, res } = line as { req: { method: string; path: string }; res: { statusCode: number } };
        const level = res.statusCode >= 500 ? 'error' : 'info';
        logger[level](line, `${req.method} ${req.path} ${res.statusCode} (${String(line.responseTime)}ms)`);
    });

    server.ext('onPreResponse', (request, h) => {

        const response = request.response;
        if ('isBoom' in response && response.isBoom) {
            response.output.headers['X-Request-Id'] = request.info.id;
        }
        else {
            (response as ResponseObject).header('X-Request-Id', request.info.id);
        }

        return h.continue;
    });
};
