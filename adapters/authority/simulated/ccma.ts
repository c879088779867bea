import type { CcmaBalances, CcmaMovement } from '../../../core/domain/ccma.js';
import { arcaHosts, arcaServices } from '../hosts.js';
import { dmy, escapeHtml, htmlPage, messagePage, usAmount } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, formOf, latin1, redirect } from './reply.js';
import { enterService } from './service-entry.js';
import type { SimulatedState } from './state.js';

// CCMA (servicios2.afip.gob.ar/tramites_con_clave_fiscal/ccam, classic ASP, latin-1, US-format
// amounts): procesa.asp takes the token/sign; seleccionaCuit.asp offers only the CUITs with a
// current account and must be answered (accion=s) before anything is read; P02_ctacte.asp's
// calculation auto-submits to P04_ctacte.asp (the totals); ajax/ConsDeuFecSabana.asp holds
// the movements.

interface CcmaState { login: string; selected: string | null; calculated?: boolean }

const internals = {
    base: '/tramites_con_clave_fiscal/ccam/',

    period(date: Date): string {

        return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;
    }
};

export const ccamSelect = (cuits: readonly string[]): string => htmlPage('CCMA - Selección de CUIT', `
<form name="form1" method="post" action="seleccionaCuit.asp">
<select name="selectCuit">${cuits.map((cuit) => `<option value="${cuit}">${cuit}</option>`).join('')}</select>
<input type="hidden" name="accion" value="" />
<input type="button" value="Elegir CUIT" onclick="accion.value='s';form1.submit();" />
</form>`);

export const ccamMenu = (cuit: string): string => htmlPage('CCMA', `<p class="CeldaTitular">Cuenta Corriente de Monotributistas y Aut&oacute;nomos - CUIT ${cuit}</p><a href="P02_ctacte.asp">C&aacute;lculo de deuda</a>`);

export const ccamP02Form = (today: string, from: string, to: string): string => htmlPage('CCMA - Cálculo de deuda', `
<form name="frm" method="post" action="P02_ctacte.asp">
<input type="hidden" name="feccalculo" value="${dmy(today)}" />
<input type="text" name="perdesde2" value="${from}" />
<input type="text" name="perhasta2" value="${to}" />
<input type="hidden" name="calcula" value="" />
<input type="button" value="C&Aacute;LCULO DE DEUDA" onclick="frm.calcula.value='S';frm.submit();" />
</form>`);

export const ccamP02Calculated = (today: string, from: string, to: string): string => htmlPage('CCMA', `
<form name="frm_p04" method="post" action="P04_ctacte.asp">
<input type="hidden" name="feccalculo" value="${dmy(today)}" />
<input type="hidden" name="perdesde2" value="${from}" />
<input type="hidden" name="perhasta2" value="${to}" />
</form>
<script>document.frm_p04.submit();</script>`);

export const ccamP04 = (today: string, balances: CcmaBalances, accessories: number): string => htmlPage('CCMA - Consulta de Deuda', `
<input type="hidden" name="feccalculo" value="${dmy(today)}" />
<table class="Tabla">
<tr><td class="CeldaTitular">Obligaci&oacute;n Mensual:</td><td class="Celda">${usAmount(Math.max(0, (balances.saldoDeudor ?? 0) - accessories))}</td><td class="CeldaTitular">Obligaci&oacute;n Mensual:</td><td class="Celda">${usAmount(balances.saldoAcreedor ?? 0)}</td></tr>
<tr><td class="CeldaTitular">Accesorios:</td><td class="Celda">${usAmount(accessories)}</td><td class="CeldaTitular">Accesorios:</td><td class="Celda">0.00</td></tr>
<tr><td class="CeldaTitular">Total Saldo Deudor:</td><td class="CeldaTitularResaltado">${usAmount(balances.saldoDeudor)}</td><td class="CeldaTitular">Total Saldo Acreedor:</td><td class="CeldaTitularResaltado">${usAmount(balances.saldoAcreedor)}</td></tr>
</table>`);

