import { isAbsolute, resolve } from 'node:path';
import type { RateLimits } from '../core/domain/rate-limit.js';
import { defaultRateLimits } from '../core/domain/rate-limit.js';
import { defaultMaxOAuthClients } from '../core/domain/throttle.js';
import { parseArcaTime } from '../core/domain/arca-day.js';

// Configuration (docs/operations.md). Everything comes from the environment, with the embedded defaults.

export interface Config {
    databaseUrl: string;
    embedded: boolean;                 // SQLite under ./data: nothing to install
    host: string;
    port: number;
    publicUrl: string;
    publicUrlSet: boolean;             // PUBLIC_URL given; otherwise servers use where they listen
    trustProxy: number;                // TRUST_PROXY: reverse proxies in front; 0 = forwarded headers ignored
    maxOAuthClients: number;           // OAUTH_MAX_CLIENTS: registered OAuth clients kept at most
    oauthRedirectSchemes: string[] | undefined; // OAUTH_REDIRECT_SCHEMES: private-use redirect schemes (comma-separated)
    connectionLimits: { headersMs: number; requestMs: number }; // HTTP_HEADERS_TIMEOUT, HTTP_REQUEST_TIMEOUT (seconds)
    authority: 'arca' | 'simulated';
    authorityUrl: string | null;
    logLevel: string;
    metricsPort: number | null;        // Prometheus /metrics on its own listener; off when unset
    rateLimits: RateLimits;
    readCacheBytes: number;            // READ_CACHE_MB: answers kept in memory per process; 0 = none
    dataDir: string;
    secretKey: string | null;          // ARCASYNC_SECRET_KEY: seals stored credentials
    previousSecretKeys: string | null; // ARCASYNC_SECRET_KEYS: previous keys, still open old values
    webhooks: WebhookConfig;
    fleet: FleetConfig;
}

// WEBHOOK_*: where endpoints may point and how deliveries are paced.
interface WebhookConfig {
    allowHttpLoopback: boolean;        // WEBHOOK_ALLOW_HTTP_LOOPBACK=1: development only
    allowPrivateNetworks: boolean;     // WEBHOOK_ALLOW_PRIVATE_NETWORKS=1
    timeoutMs: number;                 // WEBHOOK_TIMEOUT_SECONDS (10)
    backoffBaseMs: number;             // WEBHOOK_BACKOFF_BASE_MS (30 s): the first retry's ceiling
    pollMs: number;                    // WEBHOOK_POLL_MS (1 s)
    syncDeliveryMs: number;            // WEBHOOK_SYNC_SECONDS (20): cron `sync` delivers this long at most; 0 = not at all
    retentionMs: number;               // WEBHOOK_RETENTION_DAYS (30): delivered and given-up events kept this long
}

// What every worker of the fleet promises the authority (docs/scaling.md).
interface FleetConfig {
    loginGapMs: number;                // SYNC_LOGIN_GAP_MS: between two login starts, whole fleet
    loginsInFlight: number;            // SYNC_LOGINS_IN_FLIGHT: logins at once in a process
    loginsPerMinute: number;           // SYNC_LOGINS_PER_MINUTE: login starts per minute, whole fleet
    reloginsPerDay: number;            // SYNC_RELOGINS_PER_DAY: logins of a key after the day's first
    hostInFlight: number;              // SYNC_HOST_IN_FLIGHT: requests in flight per host, whole fleet
    blockWaitMs: number;               // SYNC_BLOCK_WAIT_MS: no request to a blocked host this long
    keyIdleMs: number;                 // SYNC_KEY_IDLE_MS: an idle key session is kept this long
    wrongKeysPerWeek: number;          // SYNC_WRONG_KEYS_PER_WEEK: unproven posts per CUIT in 7 days, every account
    checkDigits: boolean;              // SYNC_CHECK_DIGITS (1/0): never log in with a CUIT whose check digit is wrong
    window: { startMs: number; endMs: number };   // SYNC_WINDOW "HH:MM-HH:MM", Buenos Aires
}

const defaultFleetConfig: FleetConfig = {
    loginGapMs: 3_000,
    loginsInFlight: 2,
    loginsPerMinute: 12,
    reloginsPerDay: 1,
    hostInFlight: 4,
    blockWaitMs: 15 * 60_000,
    keyIdleMs: 2 * 60_000,
    wrongKeysPerWeek: 3,
    checkDigits: true,
    // A night window: the authority's portals are least busy, accountants asleep.
    window: { startMs: 60 * 60_000, endMs: 7 * 60 * 60_000 }
};

