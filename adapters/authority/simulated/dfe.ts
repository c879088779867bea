import type { AuthorityNotification } from '../../../core/ports/authority-client.js';
import { arcaHosts, arcaServices } from '../hosts.js';
import { htmlPage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, html, json } from './reply.js';
import { enterService } from './service-entry.js';
import type { SimulatedState } from './state.js';

// e-ventanilla (ve.cloud.afip.gob.ar), the DFE: /login takes the token/sign; the list
// /api/v1/communications takes dates as YYYY-MM-DD and answers `comunicaciones` with epoch-ms
// dates and estado 1 unread / 2 read (paged when `dfePageSize` is set). Opening a detail,
// /api/v1/communications/{id}, marks it read, as the real one does: counted, so tests can
// prove the client never does it.

const communication = (notification: AuthorityNotification, read: boolean) => ({
    idComunicacion: Number(notification.arcaId),
    cuitDestinatario: null,
    organismoDesc: notification.organismo,
    fechaPublicacion: Date.parse(notification.fechaRecepcion),
    fechaVencimiento: null,
    fechaNotificacion: notification.fechaNotificacion === null ? null : Date.parse(notification.fechaNotificacion),
    sistemaPublicadorDesc: 'DFE',
    estado: read ? 2 : 1,
    estadoDesc: read ? 'Leída' : 'No leída',
    prioridad: 2,
    tieneAdjunto: false,
    tipo: notification.tipo,
    asunto: notification.asunto,
    mensaje: notification.asunto
});

export const dfeRoutes = (state: SimulatedState): Route => {

    const sessions = state.sessions<string>('dfe');
    const pageSize = state.options.dfePageSize ?? null;

    return async (req, res, path, query) => {

        if (path === arcaServices.dfe.entry && req.method === 'POST') {
            return enterService(state, req, res, { service: arcaServices.dfe.name, sessions, session: (login) => login, location: '/index.html', cookie: (id) => `JSESSIONID=${id}; Path=/; Secure; HttpOnly` });
        }

        const login = sessions.get(cookiesOf(req).JSESSIONID ?? '');
        if (!login) {
            return json(res, { error: 'no autenticado' }, 401);
        }

        if (path === '/index.html') {
            return html(res, htmlPage('e-ventanilla', '<div id="app">Domicilio Fiscal Electrónico</div>'));
        }

        const detail = /^\/api\/v1\/communications\/(\d+)/.exec(path);
        const cuit = query.get('cuit') ?? login;
        if (!state.reaches(login, cuit)) {
            return json(res, { error: 'no autorizado' }, 403);
        }

        if (detail) {
            const set = state.opened.get(cuit) ?? new Set<string>();
            set.add(detail[1]!);
            state.opened.set(cuit, set);
            state.stats.detailsOpened++;
            const item = state.taxpayer(cuit).notifications.find((candidate) => candidate.arcaId === detail[1]);
            return item ? json(res, {
                comunicacion: { ...communication(item, true), cuerpo: 'Detalle de la comunicación' }
            }) : json(res, { error: 'no encontrada' }, 404);
        }

        if (path === '/api/v1/communications' && req.method === 'GET') {
            const since = query.get('fechaPublicacionSince') ?? '';
            const to = query.get('fechaPublicacionTo') ?? '';
            if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) {
                return json(res, { error: 'Formato de fecha inválido' }, 400);
            }

            state.read({ host: arcaHosts.dfe, cuit, what: 'dfe' });
            const readIds = state.opened.get(cuit) ?? new Set<string>();
            const list = state.taxpayer(cuit).notifications.filter(
                (item) => item.fechaRecepcion.slice(0, 10) >= since && item.fechaRecepcion.slice(0, 10) <= to
            );
            const items = list.map((item) => communication(item, item.readAtAuthority || readIds.has(item.arcaId)));
            if (!pageSize) {
                return json(res, { comunicaciones: items });
            }

            const pagina = Math.max(1, Number(query.get('pagina') ?? 1) || 1);
            return json(res, {
                comunicaciones: items.slice((pagina - 1) * pageSize, pagina * pageSize),
                pagina,
                totalPaginas: Math.max(1, Math.ceil(items.length / pageSize)),
                totalItems: items.length
            });
        }

        return json(res, { error: 'no encontrado' }, 404);
    };
};
