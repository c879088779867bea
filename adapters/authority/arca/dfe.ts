import type { AuthorityCredentials, AuthorityNotification } from '../../../core/ports/authority-client.js';
import { logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import type { HttpSession } from './http.js';
import { openService } from './services.js';

// DFE through e-ventanilla (service e-ventanilla, host ve.cloud.afip.gob.ar): only the LIST
// GET /api/v1/communications?cuit=&fechaPublicacionSince=&fechaPublicacionTo= (epoch ms),
// page by page when the answer says it has pages. The detail endpoint
// /api/v1/communications/{id} is NEVER called: opening an unread communication marks it read
// at the authority and starts legal deadlines.

interface Communication {
    idComunicacion?: unknown;
    organismoDesc?: unknown;
    fechaPublicacion?: unknown;
    fechaNotificacion?: unknown;
    estado?: unknown;
    estadoDesc?: unknown;
    tipo?: unknown;
    clasificacion?: unknown;
    asunto?: unknown;
    mensaje?: unknown;
}

interface CommunicationsPage {
    comunicaciones?: unknown;
    pagina?: unknown;
    totalPaginas?: unknown;
}

const internals = {
    pageSize: 100,
    maxPages: 1000,

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

    // 2 / "2" / "LEIDA" / "leída" / "read" are read; 1 / "NO_LEIDA" / "unread" are not.
    read(estado: unknown): boolean {

        const text = String(estado ?? '').normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
        if (text === '2' || text === 'leida' || text === 'read' || text === 'leido') {
            return true;
        }

        if (text === '1' || text === 'no_leida' || text === 'no leida' || text === 'unread' || text === 'noleida') {
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
            tipo: internals.text(item.tipo ?? item.clasificacion),
            asunto: internals.text(item.asunto ?? item.mensaje) ?? '',
            organismo: internals.text(item.organismoDesc),
            fechaRecepcion,
            fechaNotificacion: internals.instant(item.fechaNotificacion, 'fechaNotificacion'),
            readAtAuthority: internals.read(item.estado)
        };
    }
};

export const parseCommunications = (body: unknown): { items: AuthorityNotification[]; totalPages: number } => {

    const page = body as CommunicationsPage | null;
    if (!page || !Array.isArray(page.comunicaciones)) {
        throw failure('unexpected_page', 'DFE: respuesta sin comunicaciones');
    }

    const totalPages = Number(page.totalPaginas ?? 1);
    return { items: (page.comunicaciones as Communication[]).map(internals.notification), totalPages: Number.isInteger(totalPages) && totalPages > 0 ? totalPages : 1 };
};

export const createDfe = (http: HttpSession, credentials: AuthorityCredentials, options: { lookbackDays: number; now: () => Date }) => {

    return {
        async notifications(): Promise<AuthorityNotification[]> {

            await openService(http, credentials, 'dfe');
            const to = options.now().getTime();
            const since = to - options.lookbackDays * 86_400_000;
            const result: AuthorityNotification[] = [];
            for (let pagina = 1, totalPages = 1; pagina <= totalPages && pagina <= internals.maxPages; ++pagina) {
                const query = new URLSearchParams({
                    cuit: credentials.representedCuit,
                    fechaPublicacionSince: String(since),
                    fechaPublicacionTo: String(to),
                    pagina: String(pagina),
                    resultadosPorPagina: String(internals.pageSize)
                });
                const page = await http.request({ url: logicalUrl('dfe', `/api/v1/communications?${query.toString()}`), accept: 'application/json' }, (response) => {

                    if (response.status === 403) {
                        throw failure('represented_unavailable', 'e-ventanilla');
                    }

                    if (response.status !== 200) {
                        throw failure('unexpected_page', `DFE: HTTP ${response.status}`);
                    }

                    return parseCommunications(response.json());
                });
                result.push(...page.items);
                totalPages = page.totalPages;
            }

            return result;
        }
    };
};