// The simulated authority runs beside the service and minds no burst: short gaps and waits,
// so that the demo and the tests do not wait for nothing (its own checks still count them).
const simulatedFleetConfig: FleetConfig = {
    ...defaultFleetConfig,
    loginGapMs: 20,
    loginsInFlight: 4,
    loginsPerMinute: 600,
    hostInFlight: 16,
    blockWaitMs: 2_000,
    keyIdleMs: 5_000,
    // Its portfolios (the demo's, the tests') use made-up CUITs.
    checkDigits: false
};

// LOG_LEVEL: pino's levels, from the quietest.
const logLevels = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

const internals = {
    flag: (raw: string | undefined): boolean => raw === '1' || raw === 'true',

    // A level pino knows; any other would fail later, in English, or be taken silently.
    logLevel(raw: string | undefined): string {

        if (raw === undefined || raw === '') {
            return 'info';
        }

        if (!(logLevels as readonly string[]).includes(raw)) {
            throw new Error(`LOG_LEVEL debe ser uno de: ${logLevels.join(', ')}`);
        }

        return raw;
    },

    // A port to listen on: a whole number from 1 to 65535.
    port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {

        const port = internals.integer(env, name, fallback);
        if (port > 65_535) {
            throw new Error(`${name} debe ser un número de puerto entre 1 y 65535`);
        }

        return port;
    },


    // A whole number of at least `min` (1: positive, 0: may turn a feature off).
    integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: 0 | 1 = 1): number {

        const raw = env[name];
        if (raw === undefined || raw === '') {
            return fallback;
        }

        const value = Number(raw);
        if (!Number.isInteger(value) || value < min) {
            throw new Error(min === 1 ? `${name} debe ser un entero positivo` : `${name} debe ser un entero mayor o igual a 0`);
        }

        return value;
    },

    // A comma-separated list of URI schemes; undefined (the defaults) when unset.
    schemes(raw: string | undefined): string[] | undefined {

        if (raw === undefined || raw.trim() === '') {
            return undefined;
        }

        const schemes = raw.split(',').map((scheme) => scheme.trim().toLowerCase()).filter(Boolean);
        const wrong = schemes.find((scheme) => !/^[a-z][a-z0-9+.-]*$/.test(scheme) || scheme === 'http' || scheme === 'https');
        if (wrong !== undefined) {
            throw new Error('OAUTH_REDIRECT_SCHEMES debe ser una lista de esquemas separados por comas (cursor,vscode), sin http ni https');
        }

        return schemes;
    },

    // SYNC_WINDOW: "HH:MM-HH:MM" in Buenos Aires time, start before end within one day.
    window(env: NodeJS.ProcessEnv): FleetConfig['window'] {

        const raw = env.SYNC_WINDOW;
        if (raw === undefined || raw === '') {
            return defaultFleetConfig.window;
        }

        const [start, end] = raw.split('-').map(parseArcaTime);
        if (start === null || end === null || start === undefined || end === undefined || start >= end) {
            throw new Error("SYNC_WINDOW debe ser 'HH:MM-HH:MM' (hora de Buenos Aires), con el inicio antes del fin");
        }

        return { startMs: start, endMs: end };
    },

    fleet(env: NodeJS.ProcessEnv, authority: Config['authority']): FleetConfig {

        const fallback = authority === 'simulated' ? simulatedFleetConfig : defaultFleetConfig;
        return {
            loginGapMs: internals.integer(env, 'SYNC_LOGIN_GAP_MS', fallback.loginGapMs, 0),
            loginsInFlight: internals.integer(env, 'SYNC_LOGINS_IN_FLIGHT', fallback.loginsInFlight),
            loginsPerMinute: internals.integer(env, 'SYNC_LOGINS_PER_MINUTE', fallback.loginsPerMinute),
            reloginsPerDay: internals.integer(env, 'SYNC_RELOGINS_PER_DAY', fallback.reloginsPerDay, 0),
            hostInFlight: internals.integer(env, 'SYNC_HOST_IN_FLIGHT', fallback.hostInFlight),
            blockWaitMs: internals.integer(env, 'SYNC_BLOCK_WAIT_MS', fallback.blockWaitMs),
            keyIdleMs: internals.integer(env, 'SYNC_KEY_IDLE_MS', fallback.keyIdleMs, 0),
            wrongKeysPerWeek: internals.integer(env, 'SYNC_WRONG_KEYS_PER_WEEK', fallback.wrongKeysPerWeek, 0),
            checkDigits: internals.integer(env, 'SYNC_CHECK_DIGITS', fallback.checkDigits ? 1 : 0, 0) !== 0,
            window: internals.window(env)
        };
    },

    // A relative SQLite path is the working directory's, resolved once so every message names
    // the real file and a process started elsewhere (a desktop MCP client) looks where it says.
    absolute(databaseUrl: string, cwd: string): string {

        const path = sqliteFileOf(databaseUrl);
        if (path === null || isAbsolute(path)) {
            return databaseUrl;
        }

        return `sqlite:${resolve(cwd, path)}`;
    }
};

