import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DataOptions, SimulatedTaxpayer } from './data.js';
import { defaultDataOptions, generateTaxpayer, isEntityCuit } from './data.js';
import type { Taxpayer } from './pages.js';
import { seededRandom, seedOf } from './random.js';
import { formOf } from './reply.js';

// What the simulated authority's hosts share: its options, the taxpayers' data, who each key
// reaches, the service tokens the portal hands out, and what was read and counted.

export type LoginOutcome = 'ok' | 'rejected' | 'blocked' | 'expired' | 'captcha' | 'second_factor' | 'unknown';
export type CsvGeneration = 1 | 2 | 3;

export interface SimulatedFailures {
    serverError?: number;
    timeout?: number;
    malformed?: number;
    rejectedKey?: number;
    captcha?: number;
    block?: number;                     // fes requests answered "BL…"
}

export type ScriptedAnswer = 'block' | 'empty503' | 'serverError' | 'timeout' | 'sessionExpired' | 'unknownPage';

export interface ScriptedFailure {
    host: string;
    path?: RegExp;
    answer: ScriptedAnswer;
    times?: number;                     // default 1
}

export interface SimulatedAuthorityOptions {
    port?: number;                      // 0 (default): an ephemeral port
    host?: string;                      // 127.0.0.1
    latencyMs?: number | [number, number];   // added to every answer (a range: uniform)
    latencyHosts?: readonly string[];   // only these hosts' answers wait latencyMs (default: every host)
    failures?: SimulatedFailures;
    failureSeed?: number;
    today?: string;                     // YYYY-MM-DD, the last day with data (default: today UTC)
    data?: Partial<Omit<DataOptions, 'today'>>;
    csvGeneration?: CsvGeneration;
    pendingPolls?: number;              // listaResultados answers PE this many times first (default 1)
    login?: (cuit: string, password: string) => LoginOutcome;
    relations?: Record<string, readonly string[]>;   // login CUIT -> legal entities it represents
    // Scripted refusals: login CUIT -> legal entities it may NOT act for. Any other legal
    // entity a person's key is asked to act for (actFor) is granted.
    refusals?: Record<string, readonly string[]>;
    notAdhered?: (cuit: string, service: string) => boolean;
    irregular?: (cuit: string) => boolean;
    jwtTtlMs?: number;                  // 10 s
    captchaAfter?: { logins: number; windowMs: number } | null;   // default none (the demo: 5 in 10 minutes)
    fesMinGapMs?: number;               // default defaultFesMinGapMs (defaults.ts); 0: none
    fesSessionMs?: number;              // 15 minutes
    dfePageSize?: number | null;        // null (default): one page with everything
    timeoutHoldMs?: number;
    monotributoWarmUpMs?: number;       // the dashboard's first page of a session waits this long (0)
    unref?: boolean;
}

export interface SimulatedStats {
    requests: number;
    logins: number;                     // password POSTs
    loginsByCuit: Record<string, number>;
    // Per CUIT, each password POSTed, as a short digest in order.
    passwordsByCuit: Record<string, string[]>;
    portalSessions: number;             // jwt exchanged for AFIPSID
    // A key's earlier portal session used again after a newer one of the same key: two
    // sessions of one key at once (what repeated logins at the real one bring CAPTCHAs for).
    overlappingSessions: number;
    overlapsByCuit: Record<string, number>;
    detailsOpened: number;
    serviceSessions: number;
    blocks: number;
    peakInFlight: number;
    peakInFlightByHost: Record<string, number>;
    byHost: Record<string, number>;
}

// One login as the authority sees it: from the first request of its session to auth (GET
// login.xhtml) to its last one so far (the jwt taken by the portal, when it succeeds). What
// pacing checks count: starts by time, and logins in flight.
export interface LoginSeen {
    cuit: string | null;                // once the CUIT is posted
    at: number;
    lastAt: number;
}

export interface Read {
    host: string;
    cuit: string;
    what: string;                       // e.g. mcmp R, sct getDeudas
}

