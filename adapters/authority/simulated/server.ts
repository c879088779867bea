import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arcaHosts, isArcaHost } from '../hosts.js';
import { ccmaRoutes } from './ccma.js';
import { dfeRoutes } from './dfe.js';
import { createFaults } from './faults.js';
import { loginRoutes } from './login.js';
import { misComprobantesRoutes } from './mis-comprobantes.js';
import { monotributoRoutes } from './monotributo.js';
import type { ExpectedData } from './oracle.js';
import { expectedOf } from './oracle.js';
import { messagePage } from './pages.js';
import { portalRoutes } from './portal.js';
import type { Route } from './reply.js';
import { formOf, html, send } from './reply.js';
import { sctRoutes } from './sct.js';
import type { LoginSeen, Read, ScriptedFailure, SimulatedAuthorityOptions, SimulatedFailures, SimulatedStats } from './state.js';
import { createState } from './state.js';

// The simulated authority: one node:http server on 127.0.0.1 serving the SAME surface as the
// real one (hosts.ts, docs/authority.md), every host under its name as the first path segment
// ({url}/auth.afip.gob.ar/contribuyente_/login.xhtml) or, failing that, by the Host header.
// One module per host or service answers it; data per CUIT is deterministic (data.ts), and
// `expected(cuit)` (oracle.ts) returns exactly what is served.

export interface SimulatedAuthority {
    url: string;
    port: number;
    expected(cuit: string): ExpectedData;
    stats(): SimulatedStats;
    detailsOpened(cuit: string): string[];
    // What was read, in order: service, selected CUIT, what (e.g. mcmp R, sct getDeudas).
    reads(): Read[];
    // Every login from its first request to auth to its last one so far, in order of start.
    loginStarts(): LoginSeen[];
    // Every session id, cookie value, jwt and token/sign it handed out.
    issued(): string[];
    // When each request arrived, by host.
    arrivals(): { host: string; at: number }[];
    represent(login: string, ...entities: string[]): void;
    // A person's key asked to act for a legal entity: granted unless refused (see refuse).
    actFor(login: string, cuit: string): boolean;
    refuse(login: string, ...entities: string[]): void;
    setFailures(failures: SimulatedFailures): void;
    script(failure: ScriptedFailure): void;
    stop(): Promise<void>;
}

const internals = {
    // Not a host of the authority: how a service run apart tells the simulated authority which
    // legal entity a key is about to act for (actFor), as the real one knows from its registry.
    controlPath: '/_simulador/representaciones',

    // Pages whose answer a random `malformed` share cuts short.
    dataPaths: /ajax\.do|descargarComprobantes|rest-access|ConsDeuFecSabana|communications|tipoCuitImpuestos/
};

export const representationsPath = internals.controlPath;