// The file of a `sqlite:PATH` URL; null for MySQL and for an in-memory database.
export const sqliteFileOf = (databaseUrl: string): string | null => {

    const path = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : null;
    return path === null || path === ':memory:' ? null : path;
};

// The database as a message names it: the SQLite file, or the MySQL URL without its password.
export const databaseLabel = (databaseUrl: string): string => {

    const file = sqliteFileOf(databaseUrl);
    if (file !== null || databaseUrl.startsWith('sqlite:')) {
        return file ?? databaseUrl;
    }

    try {
        const url = new URL(databaseUrl);
        url.password = '';
        return url.toString();
    }
    catch {
        return 'DATABASE_URL';
    }
};

const defaultDatabaseUrl = 'sqlite:./data/arcasync.sqlite';

export const loadConfig = (env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config => {

    const givenUrl = env.DATABASE_URL || defaultDatabaseUrl;
    const databaseUrl = internals.absolute(givenUrl, cwd);
    const host = env.HOST || '127.0.0.1';
    const port = internals.port(env, 'PORT', 8080);
    const authority = env.AUTHORITY === 'simulated' ? 'simulated' : 'arca';
    if (env.AUTHORITY && env.AUTHORITY !== 'arca' && env.AUTHORITY !== 'simulated') {
        throw new Error("AUTHORITY debe ser 'arca' o 'simulated'");
    }

    return {
        databaseUrl,
        embedded: givenUrl === defaultDatabaseUrl,
        host,
        port,
        publicUrl: (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
        publicUrlSet: Boolean(env.PUBLIC_URL),
        trustProxy: internals.integer(env, 'TRUST_PROXY', 0, 0),
        maxOAuthClients: internals.integer(env, 'OAUTH_MAX_CLIENTS', defaultMaxOAuthClients),
        oauthRedirectSchemes: internals.schemes(env.OAUTH_REDIRECT_SCHEMES),
        connectionLimits: {
            headersMs: internals.integer(env, 'HTTP_HEADERS_TIMEOUT', 10) * 1000,
            requestMs: internals.integer(env, 'HTTP_REQUEST_TIMEOUT', 30) * 1000
        },
        authority,
        authorityUrl: env.AUTHORITY_URL || null,
        logLevel: internals.logLevel(env.LOG_LEVEL),
        metricsPort: env.METRICS_PORT ? internals.port(env, 'METRICS_PORT', 9464) : null,
        // Operators may raise the limits; the defaults are the spec's.
        rateLimits: {
            perMinute: internals.integer(env, 'RATE_LIMIT_PER_MINUTE', defaultRateLimits.perMinute),
            perMonth: internals.integer(env, 'RATE_LIMIT_PER_MONTH', defaultRateLimits.perMonth)
        },
        readCacheBytes: internals.integer(env, 'READ_CACHE_MB', 32, 0) * 1024 * 1024,
        dataDir: resolve(cwd, 'data'),
        secretKey: env.ARCASYNC_SECRET_KEY || null,
        previousSecretKeys: env.ARCASYNC_SECRET_KEYS || null,
        webhooks: {
            allowHttpLoopback: internals.flag(env.WEBHOOK_ALLOW_HTTP_LOOPBACK),
            allowPrivateNetworks: internals.flag(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
            timeoutMs: internals.integer(env, 'WEBHOOK_TIMEOUT_SECONDS', 10) * 1000,
            backoffBaseMs: internals.integer(env, 'WEBHOOK_BACKOFF_BASE_MS', 30_000),
            pollMs: internals.integer(env, 'WEBHOOK_POLL_MS', 1000),
            syncDeliveryMs: internals.integer(env, 'WEBHOOK_SYNC_SECONDS', 20, 0) * 1000,
            retentionMs: internals.integer(env, 'WEBHOOK_RETENTION_DAYS', 30) * 24 * 60 * 60_000
        },
        fleet: internals.fleet(env, authority)
    };
};
