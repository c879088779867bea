import { randomUUID } from 'node:crypto';
import type { Boom } from '@hapi/boom';
import type { Request, ResponseObject, Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import { clientAddress } from './client-address.js';

// One JSON line per request, tagged with a request id: the caller's X-Request-Id when it is a
// sane token, a new UUID otherwise; returned in the response either way so a support request
// can be matched to the log. The line says what an operator asks first: who (user and account,
// never a credential), what (method, path, query, the MCP tool), and what came of it (status,
// time, which limit refused it). What failed inside a request is logged by errors.ts, once.
// Every request has its line, the OAuth endpoints answered on the raw response included.

declare module '@hapi/hapi' {
    interface RequestApplicationState {
        // Who is asking, once the token is known (also when a limit then refuses the request),
        // and the tool an MCP call ran.
        caller?: { userId: number; accountId: number; tool?: string };
    }
}

// hapi's answer: its status and headers.
interface Answer {
    statusCode: number;
    headers: Record<string, unknown>;
}

const internals = {
    requestIdPattern: /^[A-Za-z0-9._:-]{1,128}$/,
    // A query is logged as sent, cut short: it carries filters and pages, not credentials
    // (and the logger blanks anything shaped like a token anyway).
    maxQuery: 256,

    // hapi's answer as an object; null when the route answered on the raw response itself
    // (h.abandon: the OAuth endpoints, which oidc-provider answers).
    answer(request: Request): Answer | null {

        const response = request.response as unknown;
        if (response === null || typeof response !== 'object') {
            return null;
        }

        const answer = response as Partial<ResponseObject> & { isBoom?: boolean; output?: { statusCode: number; headers: Record<string, unknown> } };
        return answer.isBoom ? answer.output! : { statusCode: answer.statusCode ?? 200, headers: answer.headers ?? {} };
    },

    header(headers: Record<string, unknown>, name: string): string | undefined {

        const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
        return key === undefined ? undefined : String(headers[key]);
    },

    // A failure of the service is an error; 503 says the database (or a dependency) is away
    // for now and recovers by itself: a warning, so that an outage is not one page per request.
    level(request: Request, statusCode: number): 'error' | 'warn' | 'info' | 'debug' {

        if (statusCode >= 500) {
            return statusCode === 503 ? 'warn' : 'error';
        }

        // Health probes come every few seconds from balancers and monitors: seen at debug.
        return request.path === '/healthcheck' ? 'debug' : 'info';
    },

    // What hapi's URL says after '?', as the request line carried it. hapi splits the path and
    // query itself and builds a WHATWG URL only when asked (request.url): ~10 µs a request.
    // Such a URL percent-encodes a few characters of the query (space, quotes, <, >, non-ASCII):
    // a query holding one is read through it, so the line says the same either way.
    plainQuery: /^[!$-&(-;=?-~]*$/,

    query(request: Request): string {

        const target = request.raw.req.url ?? '';
        const start = target.indexOf('?');
        if (start === -1) {
            return '';
        }

        const end = target.indexOf('#', start);
        const query = target.slice(start + 1, end === -1 ? undefined : end);
        return internals.plainQuery.test(query) ? query : (request.url?.search ?? '').slice(1);
    },

    line(request: Request, trustProxy: number, answer: Answer | null, statusCode: number): Record<string, unknown> {

        const headers = answer?.headers ?? request.raw.res.getHeaders();
        const user = request.app.caller;
        const query = internals.query(request).slice(0, internals.maxQuery);
        const limit = statusCode === 429 ? internals.header(headers, 'X-RateLimit-Limit') : undefined;
        return {
            requestId: request.info.id,
            // A route whose address carries a secret (the calendar feed) is logged by its pattern.
            req: { method: request.method.toUpperCase(), path: request.route.settings.app?.secretPath ? request.route.path : request.path },
            // The client's address, through TRUST_PROXY reverse proxies: the one the throttles count.
            client: clientAddress(request, trustProxy),
            ...(query ? { query } : {}),
            res: { statusCode },
            responseTime: (request.info.completed || request.info.responded || Date.now()) - request.info.received,
            ...(user ? { userId: user.userId, accountId: user.accountId } : {}),
            ...(user?.tool ? { tool: user.tool } : {}),
            ...(limit ? { rateLimited: { limit: Number(limit), retryAfter: Number(internals.header(headers, 'Retry-After')) } } : {})
        };
    }
};

export const registerLogging = (server: Server, logger: Logger, trustProxy = 0): void => {

    server.ext('onRequest', (request, h) => {

        const given = request.headers['x-request-id'];
        const id = typeof given === 'string' && internals.requestIdPattern.test(given) ? given : randomUUID();
        (request.info as { id: string }).id = id;
        return h.continue;
    });

    server.events.on('response', (request) => {

        // The line is built only when its level is written (LOG_LEVEL=warn: the errors' alone).
        const answer = internals.answer(request);
        const statusCode = answer?.statusCode ?? request.raw.res.statusCode;
        const level = internals.level(request, statusCode);
        if (!logger.isLevelEnabled(level)) {
            return;
        }

        const line = internals.line(request, trustProxy, answer, statusCode);
        const { req } = line as { req: { method: string; path: string } };
        logger[level](line, `${req.method} ${req.path} ${statusCode} (${String(line.responseTime)}ms)`);
    });

    server.ext('onPreResponse', (request, h) => {

        const response = request.response as unknown as ResponseObject | Boom | symbol | null;
        if (response === null || typeof response !== 'object') {
            if (!request.raw.res.headersSent) {
                request.raw.res.setHeader('X-Request-Id', request.info.id);
            }
        }
        else if ('isBoom' in response && response.isBoom) {
            response.output.headers['X-Request-Id'] = request.info.id;
        }
        else {
            (response as ResponseObject).header('X-Request-Id', request.info.id);
        }

        return h.continue;
    });
};
