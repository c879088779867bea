import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import { pesosAmount } from '../../../core/domain/invoice.js';
import type { AuthorityCredentials } from '../../../core/ports/authority-client.js';
import type { DateRange } from '../../../core/domain/period.js';
import { logicalUrl } from '../hosts.js';
import { readZip } from '../zip.js';
import { failure } from './failures.js';
import { pageText } from './html.js';
import type { HttpSession } from './http.js';
import { parseInvoicesCsv } from './invoices-csv.js';
import type { Landing } from './services.js';
import { openService } from './services.js';
import { blankToNull, parseAmount, parseCurrency, parseDigits, parseInvoiceType, requireAmount, requireDate } from './values.js';

// Mis Comprobantes (service mcmp, AUTHORITY.md): pick the taxpayer with
// setearContribuyente.do, then per query of at most 365 days: generarConsulta ->
// estimarResultados -> listaResultados until the query is finished (PE pending, PR
// processing, TE finished, ER error), then either the rows page by page (JSON, positional
// arrays) or the zipped CSV export (descargarComprobantes.do), parsed by its header row.

export interface MisComprobantesOptions {
    via: 'csv' | 'json';
    pageSize: number;
    pollIntervalMs: number;
    maxPolls: number;
}

interface AjaxEnvelope {
    estado?: string;
    mensajes?: unknown;
    recordsTotal?: number;
    datos?: {
        idConsulta?: number | string;
        serverSide?: boolean;
        recordsTotal?: number;
        consulta?: { estado?: string };
        data?: unknown;
    };
}

const internals = {
    base: '/mcmp/jsp',
    maxDays: 365,
    dayMs: 86_400_000,

    // Received rows (52 elements); issued rows lack the emisor columns 10-12, so every index
    // after 12 moves 3 places down.
    columns: {
        received: { fecha: 0, tipo: 1, puntoVenta: 3, desde: 4, hasta: 5, codigo: 8, docTipo: 10, docNumero: 11, nombre: 12, tipoCambio: 16, moneda: 17, neto: 40, noGravado: 42, exentas: 44, otros: 46, iva: 48, total: 50, length: 51 },
        issued: { fecha: 0, tipo: 1, puntoVenta: 3, desde: 4, hasta: 5, codigo: 8, docTipo: 11, docNumero: 12, nombre: null, tipoCambio: 13, moneda: 14, neto: 37, noGravado: 39, exentas: 41, otros: 43, iva: 45, total: 47, length: 48 }
    },

    dmy(date: string): string {

        return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
    },

    // Consecutive ranges of at most 365 days covering the range.
    split(range: DateRange): DateRange[] {

        const parts: DateRange[] = [];
        let from = Date.parse(`${range.fromDate}T00:00:00Z`);
        const to = Date.parse(`${range.toDate}T00:00:00Z`);
        while (from <= to) {
            const end = Math.min(to, from + (internals.maxDays - 1) * internals.dayMs);
            parts.push({ fromDate: new Date(from).toISOString().slice(0, 10), toDate: new Date(end).toISOString().slice(0, 10) });
            from = end + internals.dayMs;
        }

        return parts;
    },

    delay(ms: number): Promise<void> {

        return new Promise((resolve) => setTimeout(resolve, ms));
    },

    text(value: unknown): string {

        return value === null || value === undefined ? '' : String(value).trim();
    },

    row(values: unknown, kind: InvoiceKind): InvoiceRecord {

        const columns = internals.columns[kind];
        if (!Array.isArray(values) || values.length < columns.length) {
            throw failure('unexpected_page', 'fila de Mis Comprobantes con otra forma');
        }

        const at = (index: number | null): string => (index === null ? '' : internals.text(values[index]));
        const moneda = parseCurrency(at(columns.moneda));
        const importeOriginal = requireAmount(at(columns.total), 'total');
        const tipoCambio = moneda === 'PES' ? 1 : requireAmount(at(columns.tipoCambio), 'tipo de cambio');
        const numeroDesde = parseDigits(at(columns.desde));
        return {
            fecha: requireDate(at(columns.fecha), 'fecha'),
            tipo: parseInvoiceType(at(columns.tipo)),
            puntoVenta: parseDigits(at(columns.puntoVenta)),
            numeroDesde,
            numeroHasta: parseDigits(at(columns.hasta)) || numeroDesde,
            codigoAutorizacion: blankToNull(at(columns.codigo)),
            counterpart: {
                tipoDocumento: blankToNull(at(columns.docTipo)),
                numeroDocumento: blankToNull(at(columns.docNumero)),
                nombre: blankToNull(at(columns.nombre))
            },
            impNetoGravado: parseAmount(at(columns.neto)),
            impNetoNoGravado: parseAmount(at(columns.noGravado)),
            impOpExentas: parseAmount(at(columns.exentas)),
            otrosTributos: parseAmount(at(columns.otros)),
            iva: parseAmount(at(columns.iva)),
            tipoCambio,
            importeOriginal,
            monedaOriginal: moneda,
            importe: pesosAmount(importeOriginal, tipoCambio)
        };
    }
};

