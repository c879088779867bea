import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { DateRange } from '../../../core/domain/period.js';
import { arcaHosts, arcaPaths, arcaServices, isArcaHost } from '../hosts.js';
import { writeZip } from '../zip.js';
import type { DataOptions, SimulatedTaxpayer } from './data.js';
import { defaultDataOptions, generateTaxpayer, invoicesIn, isEntityCuit } from './data.js';
import type { CsvGeneration, Taxpayer } from './render.js';
import * as render from './render.js';

// The simulated authority: one node:http server on 127.0.0.1 serving the SAME surface as the
// real one (hosts.ts, AUTHORITY.md), every host under its name as the first path segment
// ({url}/auth.afip.gob.ar/contribuyente_/login.xhtml) or, failing that, by the Host header.
// Data per CUIT is deterministic (data.ts); `expected(cuit)` returns exactly what is served.
//
// The real quirks: the jwt expires in `jwtTtlMs` (10 s) and serves once; a CAPTCHA after
// `captchaAfter.logins` password POSTs of one CUIT within `captchaAfter.windowMs`; fes answers a
// request that comes sooner than `fesMinGapMs` after the previous one of its session with
// "BL<digits> <timestamp>" and ends that session; the fes session lasts `fesSessionMs` (15 min);
// ctacte's rest-access answers for the CUIT chosen in its selector, whatever CUIT is passed;
// CCAM writes US-format amounts in latin-1; the CSV generation follows `today` (before Oct
// 2023: 1, until Aug 2025: 2, then 3) unless `csvGeneration` says otherwise.
//
// Credentials (default rule, replaceable with `login`): a physical person's CUIT with any
// non-empty password is accepted, except passwords beginning with 'mala' (wrong key),
// 'bloqueada', 'vencida' (forced change), 'captcha', 'segundo' (second factor). A legal entity
// cannot log in. Who a key reaches: itself and the legal entities in `relations` (or added
// with `represent`). Scripted failures: `script({ host, path, answer, times })`; random ones:
// `failures` shares.

export type LoginOutcome = 'ok' | 'rejected' | 'blocked' | 'expired' | 'captcha' | 'second_factor';

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
    failures?: SimulatedFailures;
    failureSeed?: number;
    today?: string;                     // YYYY-MM-DD, the last day with data (default: today UTC)
    data?: Partial<Omit<DataOptions, 'today'>>;
    csvGeneration?: CsvGeneration;
    pendingPolls?: number;              // listaResultados answers PE this many times first (default 1)
    login?: (cuit: string, password: string) => LoginOutcome;
    relations?: Record<string, readonly string[]>;   // login CUIT -> legal entities it represents
    notAdhered?: (cuit: string, service: string) => boolean;
    irregular?: (cuit: string) => boolean;
    jwtTtlMs?: number;                  // 10 s
    captchaAfter?: { logins: number; windowMs: number } | null;   // default none (the demo: 5 in 10 minutes)
    fesMinGapMs?: number;               // default 100 (the real one wants ~1.2 s; scaled down for local runs); 0: none
    fesSessionMs?: number;              // 15 minutes
    dfePageSize?: number | null;        // null (default): one page with everything
    timeoutHoldMs?: number;
    unref?: boolean;
}

export interface ExpectedData extends SimulatedTaxpayer {
    invoicesIn(kind: InvoiceKind, range: DateRange): InvoiceRecord[];
    summary(range: DateRange): {
        issued: { count: number; importe: number };
        received: { count: number; importe: number };
        deuda: number; vencimientos: number; ddjj: number;
        movements: number; notifications: { total: number; read: number; unread: number };
    };
}

export interface SimulatedStats {
    requests: number;
    logins: number;                     // password POSTs
    loginsByCuit: Record<string, number>;
    portalSessions: number;             // jwt exchanged for AFIPSID
    detailsOpened: number;
    serviceSessions: number;
    blocks: number;
    peakInFlight: number;
    byHost: Record<string, number>;
}

export interface SimulatedAuthority {
    url: string;
    port: number;
    expected(cuit: string): ExpectedData;
    stats(): SimulatedStats;
    detailsOpened(cuit: string): string[];
    // What was read, in order: service, selected CUIT, what (e.g. mcmp R, sct getDeudas).
    reads(): { host: string; cuit: string; what: string }[];
    represent(login: string, ...entities: string[]): void;
    setFailures(failures: SimulatedFailures): void;
    script(failure: ScriptedFailure): void;
    stop(): Promise<void>;
}

interface AuthState { viewState: string; cuit: string | null }
interface FesState { login: string; selected: string | null; expiresAt: number; lastAt: number; alive: boolean }
interface Consulta { cuit: string; login: string; kind: InvoiceKind; range: DateRange; pending: number }
interface SelectState { login: string; selected: string | null; calculated?: boolean }

