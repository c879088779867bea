import type { AuthorityNotification } from '../../../core/ports/authority-client.js';
import { logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import type { HttpSession, TransportClock } from './http.js';
import { openService } from './services.js';

// DFE through e-ventanilla (ve.cloud.afip.gob.ar, docs/authority.md): only the LIST
// GET /api/v1/communications?cuit=&fechaPublicacionSince=YYYY-MM-DD&fechaPublicacionTo=YYYY-MM-DD;
// items carry epoch-ms dates and estado 1 unread / 2 read. The detail
// /api/v1/communications/{id} (and /eventos, attachments) is NEVER requested: it marks the
// message read and starts legal deadlines. unknown: paging and how a represented CUIT is
// asked for (this client passes it as `cuit`). A list is never cut short silently: if the
// answer says there is more (totalPaginas, a total above what came, hasMore), the next
// `pagina` is asked for, and a page that brings nothing new is an error.

interface Communication {
    idComunicacion?: unknown;
    organismoDesc?: unknown;
    fechaPublicacion?: unknown;
    fechaNotificacion?: unknown;
    estado?: unknown;
    tipo?: unknown;
    clasificacion?: unknown;
    asunto?: unknown;
    mensaje?: unknown;
    sistemaPublicadorDesc?: unknown;
}

type Page = Record<string, unknown> & { comunicaciones?: unknown };

const internals = {
    maxPages: 100,

    instant(value: unknown, what: string): string | null {

        if (value === null || value === undefined || value === '') {
            return null;
        }

        const ms = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : Date.parse(String(value));
        if (!Number.isFinite(ms)) {
            throw failure('unexpected_page', `DFE: ${what} ilegible`);
        }

        return new Date(ms).toISOString();
    },

    read(estado: unknown): boolean {

        const text = String(estado ?? '').normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
        if (text === '2' || text === 'leida') {
            return true;
        }

        if (text === '1' || text === 'no leida' || text === 'no_leida') {
            return false;
        }

        throw failure('unexpected_page', `DFE: estado desconocido ${JSON.stringify(text.slice(0, 20))}`);
    },

    text(value: unknown): string | null {

        return value === null || value === undefined || String(value).trim() === '' ? null : String(value).trim();
    },

    notification(item: Communication): AuthorityNotification {

        const arcaId = internals.text(item.idComunicacion);
        const fechaRecepcion = internals.instant(item.fechaPublicacion, 'fechaPublicacion');
        if (!arcaId || !fechaRecepcion) {
            throw failure('unexpected_page', 'DFE: comunicación sin id o fecha');
        }

        return {
            arcaId,
            tipo: internals.text(item.tipo ?? item.clasificacion ?? item.sistemaPublicadorDesc),
            asunto: internals.text(item.asunto ?? item.mensaje) ?? '',
            organismo: internals.text(item.organismoDesc),
            fechaRecepcion,
            fechaNotificacion: internals.instant(item.fechaNotificacion, 'fechaNotificacion'),
            readAtAuthority: internals.read(item.estado)
        };
    },

    number(page: Page, ...names: string[]): number | null {

        for (const name of names) {
            const value = Number(page[name]);
            if (page[name] !== undefined && page[name] !== null && Number.isFinite(value)) {
                return value;
            }
        }

        return null;
    },

    ymd: (ms: number) => new Date(ms).toISOString().slice(0, 10)
};

const parseCommunications = (body: unknown): AuthorityNotification[] => {

    const page = body as Page | null;
    if (!page || !Array.isArray(page.comunicaciones)) {
        throw failure('unexpected_page', 'DFE: respuesta sin comunicaciones');
    }

    return (page.comunicaciones as Communication[]).map(internals.notification);
};

export const createDfe = (http: HttpSession, loginCuit: string, options: { lookbackDays: number; clock: TransportClock }) => {

    let opened = false;

    return {
        async notifications(cuit: string): Promise<AuthorityNotification[]> {

            if (!opened) {
                await openService(http, loginCuit, 'dfe');
                opened = true;
            }

            const to = options.clock.now();
            const since = to - options.lookbackDays * 86_400_000;
            const byId = new Map<string, AuthorityNotification>();
            for (let pagina = 1; ; ++pagina) {
                const query = new URLSearchParams({ cuit, fechaPublicacionSince: internals.ymd(since), fechaPublicacionTo: internals.ymd(to) });
                if (pagina > 1) {
                    query.set('pagina', String(pagina));
                }

                const page = await http.request({ url: logicalUrl('dfe', `/api/v1/communications?${query.toString()}`), accept: 'application/json, text/plain, */*', referer: logicalUrl('dfe', '/index.html') }, (response) => {

                    if (response.status === 401 || response.status === 403) {
                        throw failure(response.status === 403 ? 'represented_unavailable' : 'session_expired', `e-ventanilla ${cuit}`);
                    }

                    const body = response.json() as Page | undefined;
                    if (response.status !== 200 || !body || !Array.isArray(body.comunicaciones)) {
                        throw http.unexpected(response, 'dfe', 'communications', `HTTP ${response.status}, sin comunicaciones`);
                    }

                    return body;
                });

                const before = byId.size;
                for (const item of parseCommunications(page)) {
                    byId.set(item.arcaId, item);
                }

                const pages = internals.number(page, 'totalPaginas', 'totalPages');
                const total = internals.number(page, 'totalItems', 'total', 'totalElements', 'cantidadTotal', 'totalRegistros');
                const more = (pages !== null && pagina < pages) || (total !== null && byId.size < total) || page.hasMore === true || page.last === false;
                if (!more) {
                    break;
                }

                if ((pagina > 1 && byId.size === before) || pagina >= internals.maxPages) {
                    throw failure('unexpected_page', `DFE: la lista dice tener más comunicaciones (${total ?? pages ?? '?'}) y no se pudieron traer`);
                }
            }

            return [...byId.values()];
        }
    };
};
