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
// calculation auto-submits to P04_ctacte.asp (the totals and a debe/haber ledger);
// ajax/ConsDeuFecSabana.asp, another page with another table, holds the movements.

interface CcmaState { login: string; selected: string | null; calculated?: boolean }

const internals = {
    base: '/tramites_con_clave_fiscal/ccam/',

    period(date: Date): string {

        return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;
    }
};

const ccamSelect = (cuits: readonly string[]): string => htmlPage('CCMA - Selección de CUIT', `
<form name="form1" method="post" action="seleccionaCuit.asp">
<select name="selectCuit">${cuits.map((cuit) => `<option value="${cuit}">${cuit}</option>`).join('')}</select>
<input type="hidden" name="accion" value="" />
<input type="button" value="Elegir CUIT" onclick="accion.value='s';form1.submit();" />
</form>`);

const ccamMenu = (cuit: string): string => htmlPage('CCMA', `<p class="CeldaTitular">Cuenta Corriente de Monotributistas y Aut&oacute;nomos - CUIT ${cuit}</p><a href="P02_ctacte.asp">C&aacute;lculo de deuda</a>`);

const ccamP02Form = (today: string, from: string, to: string): string => htmlPage('CCMA - Cálculo de deuda', `
<form name="frm" method="post" action="P02_ctacte.asp">
<input type="hidden" name="feccalculo" value="${dmy(today)}" />
<input type="text" name="perdesde2" value="${from}" />
<input type="text" name="perhasta2" value="${to}" />
<input type="hidden" name="calcula" value="" />
<input type="button" value="C&Aacute;LCULO DE DEUDA" onclick="frm.calcula.value='S';frm.submit();" />
</form>`);

const ccamP02Calculated = (today: string, from: string, to: string): string => htmlPage('CCMA', `
<form name="frm_p04" method="post" action="P04_ctacte.asp">
<input type="hidden" name="feccalculo" value="${dmy(today)}" />
<input type="hidden" name="perdesde2" value="${from}" />
<input type="hidden" name="perhasta2" value="${to}" />
</form>
<script>document.frm_p04.submit();</script>`);

// P04: the totals, then the debe/haber ledger (CeldaBorde_ConsDeuFec cells: 2 período,
// 3 impuesto, 4 concepto, 6 descripción, 7 fecha, 8 debe, 9 haber): not the sábana.
const ccamP04 = (today: string, balances: CcmaBalances, accessories: number, movements: readonly CcmaMovement[]): string => {

    const cell = (text: string) => `<td class="CeldaBorde_ConsDeuFec">${text}</td>`;
    const ledger = movements.map((movement) => `<tr>${[String(movement.orden), 'Mov.', movement.periodo, escapeHtml(movement.impuesto), escapeHtml(movement.concepto), escapeHtml(movement.subconcepto), escapeHtml(movement.descripcion), dmy(movement.fechaMovimiento.slice(0, 10)), usAmount(movement.debe), usAmount(movement.haber)].map(cell).join('')}</tr>`);
    return htmlPage('CCMA - Consulta de Deuda', `
<input type="hidden" name="feccalculo" value="${dmy(today)}" />
<table class="Tabla">
<tr><td class="CeldaTitular">Obligaci&oacute;n Mensual:</td><td class="Celda">${usAmount(Math.max(0, (balances.saldoDeudor ?? 0) - accessories))}</td><td class="CeldaTitular">Obligaci&oacute;n Mensual:</td><td class="Celda">${usAmount(balances.saldoAcreedor ?? 0)}</td></tr>
<tr><td class="CeldaTitular">Accesorios:</td><td class="Celda">${usAmount(accessories)}</td><td class="CeldaTitular">Accesorios:</td><td class="Celda">0.00</td></tr>
<tr><td class="CeldaTitular">Total Saldo Deudor:</td><td class="CeldaTitularResaltado">${usAmount(balances.saldoDeudor)}</td><td class="CeldaTitular">Total Saldo Acreedor:</td><td class="CeldaTitularResaltado">${usAmount(balances.saldoAcreedor)}</td></tr>
</table>
<table class="Tabla">
${ledger.join('\n')}
</table>`);
};

// The sábana: per movement período, código, subcódigo, concepto, descripción, fecha and one
// signed amount (a debit positive, a credit in parentheses); after each period a "Saldo" row
// with its date and the balance owed (positive) or in favour (in parentheses).
const ccamSabana = (movements: readonly CcmaMovement[], today: string): string => {

    const cell = (text: string) => `<td class="CeldaSabana">${text}</td>`;
    const rows: string[] = [];
    movements.forEach((movement, index) => {

        rows.push(`<tr>${[movement.periodo, escapeHtml(movement.impuesto), escapeHtml(movement.subconcepto), escapeHtml(movement.concepto), escapeHtml(movement.descripcion), dmy(movement.fechaMovimiento.slice(0, 10)), usAmount(movement.debe ?? -(movement.haber ?? 0))].map(cell).join('')}</tr>`);
        if (movements[index + 1]?.periodo !== movement.periodo) {
            rows.push(`<tr>${[movement.periodo, 'Saldo', dmy(today), usAmount(-movement.saldo)].map(cell).join('')}</tr>`);
        }
    });

    if (!rows.length) {
        return htmlPage(
            'CCMA',
            '<table class="Tabla"><tr><td class="Celda">No se encontraron movimientos para el per&iacute;odo seleccionado</td></tr></table>'
        );
    }

    return htmlPage('CCMA', `<table class="Tabla">
<tr><th>Per&iacute;odo</th><th>C&oacute;digo</th><th>Subc&oacute;digo</th><th>Concepto</th><th>Descripci&oacute;n</th><th>Fecha</th><th>Importe</th></tr>
${rows.join('\n')}
</table>`);
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
            const accessories = Math.round(
                data.ccma.movements.filter((m) => m.concepto === 'Intereses').reduce((sum, m) => sum + (m.debe ?? 0), 0) * 100
            ) / 100;
            return latin1(res, ccamP04(state.today, data.ccma.balances, Math.min(accessories, data.ccma.balances.saldoDeudor ?? 0), data.ccma.movements));
        }

        if (page === 'ajax/ConsDeuFecSabana.asp') {
            state.read({ host: arcaHosts.ccam, cuit: ccma.selected, what: 'ccma movimientos' });
            return latin1(res, ccamSabana(data.ccma.movements, state.today));
        }

        return latin1(res, messagePage('CCMA', 'Sesión caducada.'));
    };
};