export const startSimulatedAuthority = async (options: SimulatedAuthorityOptions = {}): Promise<SimulatedAuthority> => {

    const state = createState(options);
    const faults = createFaults(state);
    const routes: Record<string, Route> = {
        [arcaHosts.auth]: loginRoutes(state, faults),
        [arcaHosts.portal]: portalRoutes(state),
        [arcaHosts.mcmp]: misComprobantesRoutes(state, faults),
        [arcaHosts.ctacte]: sctRoutes(state),
        [arcaHosts.ccam]: ccmaRoutes(state),
        [arcaHosts.dfe]: dfeRoutes(state),
        [arcaHosts.monotributo]: monotributoRoutes(state)
    };
    let inFlight = 0;
    const hostInFlight = new Map<string, number>();
    // When each request arrived, by host: what the fleet's block checks look at.
    const arrivals = new Map<number, { host: string; at: number }>();

    const handle = async (req: IncomingMessage, res: ServerResponse) => {

        state.stats.requests++;
        state.arrivedAt.set(req, Date.now());
        const url = new URL(req.url ?? '/', 'http://simulated');
        const [, first = '', ...rest] = url.pathname.split('/');
        const byPrefix = isArcaHost(first);
        const host = byPrefix ? first : (req.headers.host ?? '').replace(/:\d+$/, '');
        const path = byPrefix ? `/${rest.join('/')}` : url.pathname;
        state.stats.byHost[host] = (state.stats.byHost[host] ?? 0) + 1;
        state.remember(arrivals, arrivals.size, { host, at: Date.now() });
        // Requests in flight per host, from arrival to answer: the fleet's cap (bench:fleet).
        const inHost = (hostInFlight.get(host) ?? 0) + 1;
        hostInFlight.set(host, inHost);
        state.stats.peakInFlightByHost[host] = Math.max(state.stats.peakInFlightByHost[host] ?? 0, inHost);
        res.once('close', () => hostInFlight.set(host, hostInFlight.get(host)! - 1));

        const latency = Array.isArray(
            options.latencyMs
        ) ? options.latencyMs[0] + Math.random() * (options.latencyMs[1] - options.latencyMs[0]) : options.latencyMs;
        if (latency && (!options.latencyHosts || options.latencyHosts.includes(host))) {
            await new Promise((resolve) => setTimeout(resolve, latency));
        }

        if (url.pathname === internals.controlPath && req.method === 'POST') {
            const form = await formOf(req);
            return send(res, state.actFor(form.get('login') ?? '', form.get('cuit') ?? '') ? 204 : 403, '', 'text/plain');
        }

        const answer = faults.answerFor(host, path);
        if (answer) {
            return faults.answer(res, answer, path);
        }

        if (faults.chance(faults.failures.malformed) && internals.dataPaths.test(path)) {
            return path.includes('descargar') ? send(
                res,
                200,
                Buffer.from('PK\u0003\u0004 archivo truncado'),
                'application/zip'
            ) : send(res, 200, '{"estado":"ok","datos":{"da', 'application/json');
        }

        const route = routes[host];
        return route ? route(req, res, path, url.searchParams) : html(res, messagePage('No encontrado', 'Host desconocido.'), 404);
    };

    const server = createServer((req, res) => {

        inFlight++;
        state.stats.peakInFlight = Math.max(state.stats.peakInFlight, inFlight);
        res.once('close', () => {

            inFlight--;
        });
        handle(req, res).catch(() => {

            if (!res.headersSent) {
                html(res, messagePage('Error', 'Internal Server Error'), 500);
            }
            else {
                res.destroy();
            }
        });
    });
    server.keepAliveTimeout = 5_000;
    if (options.unref) {
        server.unref();
    }

    await new Promise<void>((resolve, reject) => {

        server.once('error', reject);
        server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });

    const address = server.address() as AddressInfo;
    const url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

    return {
        url,
        port: address.port,
        expected: (cuit) => expectedOf(state, cuit),
        stats: () => ({
            ...state.stats,
            loginsByCuit: { ...state.stats.loginsByCuit },
            passwordsByCuit: Object.fromEntries(Object.entries(state.stats.passwordsByCuit).map(([cuit, posts]) => [cuit, [...posts]])),
            overlapsByCuit: { ...state.stats.overlapsByCuit },
            byHost: { ...state.stats.byHost },
            peakInFlightByHost: { ...state.stats.peakInFlightByHost },
            serviceSessions: state.serviceSessions()
        }),
        detailsOpened: (cuit) => [...(state.opened.get(cuit) ?? [])],
        reads: () => [...state.reads],
        loginStarts: () => state.loginStarts.map((login) => ({ ...login })),
        issued: () => [...state.issued],
        arrivals: () => [...arrivals.values()],
        represent: (login, ...entities) => state.represent(login, entities),
        actFor: (login, cuit) => state.actFor(login, cuit),
        refuse: (login, ...entities) => state.refuse(login, entities),
        setFailures: (next) => faults.setFailures(next),
        script: (failure) => faults.script(failure),

        async stop() {

            faults.release();
            server.closeAllConnections();
            await new Promise<void>((resolve) => server.close(() => resolve()));
        }
    };
};
