import { arcaHosts, arcaPaths, arcaServices } from '../hosts.js';
import { simulatedBillingMeter } from './meter.js';
import type { Taxpayer } from './pages.js';
import { escapeHtml, htmlPage, messagePage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, formOf, html, json, redirect } from './reply.js';
import { enterService } from './service-entry.js';
import type { SimulatedState } from './state.js';

// The monotributo dashboard (monotributo.afip.gob.ar, service admin_mono, ASP.NET): default.aspx
// takes the token/sign and goes to SelecRepresentado.aspx, which answers a key that reaches
// several taxpayers with a grid (ctl00$ContentPlaceHolder1$hID + btnAcceder, with the page's
// __VIEWSTATE) and sends a key of one taxpayer straight to Inicio.aspx. Inicio.aspx without a
// choice falls on Error.aspx; with one it shows "Categoría X …", spanFacturometroCategoria and
// hidCUITContribuyente; its page method Inicio.aspx/CalcularFacturacion answers the meter
// (meter.ts). The first page of a session takes `monotributoWarmUpMs` (the real one
// warms up in 30–45 s).

interface MonotributoState { login: string; viewState: string; selected: string | null; warm: boolean }

const internals = {
    base: '/app/',
    hid: 'ctl00$ContentPlaceHolder1$hID'
};

const monotributoGrid = (taxpayers: readonly Taxpayer[], viewState: string): string => htmlPage('Monotributo - Selección de representado', `
<form method="post" action="./SelecRepresentado.aspx" id="form1">
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="${viewState}" />
<input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="5C8E4F2A" />
<input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="${viewState.split('').reverse().join('')}" />
<input type="hidden" name="${internals.hid}" id="ContentPlaceHolder1_hID" value="" />
<table id="ContentPlaceHolder1_gvRepresentados" class="grid">
<tr><th>CUIT</th><th>Apellido y nombre / Razón social</th></tr>
${taxpayers.map((taxpayer) => `<tr><td><a href="#" usr="${taxpayer.cuit}" onclick="document.getElementById('ContentPlaceHolder1_hID').value='${taxpayer.cuit}';document.getElementById('ContentPlaceHolder1_btnAcceder').click();">${taxpayer.cuit}</a></td><td>${escapeHtml(taxpayer.name)}</td></tr>`).join('\n')}
</table>
<input type="submit" name="ctl00$ContentPlaceHolder1$btnAcceder" value="Acceder" id="ContentPlaceHolder1_btnAcceder" style="display:none" />
</form>`);

const monotributoDashboard = (taxpayer: Taxpayer, categoria: string | null): string => htmlPage('Monotributo', `
<form method="post" action="./Inicio.aspx" id="form1">
<input type="hidden" name="ctl00$hidCUITContribuyente" id="hidCUITContribuyente" value="${taxpayer.cuit}" />
<div class="panel"><h2>${escapeHtml(taxpayer.name)}</h2>
${categoria ? `<div id="panelCategoria"><strong>Categoría ${categoria} Locaciones de servicios</strong></div>\n<div id="divFacturometro"><span id="spanFacturometroCategoria">${categoria}</span></div>` : '<div id="panelCategoria">Sin categoría asignada</div>'}
</div></form>`);

export const monotributoRoutes = (state: SimulatedState): Route => {

    const sessions = state.sessions<MonotributoState>('monotributo');
    const warmUpMs = state.options.monotributoWarmUpMs ?? 0;

    return async (req, res, path) => {

        if (path === arcaServices.monotributo.entry && req.method === 'POST') {
            return enterService(state, req, res, { service: arcaServices.monotributo.name, sessions, session: (login) => ({ login, viewState: state.token(), selected: null, warm: false }), location: `${internals.base}SelecRepresentado.aspx`, cookie: (id) => `ASP.NET_SessionId=${id}; path=/; HttpOnly` });
        }

        const mono = sessions.get(cookiesOf(req)['ASP.NET_SessionId'] ?? '');
        if (!mono) {
            return html(res, messagePage('Monotributo', 'Su sesión ha finalizado.'));
        }

        if (!mono.warm && warmUpMs) {
            await new Promise((resolve) => setTimeout(resolve, warmUpMs));
        }

        mono.warm = true;
        const people = state.reach(mono.login);
        if (path === `${internals.base}SelecRepresentado.aspx`) {
            if (people.length === 1) {
                mono.selected = mono.login;
                return redirect(res, `${internals.base}Inicio.aspx`);
            }

            if (req.method === 'POST') {
                const form = await formOf(req);
                const wanted = form.get(internals.hid) ?? '';
                if (form.get('__VIEWSTATE') === mono.viewState && people.some((person) => person.cuit === wanted)) {
                    mono.selected = wanted;
                    return redirect(res, `${internals.base}Inicio.aspx`);
                }
            }

            return html(res, monotributoGrid(people, mono.viewState));
        }

        if (path === `${internals.base}Inicio.aspx` && mono.selected) {
            state.read({ host: arcaHosts.monotributo, cuit: mono.selected, what: 'categoria' });
            return html(res, monotributoDashboard({ cuit: mono.selected, name: state.name(mono.selected) }, state.taxpayer(mono.selected).registry.categoria));
        }

        // The dashboard's meter (an ASP.NET page method): JSON, for the taxpayer chosen.
        if (path === arcaPaths.meter && req.method === 'POST' && mono.selected) {
            state.read({ host: arcaHosts.monotributo, cuit: mono.selected, what: 'CalcularFacturacion' });
            return json(res, simulatedBillingMeter(state.taxpayer(mono.selected), state.today));
        }

        if (path === `${internals.base}Error.aspx`) {
            return html(res, messagePage('Monotributo', 'Se produjo un error. Ingrese nuevamente desde el portal.'));
        }

        return redirect(res, `${internals.base}Error.aspx`);
    };
};