const internals = {
    cap: 20_000,

    remember<K, V>(map: Map<K, V>, key: K, value: V): void {

        map.set(key, value);
        if (map.size > internals.cap) {
            map.delete(map.keys().next().value as K);
        }
    },

    defaultLogin(cuit: string, password: string): LoginOutcome {

        const rules: [string, LoginOutcome][] = [['mala', 'rejected'], ['bloqueada', 'blocked'], ['vencida', 'expired'], ['captcha', 'captcha'], ['segundo', 'second_factor']];
        if (!password || isEntityCuit(cuit)) {
            return 'rejected';
        }

        return rules.find(([prefix]) => password.toLowerCase().startsWith(prefix))?.[1] ?? 'ok';
    },

    cookies(req: IncomingMessage): Record<string, string> {

        const result: Record<string, string> = {};
        for (const part of (req.headers.cookie ?? '').split(';')) {
            const index = part.indexOf('=');
            if (index > 0) {
                result[part.slice(0, index).trim()] = part.slice(index + 1).trim();
            }
        }

        return result;
    },

    async body(req: IncomingMessage): Promise<URLSearchParams> {

        const chunks: Buffer[] = [];
        for await (const chunk of req) {
            chunks.push(chunk as Buffer);
        }

        return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    },

    token: () => randomBytes(12).toString('hex'),
    dayMs: 86_400_000,

    parseDmy(text: string): string | null {

        const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
        return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
    },

    name(cuit: string): string {

        return isEntityCuit(cuit) ? `EMPRESA ${cuit.slice(2, 10)} SRL` : `CONTRIBUYENTE ${cuit.slice(2, 10)}`;
    },

    generationOn(today: string): CsvGeneration {

        return today < '2023-10-01' ? 1 : today < '2025-09-01' ? 2 : 3;
    },

    period(date: Date): string {

        return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;
    }
};

