import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { DateRange } from '../../../core/domain/period.js';
import { arcaHosts, arcaPaths, arcaServices } from '../hosts.js';
import { writeZip } from '../zip.js';
import { defaultFesMinGapMs } from './defaults.js';
import { invoicesIn } from './data.js';
import type { Faults } from './faults.js';
import { denied } from './service-entry.js';
import type { Taxpayer } from './pages.js';
import { commaAmount, dashedCuit, dmy, escapeHtml, htmlPage, messagePage } from './pages.js';
import type { Route } from './reply.js';
import { cookiesOf, formOf, html, json, redirect, send } from './reply.js';
import type { CsvGeneration, SimulatedState } from './state.js';

// Mis Comprobantes (fes.afip.gob.ar): index.do takes the token/sign and sets JSESSIONID and
// SESSION_TOKEN (a fixed session of `fesSessionMs`, 15 minutes, its end in exp_time). A key
// that reaches several taxpayers gets the cards of seleccionaEmpresaForm (N an index, the login
// CUIT last); one that reaches only itself goes straight to the menu. ajax.do (XHR only):
// generarConsulta (at most 365 days) -> estimarResultados -> listaResultados, pending (PE)
// `pendingPolls` times; descargarComprobantes.do zips the CSV of the generation of the day.
// Requests of a session closer than defaultFesMinGapMs (defaults.ts) are refused.

// Strictly sequential: a request sooner than `fesMinGapMs` after the previous one of its
// session is answered "BL<digits> <timestamp>" and ends that session.

interface FesState { login: string; selected: string | null; expiresAt: number; lastAt: number; alive: boolean }
interface Consulta { cuit: string; login: string; kind: InvoiceKind; range: DateRange; pending: number }

const internals = {
    typeNames: {
        1: 'Factura A',
        3: 'Nota de Crédito A',
        6: 'Factura B',
        8: 'Nota de Crédito B',
        11: 'Factura C',
        13: 'Nota de Crédito C'
    } as Record<string, string>,
    rates: ['2,5%', '5%', '10,5%', '21%', '27%'],
    bc: new Set(['6', '7', '8', '9', '10', '11', '12', '13', '15', '16']),
    dayMs: 86_400_000,
    quote: (text: string) => `"${text.replace(/"/g, '""')}"`,

    parseDmy(text: string): string | null {

        const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
        return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
    }
};


const mcmpSelection = (taxpayers: readonly Taxpayer[]): string => htmlPage('Mis Comprobantes', `
<div class="container"><h2>Elegí una persona para ingresar</h2>
<form name="seleccionaEmpresaForm" id="seleccionaEmpresaForm" method="post" action="/mcmp/jsp/setearContribuyente.do">
<input type="hidden" name="idContribuyente" value="" />
<div class="row">
${taxpayers.map((taxpayer, index) => `<div class="col-md-4"><a class="panel panel-default hoverazul${index === 0 ? ' border-primary' : ''}" href="#" onclick="document.seleccionaEmpresaForm.idContribuyente.value='${index}';document.seleccionaEmpresaForm.submit();"><div class="panel-body"><h3>${escapeHtml(taxpayer.name)}</h3><p>CUIT ${dashedCuit(taxpayer.cuit)}</p></div></a></div>`).join('\n')}
</div></form></div>`);

const mcmpMenu = (taxpayer: Taxpayer): string => htmlPage('Mis Comprobantes', `
<div class="navbar"><span class="representando">REPRESENTANDO A: <strong>${escapeHtml(taxpayer.name)} [${dashedCuit(taxpayer.cuit)}]</strong></span></div>
<div class="container"><a href="comprobantesEmitidos.do">Emitidos</a> <a href="comprobantesRecibidos.do">Recibidos</a></div>`);

const mcmpIrregular = (cuit: string): string => htmlPage('Mis Comprobantes - Error', `<div class="container"><div class="alert alert-danger">La CUIT ${cuit} registra irregularidades. Deberá dirigirse a la dependencia a la cual se encuentra inscripto. Err: 002</div></div>`);

// Gen 3 shows B and C invoices with 0,00 in every component; gen 1 has no "Otros Tributos".
// What the scraper reads back from each generation (null = not discriminated).
export const servedInvoice = (invoice: InvoiceRecord, generation: CsvGeneration): InvoiceRecord => {

    if (generation === 1) {
        return { ...invoice, otrosTributos: null };
    }

    return invoice;
};