export const createMisComprobantes = (http: HttpSession, credentials: AuthorityCredentials, options: MisComprobantesOptions) => {

    let opened: Promise<void> | null = null;

    const ajax = (params: Record<string, string>): Promise<AjaxEnvelope> => {

        const url = logicalUrl('mcmp', `${internals.base}/ajax.do?${new URLSearchParams(params).toString()}`);
        return http.request({ url, accept: 'application/json, text/javascript, */*; q=0.01' }, (response) => {

            if (response.status !== 200) {
                throw failure('unexpected_page', `mcmp ${params.f}: HTTP ${response.status}`);
            }

            const body = response.json() as AjaxEnvelope | null;
            if (!body || typeof body !== 'object' || body.estado !== 'ok') {
                throw failure('unexpected_page', `mcmp ${params.f}: estado ${JSON.stringify(body?.estado ?? null)}`);
            }

            return body;
        });
    };

    // Pick the represented taxpayer among those the landing page offers.
    const choose = async (landing: Landing): Promise<void> => {

        const choices = [...landing.html.matchAll(/<a\b[^>]*href="([^"]*setearContribuyente\.do\?idContribuyente=(\d+)[^"]*)"[^>]*>([\s\S]*?)<\/a>/gi)];
        if (!choices.length) {
            if (credentials.representedCuit !== credentials.loginCuit) {
                throw failure('represented_unavailable', 'mcmp');
            }

            return;
        }

        const choice = choices.find((match) => pageText(match[3]!).replace(/\D/g, '').includes(credentials.representedCuit));
        if (!choice) {
            throw failure('represented_unavailable', 'mcmp');
        }

        await http.request({ url: logicalUrl('mcmp', `${internals.base}/setearContribuyente.do?idContribuyente=${choice[2]}`) }, (response) => {

            if (response.status !== 200) {
                throw failure('unexpected_page', `mcmp setearContribuyente: HTTP ${response.status}`);
            }

            if (/no (puede|tiene permiso para) (operar|representar)|no se encuentra disponible/i.test(pageText(response.text()))) {
                throw failure('represented_unavailable', 'mcmp');
            }
        });
    };

    const open = (): Promise<void> => {

        opened ??= openService(http, credentials, 'mcmp').then(choose).catch((err: unknown) => {

            opened = null;
            throw err;
        });
        return opened;
    };

    // One query of at most 365 days, waited for until finished.
    const query = async (kind: InvoiceKind, range: DateRange): Promise<InvoiceRecord[]> => {

        const t = kind === 'issued' ? 'E' : 'R';
        const generated = await ajax({
            f: 'generarConsulta',
            t,
            fechaEmision: `${internals.dmy(range.fromDate)} - ${internals.dmy(range.toDate)}`,
            tiposComprobantes: '',
            cuitConsultada: credentials.representedCuit
        });
        const id = internals.text(generated.datos?.idConsulta);
        if (!/^\d+$/.test(id)) {
            throw failure('unexpected_page', 'mcmp generarConsulta sin idConsulta');
        }

        const estimate = await ajax({ f: 'estimarResultados', id });
        const serverSide = estimate.datos?.serverSide !== false;
        const page = (start: number) => ajax({ f: 'listaResultados', id, start: String(start), length: String(options.pageSize) });

        let first = await page(0);
        for (let polls = 0; ; ++polls) {
            const state = first.datos?.consulta?.estado;
            if (state === 'TE') {
                break;
            }

            if (state === 'ER') {
                throw failure('unavailable', 'mcmp: la consulta terminó con error');
            }

            if (state !== 'PE' && state !== 'PR') {
                throw failure('unexpected_page', `mcmp: estado de consulta ${JSON.stringify(state ?? null)}`);
            }

            if (polls >= options.maxPolls) {
                throw failure('unavailable', 'mcmp: la consulta no terminó a tiempo');
            }

            await internals.delay(options.pollIntervalMs);
            first = await page(0);
        }

        if (options.via === 'csv') {
            return download(kind, id);
        }

        const total = Number(first.recordsTotal ?? first.datos?.recordsTotal ?? NaN);
        const rows: unknown[] = [];
        const take = (envelope: AjaxEnvelope) => {

            if (!Array.isArray(envelope.datos?.data)) {
                throw failure('unexpected_page', 'mcmp listaResultados sin datos');
            }

            rows.push(...envelope.datos.data);
            return envelope.datos.data.length;
        };

        let taken = take(first);
        if (serverSide && Number.isInteger(total)) {
            while (rows.length < total && taken > 0) {
                taken = take(await page(rows.length));
            }
        }

        return rows.map((values) => internals.row(values, kind));
    };

    const download = (kind: InvoiceKind, id: string): Promise<InvoiceRecord[]> => {

        const url = logicalUrl('mcmp', `${internals.base}/descargarComprobantes.do?id=${id}&tc=${kind === 'issued' ? 'E' : 'R'}&tf=csv`);
        return http.request({ url, accept: 'application/zip, application/octet-stream, */*' }, (response) => {

            if (response.status !== 200) {
                throw failure('unexpected_page', `mcmp descargarComprobantes: HTTP ${response.status}`);
            }

            let text: string;
            if (response.body.subarray(0, 2).toString('latin1') === 'PK') {
                let entries;
                try {
                    entries = readZip(response.body);
                }
                catch {
                    throw failure('unexpected_page', 'mcmp: ZIP ilegible');
                }

                const csv = entries.find((entry) => /\.csv$|comprobantes_consulta_csv/i.test(entry.name)) ?? entries[0];
                if (!csv) {
                    throw failure('unexpected_page', 'mcmp: ZIP vacío');
                }

                text = csv.data.toString('utf8');
            }
            else {
                text = response.text();
            }

            return parseInvoicesCsv(text, kind);
        });
    };

    return {
        async invoices(kind: InvoiceKind, range: DateRange): Promise<InvoiceRecord[]> {

            await open();
            const result: InvoiceRecord[] = [];
            for (const part of internals.split(range)) {
                result.push(...await query(kind, part));
            }

            return result;
        }
    };
};

export const splitRange = internals.split;
