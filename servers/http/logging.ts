import { randomUUID } from 'node:crypto';
import type { ResponseObject, Server } from '@hapi/hapi';
import hapiPino from 'hapi-pino';
import type { Logger } from 'pino';

// One JSON line per request (hapi-pino) tagged with a request id: the caller's X-Request-Id
// when it is a sane token, a new UUID otherwise; returned in the response either way so a
// support request can be matched to the log.

const internals = {
    requestIdPattern: /^[A-Za-z0-9._:-]{1,128}$/
};

export const registerLogging = async (server: Server, logger: Logger): Promise<void> => {

    server.ext('onRequest', (request, h) => {

        const given = request.headers['x-request-id'];
        const id = typeof given === 'string' && internals.requestIdPattern.test(given) ? given : randomUUID();
        (request.info as { id: string }).id = id;
        return h.continue;
    });

    await server.register({
        plugin: hapiPino,
        options: {
            instance: logger,
            logEvents: ['response', 'request-error'],
            ignorePaths: ['/healthcheck'],
            // Query strings of this API carry no secrets, but bodies may (clave_arca): never log them.
            logPayload: false,
            getChildBindings: (request) => ({ requestId: request.info.id }),
            // Only what an operator needs; no headers, so no credential can ride along.
            // (unwrapped: pino's full standard serialization is not computed first).
            wrapSerializers: false,
            serializers: {
                req: (request: { method?: string; path?: string }) => ({ method: request.method, path: request.path }),
                res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode })
            }
        }
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
