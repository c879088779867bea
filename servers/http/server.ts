import Hapi from '@hapi/hapi';
import pino from 'pino';
import type { Logger } from 'pino';
import type { Ports } from '../../core/ports/index.js';
import { registerBearerAuth } from './auth.js';
import { registerRateLimitHeaders } from './rate-limit-headers.js';
import { registerErrorResponses } from './errors.js';
import { registerMcp } from '../mcp/routes.js';
import { registerPanel } from '../panel/plugin.js';
import type { ConnectionLimits } from './listener.js';
import { createListener } from './listener.js';
import { registerLogging } from './logging.js';
import type { RequestMetrics } from './metrics.js';
import { registerHttpMetrics } from './metrics.js';
import { catchAllRoute, guardTransport } from './transport.js';
import { accountDataRoutes } from './routes/accounts-data.js';
import { answerRoutes } from './routes/answers.js';
import { cuitRoutes } from './routes/cuits.js';
import { cuitHealthRoutes } from './routes/cuit-health.js';
import { cuitWriteRoutes } from './routes/cuits-write.js';
import { docsRoutes } from './routes/docs.js';
import { healthRoutes } from './routes/health.js';
import { invoiceRoutes } from './routes/invoices.js';
import { tagRoutes } from './routes/tags.js';

export interface HttpServerOptions {
    host: string;
    port: number;
    publicUrl?: string;
    // TRUST_PROXY and OAUTH_MAX_CLIENTS (see app/config.ts).
    trustProxy?: number;
    maxOAuthClients?: number;
    // OAUTH_REDIRECT_SCHEMES (see servers/oauth/provider.ts).
    oauthRedirectSchemes?: readonly string[];
    // HTTP_HEADERS_TIMEOUT and HTTP_REQUEST_TIMEOUT (see listener.ts); the defaults otherwise.
    connectionLimits?: ConnectionLimits;
    // Request logs and errors (pino); silent when not given.
    logger?: Logger;
    // Where unexpected errors are reported besides the request log; the logger by default.
    log?: (event: Record<string, unknown>) => void;
    // Prometheus counters of requests by route and status; none when not given.
    metrics?: RequestMetrics;
}

// The REST API (docs/api.md), not yet started: callers may add routes, then `start()`.
export const createHttpServer = async (deps: Ports, options: HttpServerOptions): Promise<Hapi.Server> => {

    const server = Hapi.server({
        host: options.host,
        port: options.port,
        listener: createListener(options.connectionLimits),
        debug: false,
        router: { stripTrailingSlash: true },
        // A Range header is ignored: a slice of a JSON document is no answer (docs/api.md, Errors).
        routes: { response: { ranges: false } }
    });

    const logger = options.logger ?? pino({ level: 'silent' });
    // Unexpected errors go through the logger (and so through its redaction), wherever they happen.
    // pino writes the level and the message itself: kept in the event they would appear twice.
    const reportError = options.log ?? ((
        { level, msg, ...event }: Record<string, unknown>
    ) => logger[level === 'warn' ? 'warn' : 'error'](event, String(msg ?? 'error')));
    registerErrorResponses(server, reportError, deps);
    registerLogging(server, logger, options.trustProxy ?? 0);
    guardTransport(server, logger);
    if (options.metrics) {
        registerHttpMetrics(server, options.metrics);
    }

    registerBearerAuth(server, deps);
    registerRateLimitHeaders(server);
    registerMcp(server, deps, {
        publicUrl: options.publicUrl,
        log: reportError,
        trustProxy: options.trustProxy,
        maxClients: options.maxOAuthClients,
        redirectSchemes: options.oauthRedirectSchemes
    });
    await registerPanel(server, deps, { publicUrl: options.publicUrl, trustProxy: options.trustProxy ?? 0 });

    server.route([
        ...healthRoutes(deps),
        ...cuitRoutes(deps),
        ...cuitWriteRoutes(deps),
        ...invoiceRoutes(deps),
        ...accountDataRoutes(deps),
        ...tagRoutes(deps),
        ...cuitHealthRoutes(deps),
        ...answerRoutes(deps),
        ...docsRoutes({ publicUrl: options.publicUrl }),
        catchAllRoute
    ]);

    return server;
};
