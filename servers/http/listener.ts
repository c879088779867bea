import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

// The Node server under hapi, with the limits every connection lives by, authenticated or
// not: its headers within `headersMs`, its whole request (body included) within `requestMs`,
// and nothing left open once answered. Without them a client that stalls its headers or its
// body held a socket for Node's five minutes, and enough such clients used up the process's
// file descriptors.

export interface ConnectionLimits {
    headersMs: number;
    requestMs: number;
}

const defaultConnectionLimits: ConnectionLimits = { headersMs: 10_000, requestMs: 30_000 };

const internals = {
    // How long a connection answered before its request was read whole may take to read the
    // answer before it is cut.
    drainMs: 5_000,

    // Every answer, the ones hapi steps aside for (OAuth, parser errors) included: nothing the
    // service sends (authority texts verbatim, HTML, JSON) may be sniffed into another type.
    nosniff(_req: IncomingMessage, res: ServerResponse): void {

        res.setHeader('X-Content-Type-Options', 'nosniff');
    },

    // An answer given before the request's body arrived whole (a 401, a 413, the OAuth
    // provider's error) would otherwise keep the socket waiting for the rest of the body.
    closeUnread(req: IncomingMessage, res: ServerResponse): void {

        res.once('finish', () => {

            if (!req.complete && !req.socket.destroyed) {
                req.socket.end();
                req.socket.setTimeout(internals.drainMs, () => req.socket.destroy());
            }
        });
    },

    // A body not arrived whole in time. Node's own requestTimeout misses a body nobody reads
    // yet (the OAuth provider's, while the registration is admitted): the request is failed
    // the way Node fails it, through 'clientError' (a Spanish 408, see transport.ts).
    bodyDeadline(listener: Server, requestMs: number) {

        return (req: IncomingMessage, res: ServerResponse): void => {

            const timer = setTimeout(() => {

                if (!req.complete && !req.socket.destroyed) {
                    listener.emit('clientError', Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), req.socket);
                }
            }, requestMs);
            timer.unref();
            res.once('close', () => clearTimeout(timer));
        };
    }
};

export const createListener = (limits: ConnectionLimits = defaultConnectionLimits): Server => {

    const listener = createServer({
        // Without Host, Node would answer a bare 400 itself; the routes do not depend on it.
        requireHostHeader: false,
        headersTimeout: Math.min(limits.headersMs, limits.requestMs),
        requestTimeout: limits.requestMs,
        // How often Node looks for connections past those limits (30 s by default, which
        // would add to every limit).
        connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersMs / 2)))
    });

    listener.prependListener('request', internals.nosniff);
    listener.on('request', internals.closeUnread);
    listener.on('request', internals.bodyDeadline(listener, limits.requestMs));
    return listener;
};
