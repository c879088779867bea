import type { SctData } from '../../../core/domain/sct.js';
import { arcaHosts, arcaPaths, arcaServices } from '../hosts.js';
import type { Taxpayer } from './pages.js';
import { escapeHtml, htmlPage, messagePage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, formOf, html, json, redirect } from './reply.js';
import { enterService } from './service-entry.js';
import type { SimulatedState } from './state.js';

// Sistema de Cuentas Tributarias (ctacte.cloud.afip.gob.ar, portal system
// cuenta_corriente_contrib): /contribuyente/externo takes the token/sign; a visit without a
// session bounces to the login with action=SYSTEM&system=cuenta_corriente_contrib. The landing
// holds the iframe homeContribuyente, whose page has the Tapestry selector $PropertySelection
// (values are indices, labels the CUIT) when the key reaches several taxpayers, opened on
// whoever was chosen last (in any session of that key); none for a key of one taxpayer.
// rest-access's getDeudas, getVencimientos and getFaltasPresentacion answer for the CUIT chosen
// there, whatever CUIT the request names, each in its own shape: debts with *View fields, due
// dates with desc* and tipoOperacion, missing returns with numeric codes, desc* and a 4-digit
// period; a single item as an object, none as data ''.

interface SctState { login: string }

const internals = {
    service: 'afip.dit.sct.homeContribuyenteView.services.HomeContribuyenteViewService',
    wrapper: 'afip.dit.sct.restaccessCommon.model.Respuesta',
    methods: ['getDeudas', 'getVencimientos', 'getFaltasPresentacion'],

    // "30 - IVA" -> [30, "IVA"]; a description alone has no code.
    split(named: string): [number | null, string] {

        const match = /^(\d+)\s*-\s*(.*)$/.exec(named);
        return match ? [Number(match[1]), match[2]!] : [null, named];
    },

    dateTime: (iso: string | null) => (iso === null ? null : `${iso.slice(0, 10)} 00:00:00`),

    // A single result comes as an object, not a list; none as ''.
    oneOrMany<T>(list: T[]): T[] | T | '' {

        return list.length === 0 ? '' : list.length === 1 ? list[0]! : list;
    }
};

const ctacteHome = (): string => htmlPage(
    'Sistema de Cuentas Tributarias',
    '<div id="cabecera">Cuentas Tributarias</div><iframe name="homeContribuyente" id="homeContribuyente" src="/contribuyente/app/homeContribuyente.html" width="100%" height="800"></iframe>'
);

const ctacteSelector = (taxpayers: readonly Taxpayer[], selected: number): string => htmlPage('Estado de cuenta', `
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

// A key of one taxpayer: the same page without the selector.
const ctacteSingle = (taxpayer: Taxpayer): string => htmlPage('Estado de cuenta', `<div id="contenido">Estado de cuenta de ${escapeHtml(taxpayer.name)}</div>`);

const ctacteAnswer = (method: string, sct: SctData & { establishments: boolean }): unknown => {

    const establishment = (value: string) => (sct.establishments ? { establecimientoView: value } : {});
    let data: unknown;
    if (method === 'getDeudas') {
        const list = internals.oneOrMany(sct.deuda.map((debt) => ({
            ...establishment(debt.establecimiento),
            impuestoView: debt.impuesto,
            conceptoView: debt.concepto,
            subconceptoView: debt.subconcepto,
            periodoFiscal: Number(`${debt.periodo}00`),
            anticipocuota: debt.antCuota,
            fechaVencimiento: internals.dateTime(debt.vencimiento),
            importe: debt.saldo,
            importeInteresesResarcitorios: debt.intResarcitorios,
            importeInteresesPunitorios: debt.intPunitorios
        })));
        data = list === '' ? '' : { deuda: list };
    }
    else if (method === 'getVencimientos') {
        const list = internals.oneOrMany(sct.vencimientos.map((due) => ({
            tipoOperacion: due.detalle,
            descImpuesto: due.impuesto,
            descConcepto: due.concepto,
            periodoFiscal: Number(`${due.periodo}00`),
            anticipoCuota: due.antCuota,
            fechaVencimiento: internals.dateTime(due.vencimiento)
        })));
        data = list === '' ? '' : { vencimiento: list };
    }
    else {
        const list = internals.oneOrMany(sct.ddjj.map((missing) => {

            const [impuesto, descImpuesto] = internals.split(missing.impuesto);
            const [concepto, descConcepto] = internals.split(missing.concepto);
            return {
                ...establishment(missing.establecimiento),
                impuesto,
                descImpuesto,
                concepto,
                descConcepto,
                periodoFiscal: Number(missing.periodo.slice(0, 4)),
                fechaVencimiento: internals.dateTime(missing.vencimiento)
            };
        }));
        data = list === '' ? '' : { deuda: list };
    }

    return { [internals.wrapper]: { data, status: { tipoEstado: 'SUCCESS' } } };
};

export const sctRoutes = (state: SimulatedState): Route => {

    const sessions = state.sessions<SctState>('sct');
    const lastChosen = new Map<string, string>();       // login CUIT -> the CUIT chosen last

    // Whom the key's pages answer for: the one chosen last, or (never chosen) the last it reaches.
    const chosen = (login: string): string => {

        const people = state.reach(login);
        const last = lastChosen.get(login);
        return people.some((person) => person.cuit === last) ? last! : people.at(-1)!.cuit;
    };

    return async (req, res, path, query) => {

        if (path === arcaServices.sct.entry && req.method === 'POST') {
            return enterService(state, req, res, { service: arcaServices.sct.name, sessions, session: (login) => ({ login }), location: '/contribuyente/', cookie: (id) => `JSESSIONID=${id}; Path=/contribuyente; Secure; HttpOnly` });
        }

        const sct = sessions.get(cookiesOf(req).JSESSIONID ?? '');
        if (!sct) {
            return redirect(res, `https://${arcaHosts.auth}${arcaPaths.login}?action=SYSTEM&system=${arcaServices.sct.name}`);
        }

        const people = state.reach(sct.login);
        if (path === '/contribuyente/') {
            return html(res, ctacteHome());
        }

        if (path === '/contribuyente/app/homeContribuyente.html' || (path === '/contribuyente/app' && req.method === 'POST')) {
            if (people.length === 1) {
                return html(res, ctacteSingle(people[0]!));
            }

            if (req.method === 'POST') {
                const picked = people[Number((await formOf(req)).get('$PropertySelection') ?? '-1')];
                if (picked) {
                    lastChosen.set(sct.login, picked.cuit);
                }
            }

            const current = chosen(sct.login);
            return html(res, ctacteSelector(people, people.findIndex((person) => person.cuit === current)));
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
            if (request.serviceName !== internals.service || !internals.methods.includes(method)) {
                return json(res, { [internals.wrapper]: { data: null, status: { tipoEstado: 'ERROR', mensaje: 'Servicio inexistente' } } });
            }

            // The CUIT argument is ignored: the answer follows the selector.
            const cuit = people.length === 1 ? sct.login : chosen(sct.login);
            state.read({ host: arcaHosts.ctacte, cuit, what: `sct ${method}` });
            return json(res, ctacteAnswer(method, state.taxpayer(cuit).sct));
        }

        return html(res, messagePage('No encontrado', 'La página solicitada no existe.'), 404);
    };
};
