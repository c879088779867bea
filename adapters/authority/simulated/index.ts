import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { DateRange } from '../../../core/domain/period.js';
import { arcaHosts, arcaPaths, arcaServices, isArcaHost } from '../hosts.js';
import type { ArcaServiceKey } from '../hosts.js';
import { writeZip } from '../zip.js';
import type { DataOptions, SimulatedTaxpayer } from './data.js';
import { defaultDataOptions, generateTaxpayer, invoicesIn, isEntityCuit } from './data.js';
import type { CsvGeneration } from './render.js';
import * as render from './render.js';

// The simulated authority: one node:http server on 127.0.0.1 serving the SAME surface as the
// real one (hosts.ts, AUTHORITY.md), every host under its name as the first path segment
// ({url}/auth.afip.gob.ar/contribuyente_/login.xhtml) or, failing that, by the Host header.
// Data per CUIT is deterministic (data.ts); `expected(cuit)` returns exactly what is served.
//
// Credentials (default rule, replaceable with `login`): a physical person's CUIT with any
// non-empty password is accepted, except passwords beginning with
//   'mala'      -> wrong password page (rejected key)      'bloqueada' -> blocked key
//   'vencida'   -> expired key, must be changed           'captcha'   -> CAPTCHA page
//   'segundo'   -> second factor requested
// A legal entity's CUIT (30/33/34) cannot log in (it has no key): wrong-CUIT page.
// Representation (default, replaceable with `canRepresent`): a person acts for itself and
// for any legal entity; never for another person (-> represented taxpayer unavailable).
// Failure injection (shares of requests, 0..1): serverError (HTTP 500/503 maintenance),
// timeout (no answer until the client gives up), malformed (data endpoints only: truncated
// JSON, garbled CSV/ZIP/HTML), rejectedKey and captcha (at the login steps).

export type LoginOutcome = 'ok' | 'rejected' | 'blocked' | 'expired' | 'captcha' | 'second_factor';

export interface SimulatedFailures {
    serverError?: number;
    timeout?: number;
    malformed?: number;
    rejectedKey?: number;
    captcha?: number;
}

export interface SimulatedAuthorityOptions {
    port?: number;                      // 0 (default): an ephemeral port
    host?: string;                      // 127.0.0.1
    latencyMs?: number;                 // added to every answer
    failures?: SimulatedFailures;
    failureSeed?: number;               // makes injected failures reproducible
    today?: string;                     // YYYY-MM-DD, the last day with data (default: today UTC)
    data?: Partial<Omit<DataOptions, 'today'>>;
    csvGeneration?: CsvGeneration;      // Mis Comprobantes' CSV export generation (default 3)
    pendingPolls?: number;              // listaResultados answers PR this many times first (default 1)
    login?: (cuit: string, password: string) => LoginOutcome;
    canRepresent?: (loginCuit: string, cuit: string) => boolean;
    notAdhered?: (cuit: string, service: string) => boolean;
    timeoutHoldMs?: number;             // how long an injected timeout holds the request (60 s)
    unref?: boolean;                    // do not keep the process alive (in-process use)
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

export interface SimulatedAuthority {
    url: string;
    port: number;
    expected(cuit: string): ExpectedData;
    stats(): { requests: number; logins: number; detailsOpened: number; serviceSessions: number; peakInFlight: number };
    detailsOpened(cuit: string): string[];          // DFE ids whose detail was requested
    setFailures(failures: SimulatedFailures): void;
    stop(): Promise<void>;
}

interface AuthState { viewState: string; cuit: string | null; step: 'user' | 'password' }
interface ServiceState { login: string; cuit: string; service: string; selected: string | null }
interface Consulta { cuit: string; kind: InvoiceKind; range: DateRange; estimated: boolean; pending: number }

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
    }
};