const invoicesCsv = (invoices: readonly InvoiceRecord[], kind: InvoiceKind, generation: CsvGeneration, owner: string): string => {

    const party = kind === 'received' ? 'Emisor' : 'Receptor';
    const a = (invoice: InvoiceRecord) => invoice.counterpart;
    if (generation === 1) {
        const header = ['Fecha', 'Tipo', 'Punto de Venta', 'Número Desde', 'Número Hasta', 'Cód. Autorización', `Tipo Doc. ${party}`, `Nro. Doc. ${party}`, `Denominación ${party}`, 'Tipo Cambio', 'Moneda', 'Imp. Neto Gravado', 'Imp. Neto No Gravado', 'Imp. Op. Exentas', 'IVA', 'Imp. Total'];
        const rows = invoices.map((invoice) => [
            dmy(invoice.fecha), `${invoice.tipo} - ${internals.typeNames[invoice.tipo] ?? 'Comprobante'}`, invoice.puntoVenta, invoice.numeroDesde, invoice.numeroHasta, invoice.codigoAutorizacion ?? '',
            a(invoice).tipoDocumento ?? '', a(invoice).numeroDocumento ?? '', a(invoice).nombre ?? '', commaAmount(
                invoice.tipoCambio
            ), invoice.monedaOriginal === 'PES' ? '$' : 'USD',
            commaAmount(invoice.impNetoGravado), commaAmount(
                invoice.impNetoNoGravado
            ), commaAmount(invoice.impOpExentas), commaAmount(invoice.iva), commaAmount(invoice.importeOriginal)
        ].map(internals.quote).join(','));
        return [header.map(internals.quote).join(','), ...rows].join('\r\n') + '\r\n';
    }

    if (generation === 2) {
        const header = ['Fecha de Emisión', 'Tipo de Comprobante', 'Punto de Venta', 'Número Desde', 'Número Hasta', 'Cód. Autorización', `Tipo Doc. ${party}`, `Nro. Doc. ${party}`, `Denominación ${party}`, 'Tipo Cambio', 'Moneda', 'Imp. Neto Gravado', 'Imp. Neto No Gravado', 'Imp. Op. Exentas', 'Otros Tributos', 'IVA', 'Imp. Total'];
        const rows = invoices.map((invoice) => [
            invoice.fecha, invoice.tipo, invoice.puntoVenta, invoice.numeroDesde, invoice.numeroHasta, invoice.codigoAutorizacion ?? '',
            a(invoice).tipoDocumento ?? '', a(invoice).numeroDocumento ?? '', `${a(invoice).nombre ?? ''}  `, commaAmount(invoice.tipoCambio), invoice.monedaOriginal,
            commaAmount(invoice.impNetoGravado), commaAmount(
                invoice.impNetoNoGravado
            ), commaAmount(invoice.impOpExentas), commaAmount(invoice.otrosTributos), commaAmount(invoice.iva), commaAmount(invoice.importeOriginal)
        ].join(';'));
        return [header.map(internals.quote).join(';'), ...rows].join('\r\n') + '\r\n';
    }

    const identity = kind === 'received'
        ? [
            'Fecha de Emisión',
            'Tipo de Comprobante',
            'Punto de Venta',
            'Número Desde',
            'Número Hasta',
            'Cód. Autorización',
            'Tipo Doc. Emisor',
            'Nro. Doc. Emisor',
            'Denominación Emisor',
            'Tipo Doc. Receptor',
            'Nro. Doc. Receptor',
            'Tipo Cambio',
            'Moneda'
        ]
        : [
            'Fecha de Emisión',
            'Tipo de Comprobante',
            'Punto de Venta',
            'Número Desde',
            'Número Hasta',
            'Cód. Autorización',
            'Tipo Doc. Receptor',
            'Nro. Doc. Receptor',
            'Denominación Receptor',
            'Tipo Cambio',
            'Moneda'
        ];
    const rates = ['Imp. Neto Gravado IVA 0%', ...internals.rates.flatMap((rate) => [`IVA ${rate}`, `Imp. Neto Gravado IVA ${rate}`])];
    const header = [...identity, ...rates, 'Imp. Neto Gravado Total', 'Imp. Neto No Gravado', 'Imp. Op. Exentas', 'Otros Tributos', 'Total IVA', 'Imp. Total'];
    const rows = invoices.map((invoice) => {

        const ids = [invoice.fecha, invoice.tipo, invoice.puntoVenta, invoice.numeroDesde, invoice.numeroHasta, invoice.codigoAutorizacion ?? '', a(invoice).tipoDocumento ?? '', a(invoice).numeroDocumento ?? '', `${a(invoice).nombre ?? ''} `];
        if (kind === 'received') {
            ids.push('80', owner);
        }

        // B and C: 0,00 in every amount column but the total. A: everything at 21%.
        const bc = internals.bc.has(invoice.tipo);
        const zero = (value: number | null) => (bc ? '0,00' : commaAmount(value));
        const rateCells = rates.map(
            (name) => (bc ? '0,00' : name === 'IVA 21%' ? commaAmount(invoice.iva) : name === 'Imp. Neto Gravado IVA 21%' ? commaAmount(
                invoice.impNetoGravado
            ) : '0,00')
        );
        return [...ids, commaAmount(invoice.tipoCambio), invoice.monedaOriginal === 'PES' ? '$' : 'USD', ...rateCells,
            zero(invoice.impNetoGravado), zero(
                invoice.impNetoNoGravado
            ), zero(invoice.impOpExentas), zero(invoice.otrosTributos), zero(invoice.iva), commaAmount(invoice.importeOriginal)].join(';');
    });
    return [header.map(internals.quote).join(';'), ...rows].join('\r\n') + '\r\n';
};

