import type { SctData } from '../../../core/domain/sct.js';
import { arcaHosts, arcaPaths, arcaServices } from '../hosts.js';
import type { Taxpayer } from './pages.js';
import { escapeHtml, htmlPage, messagePage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, formOf, html, json, redirect } from './reply.js';
import { enterService } from './service-entry.js';
import type { SimulatedState } from './state.js';

// Sistema de Cuentas Tributarias (ctacte.cloud.afip.gob.ar): the landing holds the iframe
// homeContribuyente, whose page has the Tapestry selector $PropertySelection; rest-access's
// getDeudas, getVencimientos and getFaltasPresentacion answer for the CUIT chosen there,
// whatever CUIT the request names.

interface SctState { login: string; selected: string | null }

export const ctacteHome = (): string => htmlPage('Sistema de Cuentas Tributarias', '<div id="cabecera">Cuentas Tributarias</div><iframe name="homeContribuyente" id="homeContribuyente" src="/contribuyente/app/homeContribuyente.html" width="100%" height="800"></iframe>');

export const ctacteSelector = (taxpayers: readonly Taxpayer[], selected: number): string => htmlPage('Estado de cuenta', `
<form method="post" action="/contribuyente/app" name="Form0" id="Form0">
<input type="hidden" name="formids" value="$PropertySelection" />
<input type="hidden" name="service" value="direct/1/HomeContribuyente/$Form" />
<input type="hidden" name="sp" value="S0" />
<input type="hidden" name="submitmode" value="" />
<select name="$PropertySelection" id="$PropertySelection" onchange="this.form.submit();">
${taxpayers.map((taxpayer, index) => `<option value="${index}"${index === selected ? ' selected="selected"' : ''}>${taxpayer.cuit}</option>`).join('\n')}
</select>
</form>
<div id="contenido">Estado de cuenta de ${escapeHtml(taxpayers[selected]?.name ?? '')}</div>`);

const ctacteItem = (item: { impuesto: string; concepto: string; subconcepto: string; periodo: string; antCuota: string; vencimiento: string | null }, establishments: boolean, establecimiento?: string) => ({
    ...(establishments ? { establecimientoView: establecimiento ?? '' } : {}),
    impuestoView: item.impuesto,
    conceptoView: item.concepto,
    subconceptoView: item.subconcepto,
    periodoFiscal: `${item.periodo}00`,
    anticipocuota: item.antCuota,
    fechaVencimiento: item.vencimiento === null ? null : item.vencimiento.slice(0, 10)
});

// A single result comes as an object, not a list; none as ''.
const oneOrMany = <T>(list: T[]): T[] | T | '' => (list.length === 0 ? '' : list.length === 1 ? list[0]! : list);

export const ctacteAnswer = (method: string, sct: SctData & { establishments: boolean }): unknown => {

    let data: unknown;
    if (method === 'getDeudas') {
        const list = oneOrMany(sct.deuda.map((debt) => ({ ...ctacteItem(debt, sct.establishments, debt.establecimiento), importe: debt.saldo, importeInteresesResarcitorios: debt.intResarcitorios, importeInteresesPunitorios: debt.intPunitorios })));
        data = list === '' ? '' : { deuda: list };
    }
    else if (method === 'getVencimientos') {
        const list = oneOrMany(sct.vencimientos.map((due) => ({ ...ctacteItem(due, false), descripcion: due.detalle })));
        data = list === '' ? '' : { vencimiento: list };
    }
    else {
        const list = oneOrMany(sct.ddjj.map((ret) => ctacteItem(ret, sct.establishments, ret.establecimiento)));
        data = list === '' ? '' : { deuda: list };
    }

    return { 'afip.dit.sct.restaccessCommon.model.Respuesta': { data, status: { tipoEstado: 'SUCCESS' } } };
};

export const sctRoutes = (state: SimulatedState): Route => {

    const sessions = state.sessions<SctState>('sct');

    return async (req, res, path, query) => {

        if (path === arcaServices.sct.entry && req.method === 'POST') {
            return enterService(state, req, res, { service: arcaServices.sct.name, sessions, session: (login) => ({ login, selected: login }), location: '/contribuyente/', cookie: (id) => `JSESSIONID=${id}; Path=/contribuyente; Secure; HttpOnly` });
        }

        const sct = sessions.get(cookiesOf(req).JSESSIONID ?? '');
        if (!sct) {
            return redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}`);
        }

        const people = state.reach(sct.login);
        if (path === '/contribuyente/') {
            return html(res, ctacteHome());
        }

        if (path === '/contribuyente/app/homeContribuyente.html' || (path === '/contribuyente/app' && req.method === 'POST')) {
            if (req.method === 'POST') {
                const chosen = people[Number((await formOf(req)).get('$PropertySelection') ?? '-1')];
                if (chosen) {
                    sct.selected = chosen.cuit;
                }
            }

            return html(res, ctacteSelector(people, people.findIndex((p) => p.cuit === sct.selected)));
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
            state.read({ host: arcaHosts.ctacte, cuit: sct.selected!, what: `sct ${method}` });
            return json(res, ctacteAnswer(method, state.taxpayer(sct.selected!).sct));
        }

        return html(res, messagePage('No encontrado', 'La página solicitada no existe.'), 404);
    };
};