export const ccamSabana = (movements: readonly CcmaMovement[]): string => {

    const rows: string[] = [];
    let period = '';
    for (const movement of movements) {
        if (period && movement.periodo !== period) {
            const previous = movements.filter((candidate) => candidate.periodo === period).at(-1)!;
            rows.push(`<tr><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec">Saldo</td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec">${usAmount(previous.saldo)}</td></tr>`);
        }

        period = movement.periodo;
        rows.push(`<tr><td class="CeldaBorde_ConsDeuFec">${movement.orden}</td><td class="CeldaBorde_ConsDeuFec">Mov.</td><td class="CeldaBorde_ConsDeuFec">${movement.periodo}</td><td class="CeldaBorde_ConsDeuFec">${escapeHtml(movement.impuesto)}</td><td class="CeldaBorde_ConsDeuFec">${escapeHtml(movement.concepto)}</td><td class="CeldaBorde_ConsDeuFec">${escapeHtml(movement.subconcepto)}</td><td class="CeldaBorde_ConsDeuFec">${escapeHtml(movement.descripcion)}</td><td class="CeldaBorde_ConsDeuFec">${dmy(movement.fechaMovimiento.slice(0, 10))}</td><td class="CeldaBorde_ConsDeuFec">${usAmount(movement.debe)}</td><td class="CeldaBorde_ConsDeuFec">${usAmount(movement.haber)}</td><td class="CeldaBorde_ConsDeuFec">${usAmount(movement.saldo)}</td></tr>`);
    }

    if (!rows.length) {
        return '<table class="Tabla"><tr><td class="Celda">No se encontraron movimientos para el período seleccionado</td></tr></table>';
    }

    return `<table class="Tabla">\n${rows.join('\n')}\n</table>`;
};

export const ccmaRoutes = (state: SimulatedState): Route => {

    const sessions = state.sessions<CcmaState>('ccma');
    const base = internals.base;

    return async (req, res, path) => {

        if (path === arcaServices.ccma.entry && req.method === 'POST') {
            return enterService(state, req, res, { service: arcaServices.ccma.name, sessions, session: (login) => ({ login, selected: null }), location: `${base}seleccionaCuit.asp`, cookie: (id) => `ASPSESSIONIDQCSRBTQA=${id}; path=/` });
        }

        const ccma = sessions.get(cookiesOf(req).ASPSESSIONIDQCSRBTQA ?? '');
        if (!ccma) {
            return latin1(res, messagePage('CCMA', 'Sesión caducada. Ingrese nuevamente.'));
        }

        // Only CUITs with a current account are offered; a key of one CUIT has no selector.
        const reach = state.reach(ccma.login);
        const accounts = reach.map((p) => p.cuit).filter((cuit) => state.taxpayer(cuit).ccma.movements.length > 0);
        const single = reach.length === 1;
        if (single) {
            ccma.selected = ccma.login;
        }

        const page = path.slice(base.length);
        if (page === 'seleccionaCuit.asp') {
            if (req.method === 'POST') {
                const form = await formOf(req);
                if (form.get('accion') === 's' && accounts.includes(form.get('selectCuit') ?? '')) {
                    ccma.selected = form.get('selectCuit');
                    ccma.calculated = false;
                    return redirect(res, `${base}menu.asp`);
                }
            }

            return latin1(res, single ? ccamMenu(ccma.login) : ccamSelect(accounts));
        }

        if (!ccma.selected) {
            return latin1(res, messagePage('CCMA', 'Sesión caducada. Debe seleccionar una CUIT.'));
        }

        const data = state.taxpayer(ccma.selected);
        const to = new Date(Date.parse(`${state.today}T00:00:00Z`));
        const from = internals.period(new Date(Date.UTC(to.getUTCFullYear() - 2, 0, 1)));
        if (page === 'menu.asp') {
            return latin1(res, ccamMenu(ccma.selected));
        }

        if (page === 'P02_ctacte.asp') {
            if (req.method === 'POST' && (await formOf(req)).get('calcula') === 'S') {
                ccma.calculated = true;
                return latin1(res, ccamP02Calculated(state.today, from, internals.period(to)));
            }

            return latin1(res, ccamP02Form(state.today, from, internals.period(to)));
        }

        if (page === 'P04_ctacte.asp' && req.method === 'POST' && ccma.calculated) {
            state.read({ host: arcaHosts.ccam, cuit: ccma.selected, what: 'ccma saldos' });
            const accessories = Math.round(data.ccma.movements.filter((m) => m.concepto === 'Intereses').reduce((sum, m) => sum + (m.debe ?? 0), 0) * 100) / 100;
            return latin1(res, ccamP04(state.today, data.ccma.balances, Math.min(accessories, data.ccma.balances.saldoDeudor ?? 0)));
        }

        if (page === 'ajax/ConsDeuFecSabana.asp') {
            state.read({ host: arcaHosts.ccam, cuit: ccma.selected, what: 'ccma movimientos' });
            return latin1(res, ccamSabana(data.ccma.movements));
        }

        return latin1(res, messagePage('CCMA', 'Sesión caducada.'));
    };
};
