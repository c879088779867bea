import { arcaHosts, arcaServices } from '../hosts.js';
import { escapeHtml, htmlPage, messagePage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, html } from './reply.js';
import { enterService } from './service-entry.js';
import type { SimulatedState } from './state.js';

// The monotributo dashboard (service admin_mono): its Inicio.aspx shows "Categoría X".

export const monotributoDashboard = (name: string, categoria: string | null): string => htmlPage('Monotributo', `
<div class="panel"><h2>${escapeHtml(name)}</h2>
${categoria ? `<div id="panelCategoria"><strong>Categoría ${categoria} Locaciones de servicios</strong></div>` : '<div id="panelCategoria">Sin categoría asignada</div>'}
</div>`);

export const monotributoRoutes = (state: SimulatedState): Route => {

    const sessions = state.sessions<string>('monotributo');

    return async (req, res, path) => {

        if (path === arcaServices.monotributo.entry && req.method === 'POST') {
            return enterService(state, req, res, { service: arcaServices.monotributo.name, sessions, session: (login) => login, location: '/app/Inicio.aspx', cookie: (id) => `ASP.NET_SessionId=${id}; path=/; HttpOnly` });
        }

        const login = sessions.get(cookiesOf(req)['ASP.NET_SessionId'] ?? '');
        if (!login || path !== '/app/Inicio.aspx') {
            return html(res, messagePage('Monotributo', 'Su sesión ha finalizado.'), login ? 404 : 200);
        }

        state.read({ host: arcaHosts.monotributo, cuit: login, what: 'categoria' });
        return html(res, monotributoDashboard(state.name(login), state.taxpayer(login).registry.categoria));
    };
};
