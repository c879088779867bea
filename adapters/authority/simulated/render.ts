import type { CcmaBalances, CcmaMovement } from '../../../core/domain/ccma.js';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { SctData } from '../../../core/domain/sct.js';
import type { AuthorityNotification } from '../../../core/ports/authority-client.js';
import type { RegistryClassification } from '../../../core/ports/repositories.js';

// The simulated authority's pages and answers, byte-shaped as AUTHORITY.md gives them: the JSF
// login with its hidden-jwt auto-submit, Mis Comprobantes' cards and its three CSV generations,
// the ctacte Tapestry selector and rest-access JSON, CCAM's classic ASP pages with US-format
// amounts, e-ventanilla JSON with epoch-ms dates, and tipoCuitImpuestos.

export type CsvGeneration = 1 | 2 | 3;

export interface Taxpayer {
    cuit: string;
    name: string;
}

const internals = {
    typeNames: { 1: 'Factura A', 3: 'Nota de Crédito A', 6: 'Factura B', 8: 'Nota de Crédito B', 11: 'Factura C', 13: 'Nota de Crédito C' } as Record<string, string>,
    rates: ['2,5%', '5%', '10,5%', '21%', '27%'],
    bc: new Set(['6', '7', '8', '9', '10', '11', '12', '13', '15', '16']),

    escape(text: string): string {

        return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    },

    // 1475,006 style: comma decimal, no thousands.
    comma(value: number | null): string {

        return value === null ? '' : String(value).replace('.', ',');
    },

    // 14,625.46 style (CCAM); negatives in parentheses.
    us(value: number | null): string {

        if (value === null) {
            return '';
        }

        const [whole, decimals] = Math.abs(value).toFixed(2).split('.');
        const text = `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${decimals}`;
        return value < 0 ? `(${text})` : text;
    },

    dmy: (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`,
    quote: (text: string) => `"${text.replace(/"/g, '""')}"`,
    dashed: (cuit: string) => `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`,

    page(title: string, body: string): string {

        return `<!DOCTYPE html>\n<html lang="es"><head><meta charset="utf-8"><title>${internals.escape(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
    }
};

export const htmlPage = internals.page;
export const escapeHtml = internals.escape;
export const messagePage = (title: string, message: string): string => internals.page(title, `<div class="container"><h1>${internals.escape(title)}</h1><p class="alert">${internals.escape(message)}</p></div>`);

// --- login (auth.afip.gob.ar) ---------------------------------------------------------------

export const loginUserPage = (jsessionid: string, viewState: string, error?: string): string => internals.page('ARCA - Acceso con Clave Fiscal', `
<div class="container"><h1>Ingresá con Clave Fiscal</h1>
${error ? `<div class="alert alert-danger"><span id="F1:msg">${internals.escape(error)}</span></div>` : ''}
<form id="F1" name="F1" method="post" action="/contribuyente_/login.xhtml;jsessionid=${jsessionid}" enctype="application/x-www-form-urlencoded">
<input type="hidden" name="F1" value="F1" />
<label for="F1:username">CUIT/CUIL</label>
<input id="F1:username" type="text" name="F1:username" value="" maxlength="11" />
<input id="F1:btnSiguiente" type="submit" name="F1:btnSiguiente" value="Siguiente" />
<input type="hidden" name="javax.faces.ViewState" id="j_id1:javax.faces.ViewState:0" value="${viewState}" autocomplete="off" />
</form></div>`);

// The password page; with a CAPTCHA, its image comes embedded in div#captcha and the form
// posts to loginCaptchaAfip.xhtml.
export const loginPasswordPage = (viewState: string, cuit: string, options: { error?: string; captcha?: boolean } = {}): string => internals.page('ARCA - Acceso con Clave Fiscal', `
<div class="container"><h1>Ingresá con Clave Fiscal</h1>
<p>CUIT/CUIL: <strong>${cuit}</strong></p>
${options.error ? `<div class="alert alert-danger"><span id="F1:msg">${internals.escape(options.error)}</span></div>` : ''}
<form id="F1" name="F1" method="post" action="/contribuyente_/${options.captcha ? 'loginCaptchaAfip' : 'loginClave'}.xhtml" enctype="application/x-www-form-urlencoded">
<input type="hidden" name="F1" value="F1" />
<input type="hidden" name="F1:username" value="${cuit}" />
<label for="F1:password">Clave</label>
<input id="F1:password" type="password" name="F1:password" value="" />
${options.captcha ? '<div id="captcha"><img src="data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8U" alt="captcha" /></div>\n<input type="text" id="F1:captchaSolutionInput" name="F1:captchaSolutionInput" value="" />' : '<input type="hidden" name="F1:captcha" value="" />'}
<input id="F1:btnIngresar" type="submit" name="F1:btnIngresar" value="Ingresar" />
<a href="/contribuyente_/recuperarClave.xhtml">¿Olvidaste tu clave?</a>
<input type="hidden" name="javax.faces.ViewState" id="j_id1:javax.faces.ViewState:0" value="${viewState}" autocomplete="off" />
</form></div>`);

// Success: an auto-submit form carrying the jwt to the portal.
export const jwtPage = (portalLogin: string, jwt: string): string => internals.page('Ingresando...', `
<form id="F1" name="F1" method="post" action="${portalLogin}">
<input type="hidden" name="jwt" value="${jwt}" />
<noscript><input type="submit" value="Continuar" /></noscript>
</form>
<script>document.getElementById('F1').submit();</script>`);

export const changeKeyForcedPage = (): string => internals.page('ARCA - Cambio de clave', '<div class="container"><h1>Cambio de Clave Fiscal</h1><p>Por razones de seguridad, tenés que cambiar tu contraseña para continuar.</p><form id="F1" method="post" action="/contribuyente_/cambioClaveForzado.xhtml"><input type="password" name="F1:claveActual" /></form></div>');

export const secondFactorPage = (): string => internals.page('ARCA - Token', '<div class="container"><h1>TU TOKEN</h1><p>Generá tu token con uno de estos mecanismos:</p><ul><li>HARDWARE-TOKEN</li><li>AFIP-O</li></ul><form id="F1" method="post" action="/contribuyente_/loginToken.xhtml"><input type="text" name="F1:token" /></form></div>');

export const blockedKeyPage = (): string => messagePage('Clave bloqueada', 'Su clave se encuentra bloqueada. Comuníquese con ARCA o desbloquéela desde la web.');

export const portalPage = (cuit: string, name: string): string => internals.page('Portal ARCA', `<div id="root" data-cuit="${cuit}"><header>Hola, ${internals.escape(name)}</header><main>Mis servicios</main></div>`);

// --- Mis Comprobantes (fes.afip.gob.ar) ----------------------------------------------------

export const mcmpSelection = (taxpayers: readonly Taxpayer[]): string => internals.page('Mis Comprobantes', `
<div class="container"><h2>Elegí una persona para ingresar</h2>
<form name="seleccionaEmpresaForm" id="seleccionaEmpresaForm" method="post" action="/mcmp/jsp/setearContribuyente.do">
<input type="hidden" name="idContribuyente" value="" />
<div class="row">
${taxpayers.map((taxpayer, index) => `<div class="col-md-4"><a class="panel panel-default hoverazul${index === 0 ? ' border-primary' : ''}" href="#" onclick="document.seleccionaEmpresaForm.idContribuyente.value='${index}';document.seleccionaEmpresaForm.submit();"><div class="panel-body"><h3>${internals.escape(taxpayer.name)}</h3><p>CUIT ${internals.dashed(taxpayer.cuit)}</p></div></a></div>`).join('\n')}
</div></form></div>`);

export const mcmpMenu = (taxpayer: Taxpayer): string => internals.page('Mis Comprobantes', `
<div class="navbar"><span class="representando">REPRESENTANDO A: <strong>${internals.escape(taxpayer.name)} [${internals.dashed(taxpayer.cuit)}]</strong></span></div>
<div class="container"><a href="comprobantesEmitidos.do">Emitidos</a> <a href="comprobantesRecibidos.do">Recibidos</a></div>`);

export const mcmpIrregular = (cuit: string): string => internals.page('Mis Comprobantes - Error', `<div class="container"><div class="alert alert-danger">La CUIT ${cuit} registra irregularidades. Deberá dirigirse a la dependencia a la cual se encuentra inscripto. Err: 002</div></div>`);

// Gen 3 shows B and C invoices with 0,00 in every component; gen 1 has no "Otros Tributos".
// What the scraper reads back from each generation (null = not discriminated).
export const servedInvoice = (invoice: InvoiceRecord, generation: CsvGeneration): InvoiceRecord => {

    if (generation === 1) {
        return { ...invoice, otrosTributos: null };
    }

    return invoice;
};

export const invoicesCsv = (invoices: readonly InvoiceRecord[], kind: InvoiceKind, generation: CsvGeneration, owner: string): string => {

    const party = kind === 'received' ? 'Emisor' : 'Receptor';
    const a = (invoice: InvoiceRecord) => invoice.counterpart;
    if (generation === 1) {
        const header = ['Fecha', 'Tipo', 'Punto de Venta', 'Número Desde', 'Número Hasta', 'Cód. Autorización', `Tipo Doc. ${party}`, `Nro. Doc. ${party}`, `Denominación ${party}`, 'Tipo Cambio', 'Moneda', 'Imp. Neto Gravado', 'Imp. Neto No Gravado', 'Imp. Op. Exentas', 'IVA', 'Imp. Total'];
        const rows = invoices.map((invoice) => [
            internals.dmy(invoice.fecha), `${invoice.tipo} - ${internals.typeNames[invoice.tipo] ?? 'Comprobante'}`, invoice.puntoVenta, invoice.numeroDesde, invoice.numeroHasta, invoice.codigoAutorizacion ?? '',
            a(invoice).tipoDocumento ?? '', a(invoice).numeroDocumento ?? '', a(invoice).nombre ?? '', internals.comma(invoice.tipoCambio), invoice.monedaOriginal === 'PES' ? '$' : 'USD',
            internals.comma(invoice.impNetoGravado), internals.comma(invoice.impNetoNoGravado), internals.comma(invoice.impOpExentas), internals.comma(invoice.iva), internals.comma(invoice.importeOriginal)
        ].map(internals.quote).join(','));
        return [header.map(internals.quote).join(','), ...rows].join('\r\n') + '\r\n';
    }

    if (generation === 2) {
        const header = ['Fecha de Emisión', 'Tipo de Comprobante', 'Punto de Venta', 'Número Desde', 'Número Hasta', 'Cód. Autorización', `Tipo Doc. ${party}`, `Nro. Doc. ${party}`, `Denominación ${party}`, 'Tipo Cambio', 'Moneda', 'Imp. Neto Gravado', 'Imp. Neto No Gravado', 'Imp. Op. Exentas', 'Otros Tributos', 'IVA', 'Imp. Total'];
        const rows = invoices.map((invoice) => [
            invoice.fecha, invoice.tipo, invoice.puntoVenta, invoice.numeroDesde, invoice.numeroHasta, invoice.codigoAutorizacion ?? '',
            a(invoice).tipoDocumento ?? '', a(invoice).numeroDocumento ?? '', `${a(invoice).nombre ?? ''}  `, internals.comma(invoice.tipoCambio), invoice.monedaOriginal,
            internals.comma(invoice.impNetoGravado), internals.comma(invoice.impNetoNoGravado), internals.comma(invoice.impOpExentas), internals.comma(invoice.otrosTributos), internals.comma(invoice.iva), internals.comma(invoice.importeOriginal)
        ].join(';'));
        return [header.map(internals.quote).join(';'), ...rows].join('\r\n') + '\r\n';
    }

    const identity = kind === 'received'
        ? ['Fecha de Emisión', 'Tipo de Comprobante', 'Punto de Venta', 'Número Desde', 'Número Hasta', 'Cód. Autorización', 'Tipo Doc. Emisor', 'Nro. Doc. Emisor', 'Denominación Emisor', 'Tipo Doc. Receptor', 'Nro. Doc. Receptor', 'Tipo Cambio', 'Moneda']
        : ['Fecha de Emisión', 'Tipo de Comprobante', 'Punto de Venta', 'Número Desde', 'Número Hasta', 'Cód. Autorización', 'Tipo Doc. Receptor', 'Nro. Doc. Receptor', 'Denominación Receptor', 'Tipo Cambio', 'Moneda'];
    const rates = ['Imp. Neto Gravado IVA 0%', ...internals.rates.flatMap((rate) => [`IVA ${rate}`, `Imp. Neto Gravado IVA ${rate}`])];
    const header = [...identity, ...rates, 'Imp. Neto Gravado Total', 'Imp. Neto No Gravado', 'Imp. Op. Exentas', 'Otros Tributos', 'Total IVA', 'Imp. Total'];
    const rows = invoices.map((invoice) => {

        const ids = [invoice.fecha, invoice.tipo, invoice.puntoVenta, invoice.numeroDesde, invoice.numeroHasta, invoice.codigoAutorizacion ?? '', a(invoice).tipoDocumento ?? '', a(invoice).numeroDocumento ?? '', `${a(invoice).nombre ?? ''} `];
        if (kind === 'received') {
            ids.push('80', owner);
        }

        // B and C: 0,00 in every amount column but the total. A: everything at 21%.
        const bc = internals.bc.has(invoice.tipo);
        const zero = (value: number | null) => (bc ? '0,00' : internals.comma(value));
        const rateCells = rates.map((name) => (bc ? '0,00' : name === 'IVA 21%' ? internals.comma(invoice.iva) : name === 'Imp. Neto Gravado IVA 21%' ? internals.comma(invoice.impNetoGravado) : '0,00'));
        return [...ids, internals.comma(invoice.tipoCambio), invoice.monedaOriginal === 'PES' ? '$' : 'USD', ...rateCells,
            zero(invoice.impNetoGravado), zero(invoice.impNetoNoGravado), zero(invoice.impOpExentas), zero(invoice.otrosTributos), zero(invoice.iva), internals.comma(invoice.importeOriginal)].join(';');
    });
    return [header.map(internals.quote).join(';'), ...rows].join('\r\n') + '\r\n';
};

// --- Sistema de Cuentas Tributarias (ctacte.cloud.afip.gob.ar) ------------------------------

export const ctacteHome = (): string => internals.page('Sistema de Cuentas Tributarias', '<div id="cabecera">Cuentas Tributarias</div><iframe name="homeContribuyente" id="homeContribuyente" src="/contribuyente/app/homeContribuyente.html" width="100%" height="800"></iframe>');

export const ctacteSelector = (taxpayers: readonly Taxpayer[], selected: number): string => internals.page('Estado de cuenta', `
<form method="post" action="/contribuyente/app" name="Form0" id="Form0">
<input type="hidden" name="formids" value="$PropertySelection" />
<input type="hidden" name="service" value="direct/1/HomeContribuyente/$Form" />
<input type="hidden" name="sp" value="S0" />
<input type="hidden" name="submitmode" value="" />
<select name="$PropertySelection" id="$PropertySelection" onchange="this.form.submit();">
${taxpayers.map((taxpayer, index) => `<option value="${index}"${index === selected ? ' selected="selected"' : ''}>${taxpayer.cuit}</option>`).join('\n')}
</select>
</form>
<div id="contenido">Estado de cuenta de ${internals.escape(taxpayers[selected]?.name ?? '')}</div>`);

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

// --- CCMA (servicios2.afip.gob.ar/tramites_con_clave_fiscal/ccam, classic ASP) -----------------

export const ccamSelect = (cuits: readonly string[]): string => internals.page('CCMA - Selección de CUIT', `
<form name="form1" method="post" action="seleccionaCuit.asp">
<select name="selectCuit">${cuits.map((cuit) => `<option value="${cuit}">${cuit}</option>`).join('')}</select>
<input type="hidden" name="accion" value="" />
<input type="button" value="Elegir CUIT" onclick="accion.value='s';form1.submit();" />
</form>`);

export const ccamMenu = (cuit: string): string => internals.page('CCMA', `<p class="CeldaTitular">Cuenta Corriente de Monotributistas y Aut&oacute;nomos - CUIT ${cuit}</p><a href="P02_ctacte.asp">C&aacute;lculo de deuda</a>`);

export const ccamP02Form = (today: string, from: string, to: string): string => internals.page('CCMA - Cálculo de deuda', `
<form name="frm" method="post" action="P02_ctacte.asp">
<input type="hidden" name="feccalculo" value="${internals.dmy(today)}" />
<input type="text" name="perdesde2" value="${from}" />
<input type="text" name="perhasta2" value="${to}" />
<input type="hidden" name="calcula" value="" />
<input type="button" value="C&Aacute;LCULO DE DEUDA" onclick="frm.calcula.value='S';frm.submit();" />
</form>`);

export const ccamP02Calculated = (today: string, from: string, to: string): string => internals.page('CCMA', `
<form name="frm_p04" method="post" action="P04_ctacte.asp">
<input type="hidden" name="feccalculo" value="${internals.dmy(today)}" />
<input type="hidden" name="perdesde2" value="${from}" />
<input type="hidden" name="perhasta2" value="${to}" />
</form>
<script>document.frm_p04.submit();</script>`);

export const ccamP04 = (today: string, balances: CcmaBalances, accessories: number): string => internals.page('CCMA - Consulta de Deuda', `
<input type="hidden" name="feccalculo" value="${internals.dmy(today)}" />
<table class="Tabla">
<tr><td class="CeldaTitular">Obligaci&oacute;n Mensual:</td><td class="Celda">${internals.us(Math.max(0, (balances.saldoDeudor ?? 0) - accessories))}</td><td class="CeldaTitular">Obligaci&oacute;n Mensual:</td><td class="Celda">${internals.us(balances.saldoAcreedor ?? 0)}</td></tr>
<tr><td class="CeldaTitular">Accesorios:</td><td class="Celda">${internals.us(accessories)}</td><td class="CeldaTitular">Accesorios:</td><td class="Celda">0.00</td></tr>
<tr><td class="CeldaTitular">Total Saldo Deudor:</td><td class="CeldaTitularResaltado">${internals.us(balances.saldoDeudor)}</td><td class="CeldaTitular">Total Saldo Acreedor:</td><td class="CeldaTitularResaltado">${internals.us(balances.saldoAcreedor)}</td></tr>
</table>`);

export const ccamSabana = (movements: readonly CcmaMovement[]): string => {

    const rows: string[] = [];
    let period = '';
    for (const movement of movements) {
        if (period && movement.periodo !== period) {
            const previous = movements.filter((candidate) => candidate.periodo === period).at(-1)!;
            rows.push(`<tr><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec">Saldo</td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec"></td><td class="CeldaBorde_ConsDeuFec">${internals.us(previous.saldo)}</td></tr>`);
        }

        period = movement.periodo;
        rows.push(`<tr><td class="CeldaBorde_ConsDeuFec">${movement.orden}</td><td class="CeldaBorde_ConsDeuFec">Mov.</td><td class="CeldaBorde_ConsDeuFec">${movement.periodo}</td><td class="CeldaBorde_ConsDeuFec">${internals.escape(movement.impuesto)}</td><td class="CeldaBorde_ConsDeuFec">${internals.escape(movement.concepto)}</td><td class="CeldaBorde_ConsDeuFec">${internals.escape(movement.subconcepto)}</td><td class="CeldaBorde_ConsDeuFec">${internals.escape(movement.descripcion)}</td><td class="CeldaBorde_ConsDeuFec">${internals.dmy(movement.fechaMovimiento.slice(0, 10))}</td><td class="CeldaBorde_ConsDeuFec">${internals.us(movement.debe)}</td><td class="CeldaBorde_ConsDeuFec">${internals.us(movement.haber)}</td><td class="CeldaBorde_ConsDeuFec">${internals.us(movement.saldo)}</td></tr>`);
    }

    if (!rows.length) {
        return '<table class="Tabla"><tr><td class="Celda">No se encontraron movimientos para el período seleccionado</td></tr></table>';
    }

    return `<table class="Tabla">\n${rows.join('\n')}\n</table>`;
};

// --- DFE (ve.cloud.afip.gob.ar) -----------------------------------------------------------------

export const communication = (notification: AuthorityNotification, read: boolean) => ({
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

// --- registry ---------------------------------------------------------------------------------

export const tipoCuitImpuestos = (registry: RegistryClassification, entity: boolean) => {

    const tax = (id: number, descripcion: string, estado = 'ACTIVO') => ({ id, periodo: 202401, descripcion, estado });
    const impuestos = entity
        ? [tax(30, 'IVA'), tax(10, 'GANANCIAS SOCIEDADES')]
        : registry.monotributista
            ? [tax(20, 'MONOTRIBUTO'), tax(21, 'MONOTRIBUTO AUTONOMO'), tax(30, 'IVA', 'BAJA DEFINITIVA')]
            : registry.autonomo
                ? [tax(30, 'IVA'), tax(11, 'GANANCIAS PERSONAS HUMANAS'), tax(308, 'APORTES SEG.SOCIAL AUTONOMOS')]
                : [tax(32, 'IVA EXENTO'), tax(20, 'MONOTRIBUTO', 'BAJA DEFINITIVA')];
    return { success: true, data: { impuestos } };
};

export const monotributoDashboard = (name: string, categoria: string | null): string => internals.page('Monotributo', `
<div class="panel"><h2>${internals.escape(name)}</h2>
${categoria ? `<div id="panelCategoria"><strong>Categoría ${categoria} Locaciones de servicios</strong></div>` : '<div id="panelCategoria">Sin categoría asignada</div>'}
</div>`);