export const misComprobantesRoutes = (state: SimulatedState, faults: Faults): Route => {

    const options = state.options;
    const irregular = options.irregular ?? (() => false);
    const pendingPolls = options.pendingPolls ?? 1;
    const fesMinGapMs = options.fesMinGapMs ?? defaultFesMinGapMs;
    const fesSessionMs = options.fesSessionMs ?? 15 * 60_000;
    const sessions = state.sessions<FesState>('mcmp');
    const consultas = new Map<number, Consulta>();
    let nextConsulta = 184_522_000;

    const entry = async (req: IncomingMessage, res: ServerResponse, now: number) => {

        const login = await state.entryLogin(req, arcaServices.mcmp.name);
        if (!login) {
            return denied(res);
        }

        const id = state.token();
        const fes: FesState = { login, selected: null, expiresAt: now + fesSessionMs, lastAt: now, alive: true };
        state.remember(sessions, id, fes);
        const people = state.reach(login);
        const sso = Buffer.from(`<?xml version="1.0"?><sso><login uid="${login}" exp_time="${Math.floor(fes.expiresAt / 1000)}">${people.slice(1).map((p) => `<relations>${p.cuit}</relations>`).join('')}</login></sso>`).toString('base64');
        const cookies = [`JSESSIONID=${id}; Path=/mcmp; Secure; HttpOnly`, `SESSION_TOKEN=${state.issue(encodeURIComponent(sso))}; Path=/; Secure`];
        if (people.length === 1) {
            fes.selected = login;
            return html(res, mcmpMenu(people[0]!), 200, { 'set-cookie': cookies });
        }

        return html(res, mcmpSelection([...people.slice(1), people[0]!]), 200, { 'set-cookie': cookies });
    };

    const ajax = async (req: IncomingMessage, res: ServerResponse, fes: FesState, query: URLSearchParams) => {

        if (req.headers['x-requested-with'] !== 'XMLHttpRequest') {
            return html(res, messagePage('Error', 'Acceso no permitido'), 403);
        }

        const f = query.get('f');
        if (!fes.selected) {
            return json(res, { estado: 'error', mensajeError: 'Error DB' });
        }

        if (f === 'generarConsulta') {
            const [from, to] = (query.get('fechaEmision') ?? '').split(' - ').map(internals.parseDmy);
            const t = query.get('t');
            if (query.get('cuitConsultada') !== fes.selected) {
                return json(res, { estado: 'error', mensajeError: 'Error DB' });
            }

            if (!from || !to || from > to || (t !== 'E' && t !== 'R')) {
                return json(res, { estado: 'error', mensajeError: 'Rango de fechas inválido' });
            }

            if ((Date.parse(to) - Date.parse(from)) / internals.dayMs > 364) {
                return json(res, { estado: 'error', mensajeError: 'Rango máximo: 365 días' });
            }

            const id = nextConsulta++;
            state.remember(consultas, id, {
                cuit: fes.selected,
                login: fes.login,
                kind: t === 'E' ? 'issued' : 'received',
                range: { fromDate: from, toDate: to },
                pending: pendingPolls
            });
            return json(res, { estado: 'ok', datos: { idConsulta: id } });
        }

        const id = Number(query.get('id'));
        const consulta = consultas.get(id);
        if (!consulta || consulta.cuit !== fes.selected) {
            return json(res, { estado: 'error', mensajeError: 'Error DB' });
        }

        const rows = invoicesIn(state.taxpayer(consulta.cuit)[consulta.kind], consulta.range);
        if (f === 'estimarResultados') {
            return json(res, { estado: 'ok', datos: { cantidad: rows.length } });
        }

        if (f === 'listaResultados') {
            if (consulta.pending > 0) {
                consulta.pending--;
                return json(res, { estado: 'ok', recordsTotal: 0, recordsFiltered: 0, datos: { consulta: { idConsulta: id, estado: 'PE' }, data: [] } });
            }

            if (!rows.length) {
                return json(res, { estado: 'error', mensajeError: 'No existe información para la consulta realizada' });
            }

            return json(res, {
                estado: 'ok',
                recordsTotal: rows.length,
                recordsFiltered: rows.length,
                datos: { consulta: { idConsulta: id, estado: 'FI' }, data: [] }
            });
        }

        return json(res, { estado: 'error', mensajeError: 'Función desconocida' });
    };

    const download = (res: ServerResponse, fes: FesState, query: URLSearchParams) => {

        const id = Number(query.get('id'));
        const consulta = consultas.get(id);
        if (!consulta || consulta.cuit !== fes.selected || consulta.pending > 0 || query.get('tf') !== 'csv') {
            return html(res, messagePage('Mis Comprobantes', 'La consulta no está disponible para descargar.'), 404);
        }

        state.read({ host: arcaHosts.mcmp, cuit: consulta.cuit, what: `mcmp ${consulta.kind === 'issued' ? 'E' : 'R'}` });
        const rows = invoicesIn(state.taxpayer(consulta.cuit)[consulta.kind], consulta.range);
        const stamp = `${state.today.replace(/-/g, '')}-1032`;
        const name = `comprobantes_consulta_csv_${consulta.kind === 'issued' ? 'emitidos' : 'recibidos'}_${id}_${consulta.login}_${stamp} (montos expresados en pesos).csv`;
        const zip = writeZip([{ name, data: Buffer.from(invoicesCsv(rows, consulta.kind, state.generation, consulta.cuit), 'utf8') }]);
        return send(res, 200, zip, 'application/zip', { 'content-disposition': `attachment; filename="comprobantes_consulta_csv_${id}.zip"` });
    };

    return async (req, res, path, query) => {

        const now = Date.now();
        if (path === arcaServices.mcmp.entry && req.method === 'POST') {
            return entry(req, res, now);
        }

        const fes = sessions.get(cookiesOf(req).JSESSIONID ?? '');
        const isAjax = path.endsWith('/ajax.do');
        if (!fes || !fes.alive || now > fes.expiresAt) {
            return isAjax ? json(res, {
                estado: 'error',
                mensajeError: 'Su sesión ha expirado. Vuelva a ingresar.'
            }) : html(res, messagePage('Mis Comprobantes', 'Su sesión ha expirado'), 403);
        }

        // Strictly sequential and paced, or the firewall answers "BL…" and ends the session.
        const gap = now - fes.lastAt;
        fes.lastAt = now;
        if ((fesMinGapMs && gap < fesMinGapMs) || faults.chance(faults.failures.block)) {
            fes.alive = false;
            return faults.block(res);
        }

        const people = state.reach(fes.login);
        const selectionOrder = [...people.slice(1), people[0]!];
        if (path === '/mcmp/jsp/seleccionIngreso.do') {
            return html(res, people.length === 1 ? mcmpMenu(people[0]!) : mcmpSelection(selectionOrder));
        }

        if (path === '/mcmp/jsp/setearContribuyente.do') {
            const form = req.method === 'POST' ? await formOf(req) : query;
            const chosen = selectionOrder[Number(form.get('idContribuyente') ?? '-1')];
            if (!chosen || people.length === 1) {
                return html(res, messagePage('Mis Comprobantes', 'El contribuyente seleccionado no se encuentra disponible.'));
            }

            if (irregular(chosen.cuit)) {
                fes.selected = null;
                return html(res, mcmpIrregular(chosen.cuit));
            }

            fes.selected = chosen.cuit;
            return html(res, mcmpMenu(chosen));
        }

        if (path === '/mcmp/jsp/logout.do') {
            fes.alive = false;
            return redirect(res, `https://${arcaHosts.portal}${arcaPaths.portalApp}`);
        }

        if (isAjax) {
            return ajax(req, res, fes, query);
        }

        if (path === '/mcmp/jsp/descargarComprobantes.do') {
            return download(res, fes, query);
        }

        return html(res, messagePage('No encontrado', 'La página solicitada no existe.'), 404);
    };
};
