import type { CcmaBalances, CcmaMovement } from '../../../core/domain/ccma.js';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { SctData } from '../../../core/domain/sct.js';
import type { AuthorityNotification } from '../../../core/ports/authority-client.js';
import type { RegistryClassification } from '../../../core/ports/repositories.js';

// The simulated authority's data in the authority's own formats (AUTHORITY.md): JSF login
// pages, Mis Comprobantes' positional JSON rows and its three CSV generations, SCT CSV
// exports, the (assumed) CCMA HTML tables, e-ventanilla JSON and a getPersona_v2-like
// registration certificate.

export type CsvGeneration = 1 | 2 | 3;

const internals = {
    typeNames: { 1: 'Factura A', 3: 'Nota de Crédito A', 6: 'Factura B', 8: 'Nota de Crédito B', 11: 'Factura C', 13: 'Nota de Crédito C' } as Record<string, string>,
    rates: ['2,5%', '5%', '10,5%', '21%', '27%'],

    escape(text: string): string {

        return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    },

    // 1475,006 style: comma decimal, no thousands.
    comma(value: number | null): string {

        return value === null ? '' : String(value).replace('.', ',');
    },

    // 63.133,14 style: dot thousands, comma decimal, always two decimals.
    argentine(value: number | null): string {

        if (value === null) {
            return '';
        }

        const [whole, decimals] = Math.abs(value).toFixed(2).split('.');
        return `${value < 0 ? '-' : ''}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${decimals}`;
    },

    dmy(date: string): string {

        return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
    },

    quote(text: string): string {

        return `"${text.replace(/"/g, '""')}"`;
    },

    page(title: string, body: string): string {

        return `<!DOCTYPE html>\n<html lang="es"><head><meta charset="utf-8"><title>${internals.escape(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
    }
};

export const htmlPage = internals.page;
export const escapeHtml = internals.escape;

// --- login ---------------------------------------------------------------------------

export const loginUserPage = (viewState: string, error?: string): string => internals.page('ARCA - Acceso con Clave Fiscal', `
<div class="container"><h1>Ingresá con Clave Fiscal</h1>
${error ? `<div class="alert alert-danger"><span id="F1:msg">${internals.escape(error)}</span></div>` : ''}
<form id="F1" name="F1" method="post" action="/contribuyente_/login.xhtml" enctype="application/x-www-form-urlencoded">
<input type="hidden" name="F1" value="F1" />
<label for="F1:username">CUIT/CUIL</label>
<input id="F1:username" type="text" name="F1:username" value="" maxlength="11" />
<input id="F1:btnSiguiente" type="submit" name="F1:btnSiguiente" value="Siguiente" />
<input type="hidden" name="javax.faces.ViewState" id="j_id1:javax.faces.ViewState:0" value="${viewState}" autocomplete="off" />
</form></div>`);

export const loginPasswordPage = (viewState: string, cuit: string, error?: string): string => internals.page('ARCA - Acceso con Clave Fiscal', `
<div class="container"><h1>Ingresá con Clave Fiscal</h1>
<p>CUIT/CUIL: <strong>${cuit}</strong></p>
${error ? `<div class="alert alert-danger"><span id="F1:msg">${internals.escape(error)}</span></div>` : ''}
<form id="F1" name="F1" method="post" action="/contribuyente_/loginClave.xhtml" enctype="application/x-www-form-urlencoded">
<input type="hidden" name="F1" value="F1" />
<input type="hidden" name="F1:username" value="${cuit}" />
<label for="F1:password">Clave</label>
<input id="F1:password" type="password" name="F1:password" value="" />
<input id="F1:btnIngresar" type="submit" name="F1:btnIngresar" value="Ingresar" />
<a href="/contribuyente_/recuperarClave.xhtml">¿Olvidaste tu clave?</a>
<input type="hidden" name="javax.faces.ViewState" id="j_id1:javax.faces.ViewState:0" value="${viewState}" autocomplete="off" />
</form></div>`);

export const messagePage = (title: string, message: string): string => internals.page(title, `<div class="container"><h1>${internals.escape(title)}</h1><p class="alert">${internals.escape(message)}</p></div>`);

export const captchaPage = (viewState: string): string => internals.page('ARCA - Verificación', `
<form id="F1" name="F1" method="post" action="/contribuyente_/loginCaptchaAfip.xhtml">
<p>Por razones de seguridad, ingresá los caracteres de la imagen.</p>
<img src="/contribuyente_/captcha.jpg" alt="captcha" />
<input type="text" name="F1:captcha" value="" />
<input type="hidden" name="javax.faces.ViewState" value="${viewState}" />
</form>`);

export const portalPage = (cuit: string, name: string): string => internals.page('Portal ARCA', `<div id="root" data-cuit="${cuit}"><header>Hola, ${internals.escape(name)}</header><main>Mis servicios</main></div>`);

// --- service landings ---------------------------------------------------------------

export const mcmpIndex = (taxpayers: readonly { cuit: string; name: string }[]): string => internals.page('Mis Comprobantes', `
<h2>Seleccioná el contribuyente a consultar</h2>
<ul class="contribuyentes">
${taxpayers.map((taxpayer, index) => `<li><a href="setearContribuyente.do?idContribuyente=${index}" class="btn-contribuyente">${taxpayer.cuit.slice(0, 2)}-${taxpayer.cuit.slice(2, 10)}-${taxpayer.cuit.slice(10)} <span>${internals.escape(taxpayer.name)}</span></a></li>`).join('\n')}
</ul>`);

export const selectIndex = (title: string, taxpayers: readonly { cuit: string; name: string }[]): string => internals.page(title, `
<form id="seleccion" method="get" action="index.do"><label for="cuit">Contribuyente</label>
<select id="cuit" name="cuit">
${taxpayers.map((taxpayer) => `<option value="${taxpayer.cuit}">${taxpayer.cuit} - ${internals.escape(taxpayer.name)}</option>`).join('\n')}
</select></form>`);

// --- Mis Comprobantes -----------------------------------------------------------------

// Positional rows: received 52 elements; issued lacks indexes 10-12 (49 elements).
export const invoiceRow = (invoice: InvoiceRecord, kind: InvoiceKind, owner: string): (string | null)[] => {

    const row: (string | null)[] = new Array(52).fill(null);
    const amount = (value: number | null) => (value === null ? null : value.toFixed(2));
    row[0] = internals.dmy(invoice.fecha);
    row[1] = invoice.tipo;
    row[2] = internals.typeNames[invoice.tipo] ?? null;
    row[3] = invoice.puntoVenta;
    row[4] = invoice.numeroDesde;
    row[5] = invoice.numeroHasta;
    row[7] = 'CAE';
    row[8] = invoice.codigoAutorizacion;
    row[10] = invoice.counterpart.tipoDocumento;
    row[11] = invoice.counterpart.numeroDocumento;
    row[12] = invoice.counterpart.nombre;
    row[14] = kind === 'received' ? '80' : invoice.counterpart.tipoDocumento;
    row[15] = kind === 'received' ? owner : invoice.counterpart.numeroDocumento;
    row[16] = String(invoice.tipoCambio);
    row[17] = invoice.monedaOriginal;
    row[40] = amount(invoice.impNetoGravado);
    row[42] = amount(invoice.impNetoNoGravado);
    row[44] = amount(invoice.impOpExentas);
    row[46] = amount(invoice.otrosTributos);
    row[48] = amount(invoice.iva);
    row[50] = amount(invoice.importeOriginal);
    return kind === 'received' ? row : [...row.slice(0, 10), ...row.slice(13)];
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
            internals.dmy(invoice.fecha), invoice.tipo, invoice.puntoVenta, invoice.numeroDesde, invoice.numeroHasta, invoice.codigoAutorizacion ?? '',
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

        // Everything taxed at 21% in the simulated data; other rates' cells stay empty.
        const rateCells = rates.map((name) => (name === 'IVA 21%' ? internals.comma(invoice.iva) : name === 'Imp. Neto Gravado IVA 21%' ? internals.comma(invoice.impNetoGravado) : ''));
        return [...ids, internals.comma(invoice.tipoCambio), invoice.monedaOriginal, ...rateCells,
            internals.comma(invoice.impNetoGravado), internals.comma(invoice.impNetoNoGravado), internals.comma(invoice.impOpExentas), internals.comma(invoice.otrosTributos), internals.comma(invoice.iva), internals.comma(invoice.importeOriginal)].join(';');
    });
    return [header.map(internals.quote).join(';'), ...rows].join('\r\n') + '\r\n';
};

// --- SCT ---------------------------------------------------------------------------------

const sctCsv = (header: string[], rows: string[][]): string => {

    if (!rows.length) {
        return 'No se encontraron datos\r\n';
    }

    return [header, ...rows].map((cells) => cells.map(internals.quote).join(',')).join('\r\n') + '\r\n';
};

const isoToDmy = (iso: string | null) => (iso === null ? '' : internals.dmy(iso.slice(0, 10)));
const periodText = (yyyymm: string) => `${yyyymm.slice(0, 4)}-${yyyymm.slice(4, 6)}`;

export const sctExport = (sct: SctData & { establishments: boolean }, block: 'deudas' | 'vencimientos' | 'ddjj'): string => {

    const establishment = sct.establishments ? ['Establecimiento'] : [];
    if (block === 'deudas') {
        return sctCsv([...establishment, 'Impuesto', 'Concepto / Subconcepto', 'Ant. / Cuota', 'Período Fiscal', 'Fecha de Vencimiento', 'Saldo', 'Int. resarcitorios', 'Int. punitorios'], sct.deuda.map((debt) => [
            ...(sct.establishments ? [debt.establecimiento] : []), debt.impuesto, `${debt.concepto} / ${debt.subconcepto}`, debt.antCuota, periodText(debt.periodo), isoToDmy(debt.vencimiento),
            internals.argentine(debt.saldo), internals.argentine(debt.intResarcitorios), internals.argentine(debt.intPunitorios)
        ]));
    }

    if (block === 'vencimientos') {
        return sctCsv(['Impuesto', 'Concepto / Subconcepto', 'Ant. / Cuota', 'Período Fiscal', 'Fecha de Vencimiento', 'Detalle'], sct.vencimientos.map((due) => [
            due.impuesto, `${due.concepto} / ${due.subconcepto}`, due.antCuota, periodText(due.periodo), isoToDmy(due.vencimiento), due.detalle
        ]));
    }

    return sctCsv([...establishment, 'Impuesto', 'Concepto / Subconcepto', 'Ant. / Cuota', 'Período Fiscal', 'Fecha de Vencimiento', 'Estado'], sct.ddjj.map((ret) => [
        ...(sct.establishments ? [ret.establecimiento] : []), ret.impuesto, `${ret.concepto} / ${ret.subconcepto}`, ret.antCuota, periodText(ret.periodo), isoToDmy(ret.vencimiento), 'Presentada'
    ]));
};

// --- CCMA (assumed surface) ------------------------------------------------------------

export const ccmaSummaryPage = (balances: CcmaBalances, hasAccount: boolean): string => {

    if (!hasAccount) {
        return internals.page('CCMA - Estado de cuenta', '<p class="alert">No se encontraron datos para el contribuyente.</p>');
    }

    const row = (label: string, value: number | null) => `<tr><td>${label}</td><td>${internals.argentine(value)}</td><td>${value === null ? '' : '0,00'}</td><td>${internals.argentine(value)}</td></tr>`;
    return internals.page('CCMA - Estado de cuenta', `
<table id="resumen" class="table">
<thead><tr><th></th><th>Capital</th><th>Accesorios</th><th>Total</th></tr></thead>
<tbody>
${row('Saldo deudor', balances.saldoDeudor)}
${row('Saldo acreedor', balances.saldoAcreedor)}
</tbody></table>`);
};

export const ccmaMovementsPage = (movements: readonly CcmaMovement[]): string => {

    if (!movements.length) {
        return internals.page('CCMA - Movimientos', '<p class="alert">No se encontraron movimientos.</p>');
    }

    return internals.page('CCMA - Movimientos', `
<table id="movimientos" class="table">
<thead><tr><th>Período</th><th>Impuesto</th><th>Concepto</th><th>Subconcepto</th><th>Descripción</th><th>Fecha</th><th>Debe</th><th>Haber</th><th>Saldo</th></tr></thead>
<tbody>
${movements.map((movement) => `<tr><td>${movement.periodo}</td><td>${internals.escape(movement.impuesto)}</td><td>${internals.escape(movement.concepto)}</td><td>${internals.escape(movement.subconcepto)}</td><td>${internals.escape(movement.descripcion)}</td><td>${isoToDmy(movement.fechaMovimiento)}</td><td>${internals.argentine(movement.debe)}</td><td>${internals.argentine(movement.haber)}</td><td>${internals.argentine(movement.saldo)}</td></tr>`).join('\n')}
</tbody></table>`);
};

// --- DFE -----------------------------------------------------------------------------------

export const communication = (notification: AuthorityNotification, read: boolean) => ({
    idComunicacion: Number(notification.arcaId),
    organismoDesc: notification.organismo,
    fechaPublicacion: Date.parse(notification.fechaRecepcion),
    fechaVencimiento: null,
    fechaNotificacion: notification.fechaNotificacion === null ? null : Date.parse(notification.fechaNotificacion),
    sistemaPublicador: 'DFE',
    estado: read ? 2 : 1,
    estadoDesc: read ? 'Leída' : 'No leída',
    prioridad: 2,
    tieneAdjunto: false,
    tipo: notification.tipo,
    asunto: notification.asunto,
    mensaje: notification.asunto
});

// --- registry --------------------------------------------------------------------------

export const constancia = (cuit: string, registry: RegistryClassification, entity: boolean) => {

    const general = registry.autonomo
        ? { impuesto: [{ idImpuesto: 30, descripcionImpuesto: 'IVA' }, { idImpuesto: 11, descripcionImpuesto: 'GANANCIAS PERSONAS HUMANAS' }, { idImpuesto: 308, descripcionImpuesto: 'APORTES SEG.SOCIAL AUTONOMOS' }], categoriaAutonomo: [{ idCategoria: 2, descripcionCategoria: 'T2 CAT I INGRESOS HASTA $ 25.000,00', idImpuesto: 308 }] }
        : registry.monotributista ? null : { impuesto: entity ? [{ idImpuesto: 30, descripcionImpuesto: 'IVA' }, { idImpuesto: 10, descripcionImpuesto: 'GANANCIAS SOCIEDADES' }] : [{ idImpuesto: 32, descripcionImpuesto: 'IVA EXENTO' }] };
    const monotributo = registry.monotributista
        ? { categoriaMonotributo: { idCategoria: 20 + (registry.categoria ?? 'A').charCodeAt(0) - 65, descripcionCategoria: `${registry.categoria} LOCACIONES DE SERVICIOS`, idImpuesto: 20, periodo: 202501 }, impuesto: [{ idImpuesto: 20, descripcionImpuesto: 'MONOTRIBUTO' }, { idImpuesto: 21, descripcionImpuesto: 'MONOTRIBUTO AUTONOMO' }] }
        : null;
    return {
        personaReturn: {
            datosGenerales: { idPersona: Number(cuit), tipoPersona: entity ? 'JURIDICA' : 'FISICA', estadoClave: 'ACTIVO', domicilioFiscal: { provincia: 'BUENOS AIRES', localidad: 'TANDIL' } },
            datosMonotributo: monotributo,
            datosRegimenGeneral: general,
            metadata: { fechaHora: new Date().toISOString(), servidor: 'simulado' }
        }
    };
};