export const startSimulatedAuthority = async (options: SimulatedAuthorityOptions = {}): Promise<SimulatedAuthority> => {

    const today = options.today ?? new Date().toISOString().slice(0, 10);
    const dataOptions: DataOptions = { ...defaultDataOptions(today), ...options.data, today };
    const secret = randomBytes(32);
    const loginRule = options.login ?? internals.defaultLogin;
    const notAdhered = options.notAdhered ?? (() => false);
    const irregular = options.irregular ?? (() => false);
    const generation = options.csvGeneration ?? internals.generationOn(today);
    const pendingPolls = options.pendingPolls ?? 1;
    const jwtTtlMs = options.jwtTtlMs ?? 10_000;
    const captchaAfter = options.captchaAfter ?? null;
    const fesMinGapMs = options.fesMinGapMs ?? 100;
    const fesSessionMs = options.fesSessionMs ?? 15 * 60_000;
    const relations = new Map<string, Set<string>>(Object.entries(options.relations ?? {}).map(([login, entities]) => [login, new Set(entities)]));
    let failures: SimulatedFailures = { ...options.failures };
    const scripted: (ScriptedFailure & { left: number })[] = [];
    let seed = (options.failureSeed ?? 1) >>> 0;
    const chance = (share: number | undefined): boolean => {

        if (!share) {
            return false;
        }

        seed = (seed + 0x6d2b79f5) | 0;
        let t = seed;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296 < share;
    };

    const taxpayers = new Map<string, SimulatedTaxpayer>();
    const taxpayer = (cuit: string): SimulatedTaxpayer => {

        let found = taxpayers.get(cuit);
        if (!found) {
            found = generateTaxpayer(cuit, dataOptions);
            internals.remember(taxpayers, cuit, found);
        }

        return found;
    };

    // Who a key reaches: itself first, then the entities it represents.
    const reach = (login: string): Taxpayer[] => [login, ...[...relations.get(login) ?? []].sort()].map((cuit) => ({ cuit, name: internals.name(cuit) }));
    const reaches = (login: string, cuit: string): boolean => login === cuit || Boolean(relations.get(login)?.has(cuit));

    const authStates = new Map<string, AuthState>();
    const passwordPosts = new Map<string, number[]>();
    const jwts = new Map<string, { cuit: string; exp: number }>();
    const portalSessions = new Map<string, string>();            // AFIPSID -> CUIT
    const fesSessions = new Map<string, FesState>();
    const ctacteSessions = new Map<string, SelectState>();
    const ccamSessions = new Map<string, SelectState>();
    const veSessions = new Map<string, string>();
    const monoSessions = new Map<string, string>();
    const consultas = new Map<number, Consulta>();
    const opened = new Map<string, Set<string>>();
    const readLog: { host: string; cuit: string; what: string }[] = [];
    let nextConsulta = 184_522_000;
    const stats = { requests: 0, logins: 0, loginsByCuit: {} as Record<string, number>, portalSessions: 0, detailsOpened: 0, blocks: 0, peakInFlight: 0, byHost: {} as Record<string, number> };
    let inFlight = 0;
    const held = new Set<ServerResponse>();

    const sign = (token: string) => createHmac('sha256', secret).update(token).digest('base64');

    const send = (res: ServerResponse, status: number, body: string | Buffer, type: string, headers: Record<string, string | string[]> = {}) => {

        res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
        res.end(body);
    };

    const html = (res: ServerResponse, body: string, status = 200, headers: Record<string, string | string[]> = {}) => send(res, status, body, 'text/html; charset=utf-8', headers);
    const latin1 = (res: ServerResponse, body: string, status = 200, headers: Record<string, string | string[]> = {}) => send(res, status, Buffer.from(body, 'latin1'), 'text/html; charset=iso-8859-1', headers);
    const json = (res: ServerResponse, body: unknown, status = 200) => send(res, status, JSON.stringify(body), 'application/json;charset=UTF-8');
    const redirect = (res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}) => {

        res.writeHead(302, { location, 'content-length': 0, ...headers });
        res.end();
    };

    const block = (res: ServerResponse, state?: FesState) => {

        stats.blocks++;
        if (state) {
            state.alive = false;
        }

        return send(res, 200, `BL${String(Date.now()).slice(-9)} ${new Date().toISOString()}`, 'text/plain');
    };

    // A token/sign pair for a login CUIT and a service (validated at each service's entry).
    const serviceToken = (login: string, service: string): { token: string; sign: string } => {

        const token = Buffer.from(JSON.stringify({ login, service, exp: Date.now() + 10 * 60_000, n: internals.token() })).toString('base64');
        return { token, sign: sign(token) };
    };

    const entryLogin = async (req: IncomingMessage, service: string): Promise<string | null> => {

        const form = await internals.body(req);
        const token = form.get('token') ?? '';
        if (!token || form.get('sign') !== sign(token)) {
            return null;
        }

        const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { login: string; service: string; exp: number };
        return payload.service === service && payload.exp >= Date.now() ? payload.login : null;
    };

    const denied = (res: ServerResponse) => html(res, render.messagePage('Acceso denegado', 'Token o firma inválidos.'), 403);

    // A service's entry: the token/sign form opens a session of that service, set as a cookie.
    const enter = async <S>(req: IncomingMessage, res: ServerResponse, service: string, sessions: Map<string, S>, state: (login: string) => S, location: string, cookie: (id: string) => string) => {

        const login = await entryLogin(req, service);
        if (!login) {
            return denied(res);
        }

        const id = internals.token();
        internals.remember(sessions, id, state(login));
        return redirect(res, location, { 'set-cookie': cookie(id) });
    };

    const routes = {
        async auth(req: IncomingMessage, res: ServerResponse, path: string) {

            const cookies = internals.cookies(req);
            const [plainPath, matrix = ''] = path.split(';');
            if (plainPath === arcaPaths.login && req.method === 'GET') {
                const id = internals.token();
                const state: AuthState = { viewState: `${internals.token()}:-${Math.floor(Math.random() * 1e9)}`, cuit: null };
                internals.remember(authStates, id, state);
                return html(res, render.loginUserPage(id, state.viewState), 200, { 'set-cookie': `JSESSIONID=${id}; Path=/contribuyente_; Secure; HttpOnly` });
            }

            if (plainPath === arcaPaths.changeKeyForced) {
                return html(res, render.changeKeyForcedPage());
            }

            const id = cookies.JSESSIONID ?? /jsessionid=([^;/?]+)/.exec(matrix)?.[1] ?? '';
            const state = authStates.get(id);
            const form = req.method === 'POST' ? await internals.body(req) : new URLSearchParams();
            if (!state || req.method !== 'POST' || form.get('javax.faces.ViewState') !== state.viewState) {
                return html(res, render.messagePage('Sesión expirada', 'La sesión ha expirado. Vuelva a ingresar.'));
            }

            const recent = (cuit: string) => (passwordPosts.get(cuit) ?? []).filter((at) => captchaAfter && at > Date.now() - captchaAfter.windowMs).length;
            if (plainPath === arcaPaths.login) {
                const cuit = (form.get('F1:username') ?? '').replace(/\D/g, '');
                if (cuit.length !== 11 || isEntityCuit(cuit)) {
                    return html(res, render.loginUserPage(id, state.viewState, 'Número de CUIL/CUIT incorrecto'));
                }

                state.cuit = cuit;
                state.viewState = `${internals.token()}:-${Math.floor(Math.random() * 1e9)}`;
                const captcha = chance(failures.captcha) || Boolean(captchaAfter && recent(cuit) >= captchaAfter.logins);
                return html(res, render.loginPasswordPage(state.viewState, cuit, { captcha }));
            }

            if ((plainPath === arcaPaths.loginClave || plainPath === arcaPaths.loginCaptcha) && state.cuit) {
                const cuit = state.cuit;
                stats.logins++;
                stats.loginsByCuit[cuit] = (stats.loginsByCuit[cuit] ?? 0) + 1;
                const previous = recent(cuit);
                passwordPosts.set(cuit, [...(passwordPosts.get(cuit) ?? []).slice(-50), Date.now()]);
                let outcome = loginRule(cuit, form.get('F1:password') ?? '');
                if (outcome === 'ok' && chance(failures.rejectedKey)) {
                    outcome = 'rejected';
                }

                if (outcome === 'ok' && (plainPath === arcaPaths.loginCaptcha || (captchaAfter && previous >= captchaAfter.logins))) {
                    outcome = 'captcha';
                }

                state.viewState = `${internals.token()}:-${Math.floor(Math.random() * 1e9)}`;
                switch (outcome) {
                    case 'rejected':
                        return html(res, render.loginPasswordPage(state.viewState, cuit, { error: 'Clave o usuario incorrecto' }));
                    case 'blocked':
                        return html(res, render.blockedKeyPage());
                    case 'expired':
                        return redirect(res, arcaPaths.changeKeyForced);
                    case 'captcha':
                        return html(res, render.loginPasswordPage(state.viewState, cuit, { captcha: true, error: 'El captcha ingresado es incorrecto' }));
                    case 'second_factor':
                        return html(res, render.secondFactorPage());
                }

                const jwt = `${Buffer.from(JSON.stringify({ alg: 'RS256' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: cuit, n: internals.token() })).toString('base64url')}.${internals.token()}`;
                internals.remember(jwts, jwt, { cuit, exp: Date.now() + jwtTtlMs });
                authStates.delete(id);
                return html(res, render.jwtPage(`https://${arcaHosts.portal}${arcaPaths.portalLogin}`, jwt));
            }

            return html(res, render.messagePage('No encontrado', 'La página solicitada no existe.'), 404);
        },

        async portal(req: IncomingMessage, res: ServerResponse, path: string) {

            if (path === arcaPaths.portalLogin && req.method === 'POST') {
                const jwt = (await internals.body(req)).get('jwt') ?? '';
                const grant = jwts.get(jwt);
                jwts.delete(jwt);
                if (!grant || grant.exp < Date.now()) {
                    return redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}`);
                }

                const session = internals.token();
                stats.portalSessions++;
                internals.remember(portalSessions, session, grant.cuit);
                return redirect(res, arcaPaths.portalApp, { 'set-cookie': `AFIPSID=${session}; Path=/; Secure; HttpOnly` });
            }

            const cuit = portalSessions.get(internals.cookies(req).AFIPSID ?? '');
            if (!cuit) {
                return path.startsWith('/portal/api/') ? json(res, { error: 'no autenticado' }, 401) : redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}`);
            }

            if (path === arcaPaths.portalApp) {
                return html(res, render.portalPage(cuit, internals.name(cuit)));
            }

            if (path === arcaPaths.portalInfo) {
                return json(res, { cuit: Number(cuit), nombre: internals.name(cuit), tipoPersona: 'FISICA' });
            }

            const service = /^\/portal\/api\/servicios\/(\d{11})\/servicio\/([\w-]+)(\/autorizacion)?$/.exec(path);
            if (service) {
                if (service[1] !== cuit) {
                    return json(res, { error: 'CUIT distinta de la del ingreso' }, 403);
                }

                const adhered = !notAdhered(cuit, service[2]!) && (service[2] !== arcaServices.monotributo.name || taxpayer(cuit).registry.monotributista === true);
                if (!service[3]) {
                    return json(res, { servicio: service[2], adherido: adhered });
                }

                return json(res, adhered ? serviceToken(cuit, service[2]!) : { servicio: service[2] });
            }

            const taxes = /^\/portal\/api\/cuit\/(\d{11})\/tipoCuitImpuestos$/.exec(path);
            if (taxes && reaches(cuit, taxes[1]!)) {
                const data = taxpayer(taxes[1]!);
                readLog.push({ host: arcaHosts.portal, cuit: taxes[1]!, what: 'tipoCuitImpuestos' });
                return json(res, render.tipoCuitImpuestos(data.registry, data.entity));
            }

            return json(res, { error: 'no encontrado' }, 404);
        },

        async fes(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {

            const now = Date.now();
            if (path === arcaServices.mcmp.entry && req.method === 'POST') {
                const login = await entryLogin(req, arcaServices.mcmp.name);
                if (!login) {
                    return denied(res);
                }

                const id = internals.token();
                const state: FesState = { login, selected: null, expiresAt: now + fesSessionMs, lastAt: now, alive: true };
                internals.remember(fesSessions, id, state);
                const people = reach(login);
                const sso = Buffer.from(`<?xml version="1.0"?><sso><login uid="${login}" exp_time="${Math.floor(state.expiresAt / 1000)}">${people.slice(1).map((p) => `<relations>${p.cuit}</relations>`).join('')}</login></sso>`).toString('base64');
                const cookies = [`JSESSIONID=${id}; Path=/mcmp; Secure; HttpOnly`, `SESSION_TOKEN=${encodeURIComponent(sso)}; Path=/; Secure`];
                if (people.length === 1) {
                    state.selected = login;
                    return html(res, render.mcmpMenu(people[0]!), 200, { 'set-cookie': cookies });
                }

                return html(res, render.mcmpSelection([...people.slice(1), people[0]!]), 200, { 'set-cookie': cookies });
            }

            const state = fesSessions.get(internals.cookies(req).JSESSIONID ?? '');
            const isAjax = path.endsWith('/ajax.do');
            if (!state || !state.alive || now > state.expiresAt) {
                return isAjax ? json(res, { estado: 'error', mensajeError: 'Su sesión ha expirado. Vuelva a ingresar.' }) : html(res, render.messagePage('Mis Comprobantes', 'Su sesión ha expirado'), 403);
            }

            // Strictly sequential and paced, or the firewall answers "BL…" and ends the session.
            const gap = now - state.lastAt;
            state.lastAt = now;
            if ((fesMinGapMs && gap < fesMinGapMs) || chance(failures.block)) {
                return block(res, state);
            }

            const people = reach(state.login);
            const selectionOrder = [...people.slice(1), people[0]!];
            if (path === '/mcmp/jsp/seleccionIngreso.do') {
                return html(res, people.length === 1 ? render.mcmpMenu(people[0]!) : render.mcmpSelection(selectionOrder));
            }

            if (path === '/mcmp/jsp/setearContribuyente.do') {
                const form = req.method === 'POST' ? await internals.body(req) : query;
                const chosen = selectionOrder[Number(form.get('idContribuyente') ?? '-1')];
                if (!chosen || people.length === 1) {
                    return html(res, render.messagePage('Mis Comprobantes', 'El contribuyente seleccionado no se encuentra disponible.'));
                }

                if (irregular(chosen.cuit)) {
                    state.selected = null;
                    return html(res, render.mcmpIrregular(chosen.cuit));
                }

                state.selected = chosen.cuit;
                return html(res, render.mcmpMenu(chosen));
            }

            if (path === '/mcmp/jsp/logout.do') {
                state.alive = false;
                return redirect(res, `https://${arcaHosts.portal}${arcaPaths.portalApp}`);
            }

            if (isAjax) {
                if (req.headers['x-requested-with'] !== 'XMLHttpRequest') {
                    return html(res, render.messagePage('Error', 'Acceso no permitido'), 403);
                }

                const f = query.get('f');
                if (!state.selected) {
                    return json(res, { estado: 'error', mensajeError: 'Error DB' });
                }

                if (f === 'generarConsulta') {
                    const [from, to] = (query.get('fechaEmision') ?? '').split(' - ').map(internals.parseDmy);
                    const t = query.get('t');
                    if (query.get('cuitConsultada') !== state.selected) {
                        return json(res, { estado: 'error', mensajeError: 'Error DB' });
                    }

                    if (!from || !to || from > to || (t !== 'E' && t !== 'R')) {
                        return json(res, { estado: 'error', mensajeError: 'Rango de fechas inválido' });
                    }

                    if ((Date.parse(to) - Date.parse(from)) / internals.dayMs > 364) {
                        return json(res, { estado: 'error', mensajeError: 'Rango máximo: 365 días' });
                    }

                    const id = nextConsulta++;
                    internals.remember(consultas, id, { cuit: state.selected, login: state.login, kind: t === 'E' ? 'issued' : 'received', range: { fromDate: from, toDate: to }, pending: pendingPolls });
                    return json(res, { estado: 'ok', datos: { idConsulta: id } });
                }

                const id = Number(query.get('id'));
                const consulta = consultas.get(id);
                if (!consulta || consulta.cuit !== state.selected) {
                    return json(res, { estado: 'error', mensajeError: 'Error DB' });
                }

                const rows = invoicesIn(taxpayer(consulta.cuit)[consulta.kind], consulta.range);
                if (f === 'estimarResultados') {
                    return json(res, { estado: 'ok', datos: { cantidad: rows.length } });
                }

                if (f === 'listaResultados') {
                    if (consulta.pending > 0) {
                        consulta.pending--;
                        return json(res, { estado: 'ok', recordsTotal: 0, recordsFiltered: 0, datos: { consulta: { idConsulta: id, estado: 'PE' }, data: [] } });
                    }

                    if (!rows.length) {
                        return json(res, { estado: 'error', mensajeError: 'No existe información para la consulta realizada' });
                    }

                    return json(res, { estado: 'ok', recordsTotal: rows.length, recordsFiltered: rows.length, datos: { consulta: { idConsulta: id, estado: 'FI' }, data: [] } });
                }

                return json(res, { estado: 'error', mensajeError: 'Función desconocida' });
            }

            if (path === '/mcmp/jsp/descargarComprobantes.do') {
                const id = Number(query.get('id'));
                const consulta = consultas.get(id);
                if (!consulta || consulta.cuit !== state.selected || consulta.pending > 0 || query.get('tf') !== 'csv') {
                    return html(res, render.messagePage('Mis Comprobantes', 'La consulta no está disponible para descargar.'), 404);
                }

                readLog.push({ host: arcaHosts.mcmp, cuit: consulta.cuit, what: `mcmp ${consulta.kind === 'issued' ? 'E' : 'R'}` });
                const rows = invoicesIn(taxpayer(consulta.cuit)[consulta.kind], consulta.range);
                const stamp = `${today.replace(/-/g, '')}-1032`;
                const name = `comprobantes_consulta_csv_${consulta.kind === 'issued' ? 'emitidos' : 'recibidos'}_${id}_${consulta.login}_${stamp} (montos expresados en pesos).csv`;
                const zip = writeZip([{ name, data: Buffer.from(render.invoicesCsv(rows, consulta.kind, generation, consulta.cuit), 'utf8') }]);
                return send(res, 200, zip, 'application/zip', { 'content-disposition': `attachment; filename="comprobantes_consulta_csv_${id}.zip"` });
            }

            return html(res, render.messagePage('No encontrado', 'La página solicitada no existe.'), 404);
        },

        async ctacte(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {

            if (path === arcaServices.sct.entry && req.method === 'POST') {
                return enter(req, res, arcaServices.sct.name, ctacteSessions, (login) => ({ login, selected: login }), '/contribuyente/', (id) => `JSESSIONID=${id}; Path=/contribuyente; Secure; HttpOnly`);
            }

            const state = ctacteSessions.get(internals.cookies(req).JSESSIONID ?? '');
            if (!state) {
                return redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}`);
            }

            const people = reach(state.login);
            if (path === '/contribuyente/') {
                return html(res, render.ctacteHome());
            }

            if (path === '/contribuyente/app/homeContribuyente.html' || (path === '/contribuyente/app' && req.method === 'POST')) {
                if (req.method === 'POST') {
                    const chosen = people[Number((await internals.body(req)).get('$PropertySelection') ?? '-1')];
                    if (chosen) {
                        state.selected = chosen.cuit;
                    }
                }

                return html(res, render.ctacteSelector(people, people.findIndex((p) => p.cuit === state.selected)));
            }

            if (path === '/contribuyente/rest-access/service') {
                let request: { serviceName?: string; methodName?: string };
                try {
                    request = JSON.parse(query.get('request') ?? '') as typeof request;
                }
                catch {
                    return json(res, { error: 'request inválido' }, 400);
                }

                const method = request.methodName ?? '';
                if (request.serviceName !== 'afip.dit.sct.homeContribuyenteView.services.HomeContribuyenteViewService' || !['getDeudas', 'getVencimientos', 'getFaltasPresentacion'].includes(method)) {
                    return json(res, { 'afip.dit.sct.restaccessCommon.model.Respuesta': { data: null, status: { tipoEstado: 'ERROR', mensaje: 'Servicio inexistente' } } });
                }

                // The CUIT argument is ignored: the answer follows the selector.
                readLog.push({ host: arcaHosts.ctacte, cuit: state.selected!, what: `sct ${method}` });
                return json(res, render.ctacteAnswer(method, taxpayer(state.selected!).sct));
            }

            return html(res, render.messagePage('No encontrado', 'La página solicitada no existe.'), 404);
        },

        async ccam(req: IncomingMessage, res: ServerResponse, path: string) {

            const base = '/tramites_con_clave_fiscal/ccam/';
            if (path === arcaServices.ccma.entry && req.method === 'POST') {
                return enter(req, res, arcaServices.ccma.name, ccamSessions, (login) => ({ login, selected: null }), `${base}seleccionaCuit.asp`, (id) => `ASPSESSIONIDQCSRBTQA=${id}; path=/`);
            }

            const state = ccamSessions.get(internals.cookies(req).ASPSESSIONIDQCSRBTQA ?? '');
            if (!state) {
                return latin1(res, render.messagePage('CCMA', 'Sesión caducada. Ingrese nuevamente.'));
            }

            // Only CUITs with a current account are offered; a key of one CUIT has no selector.
            const accounts = reach(state.login).map((p) => p.cuit).filter((cuit) => taxpayer(cuit).ccma.movements.length > 0);
            const single = reach(state.login).length === 1;
            if (single) {
                state.selected = state.login;
            }

            const page = path.slice(base.length);
            if (page === 'seleccionaCuit.asp') {
                if (req.method === 'POST') {
                    const form = await internals.body(req);
                    if (form.get('accion') === 's' && accounts.includes(form.get('selectCuit') ?? '')) {
                        state.selected = form.get('selectCuit');
                        state.calculated = false;
                        return redirect(res, `${base}menu.asp`);
                    }
                }

                return latin1(res, single ? render.ccamMenu(state.login) : render.ccamSelect(accounts));
            }

            if (!state.selected) {
                return latin1(res, render.messagePage('CCMA', 'Sesión caducada. Debe seleccionar una CUIT.'));
            }

            const data = taxpayer(state.selected);
            const to = new Date(Date.parse(`${today}T00:00:00Z`));
            const from = internals.period(new Date(Date.UTC(to.getUTCFullYear() - 2, 0, 1)));
            if (page === 'menu.asp') {
                return latin1(res, render.ccamMenu(state.selected));
            }

            if (page === 'P02_ctacte.asp') {
                if (req.method === 'POST' && (await internals.body(req)).get('calcula') === 'S') {
                    state.calculated = true;
                    return latin1(res, render.ccamP02Calculated(today, from, internals.period(to)));
                }

                return latin1(res, render.ccamP02Form(today, from, internals.period(to)));
            }

            if (page === 'P04_ctacte.asp' && req.method === 'POST' && state.calculated) {
                readLog.push({ host: arcaHosts.ccam, cuit: state.selected, what: 'ccma saldos' });
                const accessories = Math.round(data.ccma.movements.filter((m) => m.concepto === 'Intereses').reduce((sum, m) => sum + (m.debe ?? 0), 0) * 100) / 100;
                return latin1(res, render.ccamP04(today, data.ccma.balances, Math.min(accessories, data.ccma.balances.saldoDeudor ?? 0)));
            }

            if (page === 'ajax/ConsDeuFecSabana.asp') {
                readLog.push({ host: arcaHosts.ccam, cuit: state.selected, what: 'ccma movimientos' });
                return latin1(res, render.ccamSabana(data.ccma.movements));
            }

            return latin1(res, render.messagePage('CCMA', 'Sesión caducada.'));
        },

        async ve(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {

            if (path === arcaServices.dfe.entry && req.method === 'POST') {
                return enter(req, res, arcaServices.dfe.name, veSessions, (login) => login, '/index.html', (id) => `JSESSIONID=${id}; Path=/; Secure; HttpOnly`);
            }

            const login = veSessions.get(internals.cookies(req).JSESSIONID ?? '');
            if (!login) {
                return json(res, { error: 'no autenticado' }, 401);
            }

            if (path === '/index.html') {
                return html(res, render.htmlPage('e-ventanilla', '<div id="app">Domicilio Fiscal Electrónico</div>'));
            }

            const detail = /^\/api\/v1\/communications\/(\d+)/.exec(path);
            const cuit = query.get('cuit') ?? login;
            if (!reaches(login, cuit)) {
                return json(res, { error: 'no autorizado' }, 403);
            }

            if (detail) {
                // Opening the detail marks the communication read, as the real one does.
                const set = opened.get(cuit) ?? new Set<string>();
                set.add(detail[1]!);
                opened.set(cuit, set);
                stats.detailsOpened++;
                const item = taxpayer(cuit).notifications.find((candidate) => candidate.arcaId === detail[1]);
                return item ? json(res, { comunicacion: { ...render.communication(item, true), cuerpo: 'Detalle de la comunicación' } }) : json(res, { error: 'no encontrada' }, 404);
            }

            if (path === '/api/v1/communications' && req.method === 'GET') {
                const since = query.get('fechaPublicacionSince') ?? '';
                const to = query.get('fechaPublicacionTo') ?? '';
                if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) {
                    return json(res, { error: 'Formato de fecha inválido' }, 400);
                }

                readLog.push({ host: arcaHosts.dfe, cuit, what: 'dfe' });
                const readIds = opened.get(cuit) ?? new Set<string>();
                const list = taxpayer(cuit).notifications.filter((item) => item.fechaRecepcion.slice(0, 10) >= since && item.fechaRecepcion.slice(0, 10) <= to);
                const items = list.map((item) => render.communication(item, item.readAtAuthority || readIds.has(item.arcaId)));
                if (!options.dfePageSize) {
                    return json(res, { comunicaciones: items });
                }

                const size = options.dfePageSize;
                const pagina = Math.max(1, Number(query.get('pagina') ?? 1) || 1);
                return json(res, { comunicaciones: items.slice((pagina - 1) * size, pagina * size), pagina, totalPaginas: Math.max(1, Math.ceil(items.length / size)), totalItems: items.length });
            }

            return json(res, { error: 'no encontrado' }, 404);
        },

        async monotributo(req: IncomingMessage, res: ServerResponse, path: string) {

            if (path === arcaServices.monotributo.entry && req.method === 'POST') {
                return enter(req, res, arcaServices.monotributo.name, monoSessions, (login) => login, '/app/Inicio.aspx', (id) => `ASP.NET_SessionId=${id}; path=/; HttpOnly`);
            }

            const login = monoSessions.get(internals.cookies(req)['ASP.NET_SessionId'] ?? '');
            if (!login || path !== '/app/Inicio.aspx') {
                return html(res, render.messagePage('Monotributo', 'Su sesión ha finalizado.'), login ? 404 : 200);
            }

            readLog.push({ host: arcaHosts.monotributo, cuit: login, what: 'categoria' });
            return html(res, render.monotributoDashboard(internals.name(login), taxpayer(login).registry.categoria));
        }
    };

    const scriptedAnswer = (host: string, path: string): ScriptedAnswer | null => {

        const rule = scripted.find((candidate) => candidate.left > 0 && candidate.host === host && (!candidate.path || candidate.path.test(path)));
        if (!rule) {
            return null;
        }

        rule.left--;
        return rule.answer;
    };

    const handle = async (req: IncomingMessage, res: ServerResponse) => {

        stats.requests++;
        const url = new URL(req.url ?? '/', 'http://simulated');
        const [, first = '', ...rest] = url.pathname.split('/');
        const byPrefix = isArcaHost(first);
        const host = byPrefix ? first : (req.headers.host ?? '').replace(/:\d+$/, '');
        const path = byPrefix ? `/${rest.join('/')}` : url.pathname;
        const query = url.searchParams;
        stats.byHost[host] = (stats.byHost[host] ?? 0) + 1;

        const latency = Array.isArray(options.latencyMs) ? options.latencyMs[0] + Math.random() * (options.latencyMs[1] - options.latencyMs[0]) : options.latencyMs;
        if (latency) {
            await new Promise((resolve) => setTimeout(resolve, latency));
        }

        const answer = scriptedAnswer(host, path) ?? (chance(failures.timeout) ? 'timeout' : chance(failures.serverError) ? 'serverError' : null);
        switch (answer) {
            case 'timeout':
                held.add(res);
                setTimeout(() => {

                    held.delete(res);
                    res.destroy();
                }, options.timeoutHoldMs ?? 60_000).unref();
                return;
            case 'serverError':
                return html(res, render.messagePage('Servicio no disponible', 'El sistema se encuentra en mantenimiento. Intente más tarde.'), 503);
            case 'block':
                return block(res);
            case 'empty503':
                stats.blocks++;
                return send(res, 503, '', 'text/html');
            case 'sessionExpired':
                return path.endsWith('ajax.do') ? json(res, { estado: 'error', mensajeError: 'Su sesión ha expirado' }) : html(res, render.messagePage('Sesión expirada', 'Su sesión ha expirado'), 403);
            case 'unknownPage':
                return html(res, render.messagePage('Aviso importante', 'Estamos realizando cambios en el sistema. Volvé a intentar en unos minutos.'));
        }

        if (chance(failures.malformed) && /ajax\.do|descargarComprobantes|rest-access|ConsDeuFecSabana|communications|tipoCuitImpuestos/.test(path)) {
            return path.includes('descargar') ? send(res, 200, Buffer.from('PK\u0003\u0004 archivo truncado'), 'application/zip') : send(res, 200, '{"estado":"ok","datos":{"da', 'application/json');
        }

        switch (host) {
            case arcaHosts.auth: return routes.auth(req, res, path);
            case arcaHosts.portal: return routes.portal(req, res, path);
            case arcaHosts.mcmp: return routes.fes(req, res, path, query);
            case arcaHosts.ctacte: return routes.ctacte(req, res, path, query);
            case arcaHosts.ccam: return routes.ccam(req, res, path);
            case arcaHosts.dfe: return routes.ve(req, res, path, query);
            case arcaHosts.monotributo: return routes.monotributo(req, res, path);
        }

        return html(res, render.messagePage('No encontrado', 'Host desconocido.'), 404);
    };

    const server = createServer((req, res) => {

        inFlight++;
        stats.peakInFlight = Math.max(stats.peakInFlight, inFlight);
        res.once('close', () => {

            inFlight--;
        });
        handle(req, res).catch(() => {

            if (!res.headersSent) {
                html(res, render.messagePage('Error', 'Internal Server Error'), 500);
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

        expected(cuit) {

            const data = taxpayer(cuit);
            const served = (list: InvoiceRecord[]) => list.map((invoice) => render.servedInvoice(invoice, generation));
            return {
                ...data,
                issued: served(data.issued),
                received: served(data.received),
                invoicesIn: (kind, range) => served(invoicesIn(data[kind], range)),
                summary(range) {

                    const sum = (list: InvoiceRecord[]) => ({ count: list.length, importe: Math.round(list.reduce((total, invoice) => total + invoice.importe, 0) * 100) / 100 });
                    const read = data.notifications.filter((item) => item.readAtAuthority).length;
                    return {
                        issued: sum(invoicesIn(data.issued, range)),
                        received: sum(invoicesIn(data.received, range)),
                        deuda: data.sct.deuda.length,
                        vencimientos: data.sct.vencimientos.length,
                        ddjj: data.sct.ddjj.length,
                        movements: data.ccma.movements.length,
                        notifications: { total: data.notifications.length, read, unread: data.notifications.length - read }
                    };
                }
            };
        },

        stats: () => ({ ...stats, loginsByCuit: { ...stats.loginsByCuit }, byHost: { ...stats.byHost }, serviceSessions: fesSessions.size + ctacteSessions.size + ccamSessions.size + veSessions.size + monoSessions.size }),
        detailsOpened: (cuit) => [...(opened.get(cuit) ?? [])],
        reads: () => [...readLog],
        represent(login, ...entities) {

            const set = relations.get(login) ?? new Set<string>();
            for (const entity of entities) {
                set.add(entity);
            }

            relations.set(login, set);
        },

        setFailures(next) {

            failures = { ...next };
        },

        script(failure) {

            scripted.push({ ...failure, left: failure.times ?? 1 });
        },

        async stop() {

            for (const res of held) {
                res.destroy();
            }

            held.clear();
            server.closeAllConnections();
            await new Promise<void>((resolve) => server.close(() => resolve()));
        }
    };
};

export type { SimulatedTaxpayer } from './data.js';