export interface SimulatedState {
    readonly options: SimulatedAuthorityOptions;
    readonly today: string;
    readonly generation: CsvGeneration;
    taxpayer(cuit: string): SimulatedTaxpayer;
    name(cuit: string): string;
    // Who a key reaches: itself first, then the legal entities it represents, by CUIT.
    reach(login: string): Taxpayer[];
    reaches(login: string, cuit: string): boolean;
    represent(login: string, entities: readonly string[]): void;
    // A person's key may act for any legal entity unless a scenario refused it: granted (and
    // from then on among the taxpayers the key reaches) or not.
    actFor(login: string, cuit: string): boolean;
    refuse(login: string, entities: readonly string[]): void;
    // A service session's store, counted in stats().serviceSessions.
    sessions<S>(name: string): Map<string, S>;
    remember<K, V>(map: Map<K, V>, key: K, value: V): void;
    token(): string;
    // Every session id, cookie value, jwt and token/sign handed out: what must never come back
    // in an error, a log, an output or a capture.
    issue(value: string): string;
    readonly issued: Set<string>;
    // A token/sign pair for a login CUIT and a service, checked at the service's entry.
    serviceToken(login: string, service: string): { token: string; sign: string };
    entryLogin(req: IncomingMessage, service: string): Promise<string | null>;
    read(entry: Read): void;
    readonly reads: Read[];
    readonly stats: Omit<SimulatedStats, 'serviceSessions'>;
    serviceSessions(): number;
    // Opened DFE details per CUIT (opening one marks it read).
    readonly opened: Map<string, Set<string>>;
    // Every login, in the order they started.
    readonly loginStarts: LoginSeen[];
    // When each request arrived, before any simulated latency.
    readonly arrivedAt: WeakMap<IncomingMessage, number>;
    // The login's jwts, until the portal takes them (once) or they expire.
    readonly jwts: Map<string, { cuit: string; exp: number; login: LoginSeen }>;
}

const internals = {
    cap: 20_000,
    surnames: [
        'GONZALEZ',
        'RODRIGUEZ',
        'FERNANDEZ',
        'LOPEZ',
        'MARTINEZ',
        'PÉREZ',
        'GARCÍA',
        'SÁNCHEZ',
        'ROMERO',
        'SOSA',
        'ÁLVAREZ',
        'TORRES',
        'RUIZ',
        'BENÍTEZ'
    ],
    givenNames: ['MARÍA LAURA', 'JUAN CARLOS', 'ANA', 'JOSÉ LUIS', 'SOFÍA', 'MARTÍN', 'LUCÍA', 'DIEGO', 'CAROLINA', 'PABLO'],
    trades: ['DISTRIBUIDORA', 'CONSTRUCTORA', 'AGROPECUARIA', 'CONSULTORA', 'TRANSPORTES', 'LABORATORIOS', 'INDUSTRIAS'],
    places: ['DEL SUR', 'NORTE', 'PAMPEANA', 'ANDINA', 'DEL LITORAL', 'PATAGÓNICA', 'CENTRAL'],

    generationOn(today: string): CsvGeneration {

        return today < '2023-10-01' ? 1 : today < '2025-09-01' ? 2 : 3;
    }
};

