import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Boom from '@hapi/boom';
import type { HTTP_METHODS, RequestRoute, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import type { Logger } from 'pino';
import { messages } from '../../core/domain/messages.js';
import { httpMessages } from './messages.js';

// What Node's HTTP layer and hapi would answer on their own, below the routes: requests the
// parser cannot read, an `Expect` it cannot meet, CONNECT, CORS preflights. Each gets
// `{"error": "<Spanish>"}` (docs/api.md, Errors). hapi's own handling of parser errors replies a second
// time to a request already being answered, which throws inside hapi and ends the process;
// here the request being answered is left alone and the connection closed after it. The log
// gets the parser's error code only, never the error itself: its `rawPacket` holds the
// request's bytes, credentials included.

const internals = {
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const,

    answers: {
        HPE_HEADER_OVERFLOW: [431, httpMessages.headersTooLarge],
        ERR_HTTP_REQUEST_TIMEOUT: [408, httpMessages.requestTimeout]
    } as Record<string, [number, string]>,

    answerFor: (code: unknown): [number, string] => internals.answers[String(code)] ?? [400, messages.invalidRequest],

    headers: (body: string) => ({ 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' }),

    // A whole response written on a socket that has no response object (the request never
    // reached one); the connection closes after it.
    raw(status: number, message: string): string {

        const body = JSON.stringify({ error: message });
        const head = Object.entries(internals.headers(body)).map(([name, value]) => `${name}: ${value}\r\n`).join('');
        return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`;
    },

    send(res: ServerResponse, status: number, message: string): void {

        const body = JSON.stringify({ error: message });
        res.writeHead(status, internals.headers(body));
        res.end(body);
    },

    // A 405 naming the methods the path has (routes other than the catch-all); a Spanish 404
    // when it has none.
    notAllowed(server: Server, path: string): Boom.Boom {

        const allowed = internals.methods.filter((method) => (internals.match(server, method, path)?.path ?? internals.catchAll) !== internals.catchAll);

        return allowed.length ? Boom.methodNotAllowed(undefined, undefined, allowed) : Boom.notFound();
    },

    // The route a method and path would reach; none for a path the router cannot read (not
    // absolute, or percent-encoding that is not UTF-8, which hapi refuses later with a 400).
    match(server: Server, method: string, path: string): RequestRoute | null {

        try {
            return path.startsWith('/') ? server.match(method.toLowerCase() as Lowercase<HTTP_METHODS>, path) : null;
        }
        catch {
            return null;
        }
    },

    isMethod: (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z]{1,16}$/.test(value),

    catchAll: '/{path*}'
};

// The route for anything no other route takes: a Spanish 404, or a 405 naming the methods the
// path has, without asking for a token first; the body, if any, is never read.
export const catchAllRoute: ServerRoute = {
    method: '*',
    path: internals.catchAll,
    options: { auth: false, payload: { parse: false, output: 'stream' } },
    handler: (request): never => {

        throw internals.notAllowed(request.server, request.path);
    }
};

export const guardTransport = (server: Server, logger: Logger): void => {

    const listener = server.listener;

    // The response being written on each connection (HTTP/1.1 answers one at a time).
    const inFlight = new WeakMap<Socket, ServerResponse>();
    const track = (req: IncomingMessage, res: ServerResponse) => {

        inFlight.set(req.socket, res);
        res.once('close', () => inFlight.get(req.socket) === res && inFlight.delete(req.socket));
    };

    listener.on('request', track);
    listener.on('checkContinue', track);

    const handled = new WeakSet<Socket>();
    listener.removeAllListeners('clientError');
    listener.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {

        if (handled.has(socket)) {
            return;
        }

        handled.add(socket);
        logger.info({ code: err.code }, 'malformed HTTP request');
        const [status, message] = internals.answerFor(err.code);
        const res = inFlight.get(socket);
        if (!socket.writable) {
            socket.destroy();
        }
        else if (!res) {
            socket.end(internals.raw(status, message));
        }
        else if (res.headersSent || res.req.complete) {
            // The request before the broken bytes was read whole and is being answered: its
            // answer goes first, then the broken one's, then the connection closes.
            res.once('close', () => (socket.writable ? socket.end(internals.raw(status, message)) : socket.destroy()));
        }
        else {
            // The broken bytes are in this request's own body, which hapi may still wait
            // for: hapi drops the request (as when a client goes away) and the answer is
            // written here.
            res.req.emit('aborted');
            internals.send(res, status, message);
        }
    });

    // `Expect` other than 100-continue: Node's own answer is a 417 without body.
    listener.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => internals.send(res, 417, httpMessages.expectationFailed));

    // CONNECT: no proxying here; without a listener Node drops the connection unanswered.
    listener.on('connect', (_req: IncomingMessage, socket: Socket) => socket.end(internals.raw(405, httpMessages.methodNotAllowed)));

    // A CORS preflight for a route without CORS (the whole REST API): hapi would answer 200
    // with an English message; it gets what any other method the path lacks gets.
    server.ext('onRequest', (request, h: ResponseToolkit) => {

        if (request.method !== 'options') {
            return h.continue;
        }

        const wanted = request.headers['access-control-request-method'];
        const target = internals.isMethod(wanted) ? internals.match(server, wanted, request.path) : null;
        if (target?.settings.cors) {
            return h.continue;
        }

        throw internals.notAllowed(server, request.path);
    });
};