export const startSimulatedAuthority = async (options: SimulatedAuthorityOptions = {}): Promise<SimulatedAuthority> => {

    const today = options.today ?? new Date().toISOString().slice(0, 10);
    const dataOptions: DataOptions = { ...defaultDataOptions(today), ...options.data, today };
    const secret = randomBytes(32);
    const loginRule = options.login ?? internals.defaultLogin;
    const canRepresent = options.canRepresent ?? ((login: string, cuit: string) => login === cuit || isEntityCuit(cuit));
    const notAdhered = options.notAdhered ?? (() => false);
    const generation = options.csvGeneration ?? 3;
    const pendingPolls = options.pendingPolls ?? 1;
    let failures: SimulatedFailures = { ...options.failures };
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

    const authStates = new Map<string, AuthState>();
    const tickets = new Map<string, string>();                 // login ticket -> CUIT
    const portalSessions = new Map<string, string>();          // portal cookie -> CUIT
    const serviceSessions = new Map<string, ServiceState>();   // service cookie -> state
    const consultas = new Map<number, Consulta>();
    const opened = new Map<string, Set<string>>();             // CUIT -> DFE ids opened
    let nextConsulta = 1000;
    const stats = { requests: 0, logins: 0, detailsOpened: 0, peakInFlight: 0 };
    let inFlight = 0;
    const held = new Set<ServerResponse>();

    const sign = (token: string) => createHmac('sha256', secret).update(token).digest('base64');

    const send = (res: ServerResponse, status: number, body: string | Buffer, type: string, headers: Record<string, string | string[]> = {}) => {

        res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
        res.end(body);
    };

    const html = (res: ServerResponse, body: string, status = 200, headers: Record<string, string | string[]> = {}) => send(res, status, body, 'text/html; charset=utf-8', headers);
    const json = (res: ServerResponse, body: unknown, status = 200) => send(res, status, JSON.stringify(body), 'application/json; charset=utf-8');
    const redirect = (res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}) => {

        res.writeHead(302, { location, 'content-length': 0, ...headers });
        res.end();
    };

    const serviceKeyByEntry = new Map<string, ArcaServiceKey>(Object.entries(arcaServices).map(([key, service]) => [`${arcaHosts[service.host]}${service.entry}`, key as ArcaServiceKey]));
    const landingPath: Record<ArcaServiceKey, string> = {
        mcmp: '/mcmp/jsp/index.do',
        sct: '/sct/index.do',
        ccma: '/ccma/index.do',
        dfe: '/',
        registry: '/padron-puc-constancia-internet/index.do'
    };

    // The service session of this host, if the request carries one.
    const serviceState = (req: IncomingMessage): ServiceState | null => {

        return serviceSessions.get(internals.cookies(req).SIMSVC ?? '') ?? null;
    };

    const allowed = (state: ServiceState, cuit: string | null): boolean => cuit !== null && (cuit === state.cuit || cuit === state.login);

    const dataEndpoint = (host: string, path: string): boolean => {

        return (host === arcaHosts.mcmp && /ajax\.do|descargarComprobantes/.test(path))
            || (host === arcaHosts.sct && path.includes('exportar.do'))
            || (host === arcaHosts.ccma && /resumen\.do|movimientos\.do/.test(path))
            || (host === arcaHosts.dfe && path.startsWith('/api/'))
            || (host === arcaHosts.registry && path.includes('/api/'));
    };

    const malformedBody = (res: ServerResponse, path: string) => {

        if (path.includes('descargar')) {
            return send(res, 200, Buffer.from('PK\u0003\u0004 archivo truncado'), 'application/zip');
        }

        if (path.includes('exportar')) {
            return send(res, 200, 'Error al generar el archivo', 'text/csv; charset=utf-8');
        }

        if (path.endsWith('.do')) {
            return html(res, render.htmlPage('Error', '<p>Se produjo un error inesperado</p>'));
        }

        return send(res, 200, '{"estado":"ok","datos":{"da', 'application/json; charset=utf-8');
    };

    const routes = {
        async auth(req: IncomingMessage, res: ServerResponse, path: string) {

            const cookies = internals.cookies(req);
            if (path === arcaPaths.login && req.method === 'GET') {
                const id = internals.token();
                const state: AuthState = { viewState: `${internals.token()}:-${Math.floor(Math.random() * 1e9)}`, cuit: null, step: 'user' };
                internals.remember(authStates, id, state);
                return html(res, render.loginUserPage(state.viewState), 200, { 'set-cookie': `JSESSIONID=${id}; Path=/contribuyente_; HttpOnly` });
            }

            const state = authStates.get(cookies.JSESSIONID ?? '');
            const form = req.method === 'POST' ? await internals.body(req) : new URLSearchParams();
            if (!state || (req.method === 'POST' && form.get('javax.faces.ViewState') !== state.viewState)) {
                return html(res, render.messagePage('Sesión expirada', 'La sesión ha expirado. Vuelva a ingresar.'), 200);
            }

            if (path === arcaPaths.login && req.method === 'POST') {
                const cuit = (form.get('F1:username') ?? '').replace(/\D/g, '');
                if (chance(failures.captcha)) {
                    return redirect(res, arcaPaths.captcha);
                }

                if (cuit.length !== 11 || isEntityCuit(cuit)) {
                    return html(res, render.loginUserPage(state.viewState, 'Número de CUIT/CUIL incorrecto'));
                }

                state.cuit = cuit;
                state.step = 'password';
                return redirect(res, arcaPaths.loginClave);
            }

            if (path === arcaPaths.loginClave && req.method === 'GET' && state.step === 'password') {
                return html(res, render.loginPasswordPage(state.viewState, state.cuit!));
            }

            if (path === arcaPaths.loginClave && req.method === 'POST' && state.step === 'password') {
                stats.logins++;
                const password = form.get('F1:password') ?? '';
                let outcome = loginRule(state.cuit!, password);
                if (outcome === 'ok' && chance(failures.rejectedKey)) {
                    outcome = 'rejected';
                }

                if (outcome === 'ok' && chance(failures.captcha)) {
                    outcome = 'captcha';
                }

                switch (outcome) {
                    case 'rejected':
                        return html(res, render.loginPasswordPage(state.viewState, state.cuit!, 'Clave o usuario incorrecto'));
                    case 'blocked':
                        return html(res, render.messagePage('Clave bloqueada', 'Su clave se encuentra bloqueada. Comuníquese con ARCA o desbloquéela desde la web.'));
                    case 'expired':
                        return redirect(res, arcaPaths.changeKey);
                    case 'captcha':
                        return redirect(res, arcaPaths.captcha);
                    case 'second_factor':
                        return redirect(res, arcaPaths.secondFactor);
                }

                const ticket = internals.token();
                internals.remember(tickets, ticket, state.cuit!);
                authStates.delete(cookies.JSESSIONID ?? '');
                return redirect(res, `https://${arcaHosts.portal}${arcaPaths.portalApp}?ticket=${ticket}`);
            }

            if (path === arcaPaths.captcha) {
                return html(res, render.captchaPage(state.viewState));
            }

            if (path === arcaPaths.secondFactor) {
                return html(res, render.messagePage('Segundo factor de autenticación', 'Ingresá el código de verificación enviado a tu dispositivo (token de seguridad).'));
            }

            if (path === arcaPaths.changeKey) {
                return html(res, render.messagePage('Cambio de clave', 'Su clave ha expirado. Debe cambiar su clave para continuar.'));
            }

            return html(res, render.messagePage('No encontrado', 'La página solicitada no existe.'), 404);
        },

        portal(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {

            const cookies = internals.cookies(req);
            if (path === arcaPaths.portalApp) {
                const ticket = query.get('ticket');
                const fromTicket = ticket ? tickets.get(ticket) : undefined;
                if (ticket && fromTicket) {
                    tickets.delete(ticket);
                    const session = internals.token();
                    internals.remember(portalSessions, session, fromTicket);
                    return html(res, render.portalPage(fromTicket, internals.name(fromTicket)), 200, { 'set-cookie': `PORTALSESSION=${session}; Path=/; HttpOnly` });
                }

                const cuit = portalSessions.get(cookies.PORTALSESSION ?? '');
                return cuit ? html(res, render.portalPage(cuit, internals.name(cuit))) : redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}`);
            }

            const match = /^\/portal\/api\/servicios\/(\d{11})\/servicio\/([\w-]+)\/autorizacion$/.exec(path);
            if (match && req.method === 'GET') {
                const login = portalSessions.get(cookies.PORTALSESSION ?? '');
                if (!login) {
                    return json(res, { mensaje: 'Sesión inválida' }, 401);
                }

                const [, cuit, service] = match as unknown as [string, string, string];
                if (!canRepresent(login, cuit)) {
                    return json(res, { codigo: 'REPRESENTADO_NO_DISPONIBLE', mensaje: 'El contribuyente representado no se encuentra disponible para el usuario.' }, 403);
                }

                if (notAdhered(cuit, service)) {
                    return json(res, { codigo: 'SERVICIO_NO_ADHERIDO', mensaje: 'El servicio no se encuentra adherido para el CUIT.' }, 403);
                }

                const token = Buffer.from(JSON.stringify({ login, cuit, service, exp: Date.now() + 600_000 })).toString('base64');
                return json(res, { token, sign: sign(token) });
            }

            return json(res, { mensaje: 'No encontrado' }, 404);
        },

        async entry(req: IncomingMessage, res: ServerResponse, host: string, key: ArcaServiceKey) {

            const form = await internals.body(req);
            const token = form.get('token') ?? '';
            if (!token || form.get('sign') !== sign(token)) {
                return html(res, render.messagePage('Acceso denegado', 'Token o firma inválidos.'), 403);
            }

            const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { login: string; cuit: string; service: string; exp: number };
            if (payload.service !== arcaServices[key].name || payload.exp < Date.now()) {
                return html(res, render.messagePage('Acceso denegado', 'Token vencido o de otro servicio.'), 403);
            }

            const session = internals.token();
            internals.remember(serviceSessions, session, { login: payload.login, cuit: payload.cuit, service: key, selected: null });
            return redirect(res, `https://${host}${landingPath[key]}`, { 'set-cookie': `SIMSVC=${session}; Path=/; HttpOnly` });
        },

        landing(res: ServerResponse, key: ArcaServiceKey, state: ServiceState) {

            const people = [...new Set([state.login, state.cuit])].map((cuit) => ({ cuit, name: internals.name(cuit) }));
            switch (key) {
                case 'mcmp':
                    return html(res, render.mcmpIndex(people));
                case 'sct':
                    return html(res, render.selectIndex('Sistema de Cuentas Tributarias', people));
                case 'ccma':
                    return html(res, render.selectIndex('Cuenta Corriente de Monotributistas y Autónomos', people));
                case 'dfe':
                    return html(res, render.htmlPage('e-ventanilla', '<div id="app">Domicilio Fiscal Electrónico</div>'));
                case 'registry':
                    return html(res, render.htmlPage('Constancia de inscripción', '<div id="constancia"></div>'));
            }
        },

        mcmp(res: ServerResponse, path: string, query: URLSearchParams, state: ServiceState) {

            if (path === '/mcmp/jsp/setearContribuyente.do') {
                const people = [...new Set([state.login, state.cuit])];
                const chosen = people[Number(query.get('idContribuyente'))];
                if (!chosen) {
                    return html(res, render.messagePage('Mis Comprobantes', 'El contribuyente seleccionado no se encuentra disponible.'));
                }

                state.selected = chosen;
                return html(res, render.htmlPage('Mis Comprobantes', `<div id="menu">Contribuyente: ${chosen}</div>`));
            }

            if (path === '/mcmp/jsp/ajax.do') {
                const f = query.get('f');
                if (!state.selected) {
                    return json(res, { estado: 'error', mensajes: ['Debe seleccionar un contribuyente'] });
                }

                if (f === 'generarConsulta') {
                    const [from, to] = (query.get('fechaEmision') ?? '').split(' - ').map(internals.parseDmy);
                    const t = query.get('t');
                    if (!from || !to || from > to || (t !== 'E' && t !== 'R')) {
                        return json(res, { estado: 'error', mensajes: ['Parámetros de consulta inválidos'] });
                    }

                    if ((Date.parse(to) - Date.parse(from)) / internals.dayMs > 364) {
                        return json(res, { estado: 'error', mensajes: ['El rango de fechas no puede superar los 365 días'] });
                    }

                    const id = nextConsulta++;
                    internals.remember(consultas, id, { cuit: state.selected, kind: t === 'E' ? 'issued' : 'received', range: { fromDate: from, toDate: to }, estimated: false, pending: pendingPolls });
                    return json(res, { estado: 'ok', datos: { idConsulta: id } });
                }

                const consulta = consultas.get(Number(query.get('id')));
                if (!consulta || consulta.cuit !== state.selected) {
                    return json(res, { estado: 'error', mensajes: ['Consulta inexistente'] });
                }

                const rows = invoicesIn(taxpayer(consulta.cuit)[consulta.kind], consulta.range);
                if (f === 'estimarResultados') {
                    consulta.estimated = true;
                    return json(res, { estado: 'ok', datos: { serverSide: true, cantidad: rows.length } });
                }

                if (f === 'listaResultados') {
                    if (!consulta.estimated || consulta.pending > 0) {
                        if (consulta.estimated) {
                            consulta.pending--;
                        }

                        return json(res, { estado: 'ok', recordsTotal: 0, recordsFiltered: 0, datos: { consulta: { idConsulta: Number(query.get('id')), estado: consulta.estimated ? 'PR' : 'PE' }, data: [] } });
                    }

                    const start = Math.max(0, Number(query.get('start') ?? 0) || 0);
                    const length = Math.min(500, Math.max(1, Number(query.get('length') ?? 100) || 100));
                    const page = rows.slice(start, start + length).map((invoice) => render.invoiceRow(invoice, consulta.kind, consulta.cuit));
                    return json(res, { estado: 'ok', recordsTotal: rows.length, recordsFiltered: rows.length, datos: { consulta: { idConsulta: Number(query.get('id')), estado: 'TE' }, data: page } });
                }

                return json(res, { estado: 'error', mensajes: ['Función desconocida'] });
            }

            if (path === '/mcmp/jsp/descargarComprobantes.do') {
                const id = Number(query.get('id'));
                const consulta = consultas.get(id);
                if (!consulta || consulta.cuit !== state.selected || !consulta.estimated || consulta.pending > 0 || query.get('tf') !== 'csv') {
                    return html(res, render.messagePage('Mis Comprobantes', 'La consulta no está disponible para descargar.'), 404);
                }

                const rows = invoicesIn(taxpayer(consulta.cuit)[consulta.kind], consulta.range);
                const stamp = `${today.replace(/-/g, '')}-1200`;
                const name = `comprobantes_consulta_csv_${consulta.kind === 'issued' ? 'emitidos' : 'recibidos'}_${id}_${consulta.cuit}_${stamp}.csv`;
                const zip = writeZip([{ name, data: Buffer.from(render.invoicesCsv(rows, consulta.kind, generation, consulta.cuit), 'utf8') }]);
                return send(res, 200, zip, 'application/zip', { 'content-disposition': `attachment; filename="${name.replace(/\.csv$/, '.zip')}"` });
            }

            return html(res, render.messagePage('No encontrado', 'La página solicitada no existe.'), 404);
        },

        data(req: IncomingMessage, res: ServerResponse, key: ArcaServiceKey, path: string, query: URLSearchParams, state: ServiceState) {

            const cuit = query.get('cuit');
            if (!allowed(state, cuit)) {
                return key === 'sct' || key === 'ccma'
                    ? html(res, render.messagePage('Acceso denegado', 'El contribuyente representado no se encuentra disponible.'), 403)
                    : json(res, { mensaje: 'El contribuyente representado no se encuentra disponible.' }, 403);
            }

            const data = taxpayer(cuit!);
            if (key === 'sct' && path === '/sct/exportar.do') {
                const block = query.get('bloque');
                if (block !== 'deudas' && block !== 'vencimientos' && block !== 'ddjj') {
                    return html(res, render.messagePage('SCT', 'Bloque desconocido.'), 404);
                }

                return send(res, 200, render.sctExport(data.sct, block), 'text/csv; charset=utf-8', { 'content-disposition': `attachment; filename="${block}.csv"` });
            }

            if (key === 'ccma' && path === '/ccma/resumen.do') {
                return html(res, render.ccmaSummaryPage(data.ccma.balances, data.ccma.movements.length > 0));
            }

            if (key === 'ccma' && path === '/ccma/movimientos.do') {
                return html(res, render.ccmaMovementsPage(data.ccma.movements));
            }

            if (key === 'dfe' && path === '/api/v1/communications' && req.method === 'GET') {
                const since = Number(query.get('fechaPublicacionSince') ?? 0);
                const to = Number(query.get('fechaPublicacionTo') ?? Number.MAX_SAFE_INTEGER);
                const size = Math.min(100, Math.max(1, Number(query.get('resultadosPorPagina') ?? 20) || 20));
                const pagina = Math.max(1, Number(query.get('pagina') ?? 1) || 1);
                const readIds = opened.get(cuit!) ?? new Set<string>();
                const list = data.notifications.filter((item) => {

                    const at = Date.parse(item.fechaRecepcion);
                    return at >= since && at <= to;
                });
                const items = list.slice((pagina - 1) * size, pagina * size).map((item) => render.communication(item, item.readAtAuthority || readIds.has(item.arcaId)));
                return json(res, { comunicaciones: items, pagina, totalPaginas: Math.max(1, Math.ceil(list.length / size)), totalItems: list.length });
            }

            if (key === 'registry' && path === '/padron-puc-constancia-internet/api/constancia') {
                return json(res, render.constancia(cuit!, data.registry, data.entity));
            }

            return json(res, { mensaje: 'No encontrado' }, 404);
        }
    };

    const handle = async (req: IncomingMessage, res: ServerResponse) => {

        stats.requests++;
        const url = new URL(req.url ?? '/', 'http://simulated');
        const [, first = '', ...rest] = url.pathname.split('/');
        const byPrefix = isArcaHost(first);
        const host = byPrefix ? first : (req.headers.host ?? '').replace(/:\d+$/, '');
        const path = byPrefix ? `/${rest.join('/')}` : url.pathname;
        const query = url.searchParams;

        if (options.latencyMs) {
            await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
        }

        if (chance(failures.timeout)) {
            held.add(res);
            setTimeout(() => {

                held.delete(res);
                res.destroy();
            }, options.timeoutHoldMs ?? 60_000).unref();
            return;
        }

        if (chance(failures.serverError)) {
            return Math.random() < 0.5
                ? html(res, render.messagePage('Servicio no disponible', 'El sistema se encuentra en mantenimiento. Intente más tarde.'), 503)
                : html(res, render.messagePage('Error', 'Internal Server Error'), 500);
        }

        if (host === arcaHosts.auth) {
            return routes.auth(req, res, path);
        }

        if (host === arcaHosts.portal) {
            return routes.portal(req, res, path, query);
        }

        const entry = serviceKeyByEntry.get(`${host}${path}`);
        if (entry && req.method === 'POST') {
            return routes.entry(req, res, host, entry);
        }

        const state = serviceState(req);
        const key = state?.service as ArcaServiceKey | undefined;
        if (!state || !key || arcaHosts[arcaServices[key].host] !== host) {
            return html(res, render.messagePage('Sesión expirada', 'Debe ingresar nuevamente desde el portal.'), 401);
        }

        if (path === landingPath[key]) {
            return routes.landing(res, key, state);
        }

        if (dataEndpoint(host, path) && chance(failures.malformed)) {
            return malformedBody(res, path);
        }

        if (key === 'dfe' && /^\/api\/v1\/communications\/\d+$/.test(path)) {
            // Opening the detail marks the communication read, as the real one does.
            const id = path.split('/').pop()!;
            const cuit = query.get('cuit') ?? state.cuit;
            const set = opened.get(cuit) ?? new Set<string>();
            set.add(id);
            opened.set(cuit, set);
            stats.detailsOpened++;
            const item = taxpayer(cuit).notifications.find((candidate) => candidate.arcaId === id);
            return item ? json(res, { ...render.communication(item, true), cuerpo: 'Detalle de la comunicación' }) : json(res, { mensaje: 'No encontrada' }, 404);
        }

        if (key === 'mcmp') {
            return routes.mcmp(res, path, query, state);
        }

        return routes.data(req, res, key, path, query, state);
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
            return {
                ...data,
                invoicesIn: (kind, range) => invoicesIn(data[kind], range),
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

        stats: () => ({ ...stats, serviceSessions: serviceSessions.size }),
        detailsOpened: (cuit) => [...(opened.get(cuit) ?? [])],
        setFailures(next) {

            failures = { ...next };
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