export const createState = (options: SimulatedAuthorityOptions): SimulatedState => {

    const today = options.today ?? new Date().toISOString().slice(0, 10);
    const dataOptions: DataOptions = { ...defaultDataOptions(today), ...options.data, today };
    const secret = randomBytes(32);
    const relations = new Map<string, Set<string>>(Object.entries(options.relations ?? {}).map(([login, entities]) => [login, new Set(entities)]));
    const refusals = new Map<string, Set<string>>(Object.entries(options.refusals ?? {}).map(([login, entities]) => [login, new Set(entities)]));
    const add = (map: Map<string, Set<string>>, login: string, entities: readonly string[]) => {

        const set = map.get(login) ?? new Set<string>();
        for (const entity of entities) {
            set.add(entity);
        }

        map.set(login, set);
    };
    const taxpayers = new Map<string, SimulatedTaxpayer>();
    const stores = new Map<string, Map<string, unknown>>();
    const reads: Read[] = [];
    const issued = new Set<string>();
    const sign = (token: string) => createHmac('sha256', secret).update(token).digest('base64');

    const remember = <K, V>(map: Map<K, V>, key: K, value: V): void => {

        map.set(key, value);
        if (map.size > internals.cap) {
            map.delete(map.keys().next().value as K);
        }
    };

    // Names as ARCA writes them, in capitals, following from the CUIT.
    const name = (cuit: string): string => {

        const random = seededRandom(seedOf(`nombre|${cuit}`));
        return isEntityCuit(cuit)
            ? `${random.pick(internals.trades)} ${random.pick(internals.places)} ${random.pick(['SRL', 'SA', 'SAS'])}`
            : `${random.pick(internals.surnames)} ${random.pick(internals.givenNames)}`;
    };

    return {
        options,
        today,
        generation: options.csvGeneration ?? internals.generationOn(today),
        name,
        remember,
        reads,
        opened: new Map(),
        jwts: new Map(),
        loginStarts: [],
        arrivedAt: new WeakMap(),
        stats: {
            requests: 0,
            logins: 0,
            loginsByCuit: {},
            passwordsByCuit: {},
            portalSessions: 0,
            overlappingSessions: 0,
            overlapsByCuit: {},
            detailsOpened: 0,
            blocks: 0,
            peakInFlight: 0,
            peakInFlightByHost: {},
            byHost: {}
        },

        taxpayer(cuit) {

            let found = taxpayers.get(cuit);
            if (!found) {
                found = generateTaxpayer(cuit, dataOptions);
                remember(taxpayers, cuit, found);
            }

            return found;
        },

        reach: (login) => [login, ...[...relations.get(login) ?? []].sort()].map((cuit) => ({ cuit, name: name(cuit) })),
        reaches: (login, cuit) => login === cuit || Boolean(relations.get(login)?.has(cuit)),

        represent: (login, entities) => add(relations, login, entities),

        refuse(login, entities) {

            add(refusals, login, entities);
            for (const entity of entities) {
                relations.get(login)?.delete(entity);
            }
        },

        actFor(login, cuit) {

            if (login === cuit || relations.get(login)?.has(cuit)) {
                return true;
            }

            if (isEntityCuit(login) || !isEntityCuit(cuit) || refusals.get(login)?.has(cuit)) {
                return false;
            }

            add(relations, login, [cuit]);
            return true;
        },

        sessions<S>(storeName: string): Map<string, S> {

            let store = stores.get(storeName);
            if (!store) {
                store = new Map<string, unknown>();
                stores.set(storeName, store);
            }

            return store as Map<string, S>;
        },

        serviceSessions: () => [...stores.values()].reduce((sum, store) => sum + store.size, 0),
        issued,
        issue(value) {

            if (issued.size < internals.cap) {
                issued.add(value);
            }

            return value;
        },

        token: () => {

            const value = randomBytes(12).toString('hex');
            if (issued.size < internals.cap) {
                issued.add(value);
            }

            return value;
        },

        serviceToken(login, service) {

            const token = Buffer.from(JSON.stringify({ login, service, exp: Date.now() + 10 * 60_000, n: randomBytes(12).toString('hex') })).toString('base64');
            issued.add(token);
            issued.add(sign(token));
            return { token, sign: sign(token) };
        },

        async entryLogin(req, service) {

            const form = await formOf(req);
            const token = form.get('token') ?? '';
            if (!token || form.get('sign') !== sign(token)) {
                return null;
            }

            const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { login: string; service: string; exp: number };
            return payload.service === service && payload.exp >= Date.now() ? payload.login : null;
        },

        read(entry) {

            reads.push(entry);
        }
    };
};
