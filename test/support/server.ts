import type { Logger } from 'pino';
import { expect } from 'chai';
import type { Server } from '@hapi/hapi';
import { servingBusyTimeoutMs } from '../../adapters/knex/connection.js';
import { composeApp } from '../../app/compose.js';
import type { App } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { testEnv } from './app.js';
import type { RateLimits } from '../../core/domain/rate-limit.js';
import type { Clock, Ports } from '../../core/ports/index.js';
import { createHttpServer } from '../../servers/http/server.js';
import { watchContract } from './contract.js';
import { runLogger } from './run-log.js';
import type { TestDatabase } from './databases.js';

// A started REST server on a fresh database, on an ephemeral port of 127.0.0.1, with a clock
// the test can move.

export interface TestClock extends Clock {
    set(date: Date | string): void;
    advance(ms: number): void;
}

export const testClock = (start: Date | string = '2026-03-15T12:00:00Z'): TestClock => {

    let now = new Date(start).getTime();
    return {
        now: () => new Date(now),
        set(date) {

            now = new Date(date).getTime();
        },
        advance(ms) {

            now += ms;
        }
    };
};

export interface TestServer {
    url: string;
    app: App;
    server: Server;
    clock: TestClock;
    request(path: string, options?: {
        token?: string | null;
        method?: string;
        headers?: Record<string, string>;
        body?: string | object;
    }): Promise<TestResponse>;
    // GET with the token, asserting a 200; the parsed body.
    ok(path: string, token: string): Promise<any>;
    stop(): Promise<void>;
}

export interface TestResponse {
    status: number;
    headers: Headers;
    text: string;
    // Parsed JSON body (undefined when the body is not JSON).
    body: any;   // arbitrary JSON: tests assert on its shape
}

export interface TestServerOptions {
    rateLimits?: Partial<RateLimits>;
    clock?: TestClock;
    // Extra configuration variables, read through loadConfig as an operator would set them.
    env?: Record<string, string>;
    // Where the server logs; the run's log file (run-log.ts) by default.
    logger?: Logger;
    // Requests go through hapi's server.inject instead of a socket (no port is opened; `url`
    // is not reachable): for suites whose behaviour needs no connection. The edge, fuzz and
    // client suites stay on sockets.
    inject?: boolean;
    // The port to listen on (0, any free one, by default): a server restarted where clients
    // and tokens know it (its /mcp is the resource its tokens were issued for).
    port?: number;
}

// A server that can seal `clave_arca` off the embedded database (the write endpoints).
export const writeServerEnv = { ARCASYNC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };

export const startTestServer = async (database: TestDatabase, options: TestServerOptions = {}): Promise<TestServer> => {

    const db = await database.create({ migrated: true });
    return startOn(db, options);
};

// Another server (another knex pool, as another process would have) on the database of a
// running one; stopping it leaves the database in place.
export const startServerOn = (first: TestServer, options: TestServerOptions = {}): Promise<TestServer> => {

    return startOn({ url: first.app.config.databaseUrl, release: async () => undefined }, options);
};

type SendRequest = TestServer['request'];

const internals = {
    headersOf(requestOptions: Parameters<SendRequest>[1] = {}): { headers: Record<string, string>; body: string | undefined } {

        const headers: Record<string, string> = { ...requestOptions.headers };
        if (requestOptions.token) {
            headers.authorization = `Bearer ${requestOptions.token}`;
        }

        let body: string | undefined;
        if (requestOptions.body !== undefined) {
            body = typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body);
            headers['content-type'] ??= 'application/json';
        }

        return { headers, body };
    },

    parsed(text: string): unknown {

        try {
            return text ? JSON.parse(text) : undefined;
        }
        catch {
            return undefined;
        }
    }
};

const overSocket = (url: string): SendRequest => async (path, requestOptions = {}) => {

    const { headers, body } = internals.headersOf(requestOptions);
    const response = await fetch(`${url}${path}`, { method: requestOptions.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: internals.parsed(text) };
};

// The same request through hapi's server.inject: routing, auth, validation and error mapping
// as on a socket, without the listener (servers/http/listener.ts) and Node's HTTP parser.
export const injected = (server: Server): SendRequest => async (path, requestOptions = {}) => {

    const { headers, body } = internals.headersOf(requestOptions);
    const response = await server.inject({ method: requestOptions.method ?? 'GET', url: path, headers, ...(body === undefined ? {} : { payload: body }) });
    const answered = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
        for (const one of Array.isArray(value) ? value : [value]) {
            answered.append(name, String(one));
        }
    }

    return { status: response.statusCode, headers: answered, text: response.payload, body: internals.parsed(response.payload) };
};

const startOn = async (db: { url: string; release(): Promise<void> }, options: TestServerOptions): Promise<TestServer> => {

    const base = loadConfig({ ...testEnv, ...options.env, DATABASE_URL: db.url });
    const config = { ...base, rateLimits: { ...base.rateLimits, ...options.rateLimits } };
    const clock = options.clock ?? testClock();
    // As `serve` composes it (cli/commands/serve.ts).
    const app = await composeApp(config, { clock, pool: { busyTimeoutMs: servingBusyTimeoutMs } });
    const logger = options.logger ?? runLogger();
    const server = await createHttpServer(app.ports, {
        host: '127.0.0.1',
        port: options.port ?? 0,
        ...(config.publicUrlSet ? { publicUrl: config.publicUrl } : {}),
        trustProxy: config.trustProxy,
        maxOAuthClients: config.maxOAuthClients,
        connectionLimits: config.connectionLimits,
        ...(config.oauthRedirectSchemes ? { oauthRedirectSchemes: config.oauthRedirectSchemes } : {}),
        // Failures inside requests reach it as in a serving process (servers/http/server.ts).
        logger
    });
    watchContract(server);
    const send = options.inject ? (await server.initialize(), injected(server)) : (await server.start(), overSocket(server.info.uri));
    const url = server.info.uri;

    const self: TestServer = {
        url,
        app,
        server,
        clock,
        request: send,
        async ok(path, token) {

            const res = await self.request(path, { token });
            expect(res.status, `${path}: ${res.text}`).to.equal(200);
            return res.body;
        },
        async stop() {

            await server.stop();
            await app.close();
            await db.release();
        }
    };

    return self;
};

// The REST API over other ports (the in-memory ones of memory-ports.ts), requests injected:
// HTTP behaviour that the transport and the core decide, with no database. Every answer is
// checked against the OpenAPI document as on a started server.
export const injectServer = async (ports: Ports): Promise<{ server: Server; request: SendRequest; stop(): Promise<void> }> => {

    const server = await createHttpServer(ports, { host: '127.0.0.1', port: 0, logger: runLogger() });
    watchContract(server);
    await server.initialize();
    return { server, request: injected(server), stop: () => server.stop() };
};
