import Boom from '@hapi/boom';
import type { Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';
import type { DomainErrorKind } from '../../core/domain/errors.js';
import { DomainError, isDomainError } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import type { DatabaseStatus } from '../../core/ports/index.js';
import { exceededHeaders } from './rate-limit-headers.js';
import { httpMessages } from './messages.js';

// Every error leaves as `{ "error": "<Spanish message>" }` (docs/api.md, Errors): the core's errors with
// their own message and status, hapi's own (unknown route, bad URL, body too large)
// translated, anything unexpected as a 500 whose details go to the log, never to the client.

const internals = {
    statusOf: {
        invalid: 400,
        unauthenticated: 401,
        forbidden: 403,
        not_found: 404,
        conflict: 409,
        unsupported_media_type: 415,
        rate_limited: 429,
        unavailable: 503
    } satisfies Record<DomainErrorKind, number>,

    unavailableRetryAfter: 300,

    // hapi's own refusals (no route parses JSON through hapi: a 400 of hapi's is about the
    // request itself, such as its URL or cookies); any other 4xx is an invalid request.
    hapiMessages: {
        404: httpMessages.routeNotFound,
        405: httpMessages.methodNotAllowed,
        408: httpMessages.requestTimeout,
        413: httpMessages.payloadTooLarge,
        415: httpMessages.unsupportedMediaType
    } as Record<number, string>,

    // Answers kept by the read cache (core/ports/read-cache.ts) are frozen and shared between
    // requests, so each is turned into JSON, and the JSON into bytes, once.
    serialized: new WeakMap<object, Buffer>(),

    reply<T>(h: ResponseToolkit, value: T): T | ResponseObject {

        if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) {
            return value;
        }

        let json = internals.serialized.get(value);
        if (json === undefined) {
            json = Buffer.from(JSON.stringify(value));
            internals.serialized.set(value, json);
        }

        return h.response(json).type('application/json; charset=utf-8');
    }
};

export const toBoom = (err: unknown): Boom.Boom => {

    if (isDomainError(err)) {
        return new Boom.Boom(err.message, { statusCode: internals.statusOf[err.kind], data: err });
    }

    return Boom.boomify(err instanceof Error ? err : new Error(String(err)));
};

// Handlers run use cases; their domain errors become responses, anything else a 500.
export const answerUseCase = <T>(
    fn: (request: Request, h: ResponseToolkit) => Promise<T>
) => async (request: Request, h: ResponseToolkit): Promise<T | ResponseObject> => {

    try {
        return internals.reply(h, await fn(request, h));
    }
    catch (err) {
        throw toBoom(err);
    }
};

// The answer to a request the database could not serve for now (an outage, a lock held by
// another process): 503 with Retry-After, on every route, instead of an internal error.
const unavailableAnswer = (h: ResponseToolkit, retryAfter: number): ResponseObject => {

    return h.response({ error: messages.unavailable }).code(503).header('Retry-After', String(retryAfter));
};

export const registerErrorResponses = (server: Server, log: (event: Record<string, unknown>) => void, deps: { database: DatabaseStatus }): void => {

    server.ext('onPreResponse', (request, h) => {

        const response = request.response;
        if (response === null || typeof response !== 'object' || !('isBoom' in response) || !response.isBoom) {
            return h.continue;
        }

        // An unavailable service thrown as is by a handler that answers pages (the panel's,
        // which rethrow what they do not show themselves) is still a 503, not an internal error.
        const unavailable = response instanceof DomainError && response.kind === 'unavailable' ? response : null;
        const status = unavailable ? internals.statusOf.unavailable : response.output.statusCode;
        const domain = response.data instanceof DomainError ? response.data : unavailable;
        const failure = !domain && status >= 500 ? deps.database.failureOf(response) : null;
        if (failure) {
            log({
                level: 'warn',
                msg: 'base de datos no disponible',
                requestId: request.info.id,
                failure: failure.kind,
                code: (response as { code?: unknown }).code,
                err: response.message
            });
            return unavailableAnswer(h, failure.retryAfter);
        }

        let message: string;
        if (domain) {
            message = domain.message;
            if (domain.operatorNote) {
                log({ level: 'error', msg: 'servicio no disponible', requestId: request.info.id, method: request.method, path: request.path, note: domain.operatorNote });
            }
        }
        else if (status >= 500) {
            log({
                level: 'error',
                msg: 'request failed',
                requestId: request.info.id,
                method: request.method,
                path: request.path,
                err: response.stack ?? response.message
            });
            message = messages.internal;
        }
        else {
            message = internals.hapiMessages[status] ?? messages.invalidRequest;
        }

        const reply = h.response({ error: message }).code(status);
        if (status === 401) {
            reply.header('WWW-Authenticate', 'Bearer');
        }

        const allow = response.output.headers.Allow;
        if (status === 405 && allow) {
            reply.header('Allow', String(allow));
        }

        // Only the operator can make it available again: a client comes back in a few minutes.
        if (domain?.kind === 'unavailable') {
            reply.header('Retry-After', String(internals.unavailableRetryAfter));
        }

        if (domain?.rateLimit) {
            for (const [name, value] of Object.entries(exceededHeaders(domain.rateLimit))) {
                reply.header(name, value);
            }
        }

        return reply;
    });
};
