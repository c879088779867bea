import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import type { DateRange } from '../../../core/domain/period.js';
import { formatDate } from '../../../core/domain/time.js';
import type { AuthorityFailure } from '../../../core/ports/authority-client.js';
import { logicalUrl } from '../hosts.js';
import { ZipTooLarge, readZip, zipText } from '../zip.js';
import { failure, isAuthorityFailure } from './failures.js';
import { decodeEntities, findForm, pageText } from './html.js';
import type { HttpResponse, HttpSession, TransportClock } from './http.js';
import { parseInvoicesCsv } from './invoices-csv.js';
import { openService } from './services.js';

// Mis Comprobantes (service mcmp on fes.afip.gob.ar, docs/authority.md). One fes session per key
// (about 15 minutes, SESSION_TOKEN's exp_time): entry index.do; the taxpayer is chosen among
// the `onclick` cards of seleccionaEmpresaForm (N is an index: the card showing the CUIT is
// picked) and checked against the "REPRESENTANDO A:" header. Per query of at most 365 days:
// ajax.do generarConsulta -> estimarResultados -> listaResultados until not pending (PE), then
// the zipped CSV. Requests are strictly sequential and paced by the transport; a firewall
// block or an expired session reopens the service once, then the fes session is given up.

export interface MisComprobantesOptions {
    pollIntervalMs: number;
    maxPolls: number;
    clock: TransportClock;
}

interface AjaxEnvelope {
    estado?: unknown;
    mensajeError?: unknown;
    recordsTotal?: unknown;
    datos?: { idConsulta?: unknown; consulta?: { estado?: unknown; error?: unknown } | null; data?: unknown } | null;
}

const internals = {
    base: '/mcmp/jsp',
    // "Rango máximo: 365 días" per query: the authority's limit, so the split lives here.
    maxDays: 365,
    dayMs: 86_400_000,

    // Consecutive ranges of at most maxDays days covering the range, oldest first.
    split(range: DateRange): DateRange[] {

        const parts: DateRange[] = [];
        const to = Date.parse(`${range.toDate}T00:00:00Z`);
        for (let from = Date.parse(`${range.fromDate}T00:00:00Z`); from <= to;) {
            const end = Math.min(to, from + (internals.maxDays - 1) * internals.dayMs);
            parts.push({ fromDate: formatDate(new Date(from)), toDate: formatDate(new Date(end)) });
            from = end + internals.dayMs;
        }

        return parts;
    },

    sessionMarginMs: 30_000,
    defaultSessionMs: 14 * 60_000,

    dmy: (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`,

    // The cards of seleccionaEmpresaForm: index N and the text they show.
    cards(html: string): { index: string; text: string }[] {

        const cards: { index: string; text: string }[] = [];
        for (const match of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
            const attributes = match[1]!;
            const onclick = /\bonclick\s*=\s*"([^"]*)"/i.exec(attributes)?.[1] ?? /\bonclick\s*=\s*'([^']*)'/i.exec(attributes)?.[1];
            const index = onclick ? /value\s*=\s*(?:'|&#39;|\\')(\d+)/.exec(decodeEntities(onclick))?.[1] : undefined;
            if (index !== undefined && /\bpanel\b/i.test(attributes)) {
                cards.push({ index, text: pageText(match[2]!) });
            }
        }

        return cards;
    },

    // "REPRESENTANDO A: NOMBRE [20-12345678-6]" (digits compared without dashes).
    representing(html: string): string | null {

        const match = /REPRESENTANDO\s+A\s*:([^<]*(?:<[^>]+>[^<]*){0,6})/i.exec(html);
        return match ? pageText(match[1]!).replace(/\D/g, '') : null;
    },

    irregular: (text: string) => /registra\s+irregularidades|Err:\s*002/i.test(text),

    sessionExpiry(token: string | null, now: number): number {

        if (token) {
            try {
                const xml = Buffer.from(decodeURIComponent(token), 'base64').toString('utf8');
                const seconds = /exp_time="(\d+)"/.exec(xml)?.[1];
                if (seconds) {
                    return Number(seconds) * 1000;
                }
            }
            catch {
                // an unreadable token: assume the documented length
            }
        }

        return now + internals.defaultSessionMs;
    }
};


export const createMisComprobantes = (http: HttpSession, loginCuit: string, options: MisComprobantesOptions) => {

    const fes = { open: false, expiresAt: 0, selected: null as string | null, lastPage: null as string | null, givenUp: null as AuthorityFailure | null };
    const url = (path: string) => logicalUrl('mcmp', `${internals.base}/${path}`);

    const open = async (): Promise<void> => {

        fes.open = false;
        fes.selected = null;
        const landing = await openService(http, loginCuit, 'mcmp');
        fes.expiresAt = internals.sessionExpiry(http.cookie(url('index.do'), 'SESSION_TOKEN'), options.clock.now());
        fes.lastPage = landing.text();
        fes.open = true;
    };

    const checkSelected = (response: HttpResponse, cuit: string): void => {

        const html = response.text();
        if (internals.irregular(html)) {
            throw failure('irregularities', `mcmp ${cuit}`);
        }

        const shown = internals.representing(html);
        if (shown === null) {
            throw http.unexpected(response, 'mcmp', 'seleccion', 'sin el encabezado REPRESENTANDO A');
        }

        if (!shown.includes(cuit)) {
            throw failure('represented_unavailable', `mcmp ${cuit}`);
        }
    };

    const select = async (cuit: string): Promise<void> => {

        let html = fes.lastPage ?? '';
        if (!/seleccionaEmpresaForm/i.test(html) && internals.representing(html) !== cuit) {
            html = await http.request({ url: url('seleccionIngreso.do'), referer: url('index.do') }, (response) => response.text());
        }

        const cards = internals.cards(html);
        if (!cards.length) {
            // A key that reaches one taxpayer only: no selection page, the header says who.
            const shown = internals.representing(html);
            if (shown !== null && shown.includes(cuit)) {
                fes.selected = cuit;
                return;
            }

            throw failure('represented_unavailable', `mcmp ${cuit}`);
        }

        const card = cards.find((candidate) => candidate.text.replace(/\D/g, '').includes(cuit));
        if (!card) {
            throw failure('represented_unavailable', `mcmp ${cuit}`);
        }

        const form = findForm(html, 'seleccionaEmpresaForm');
        const field = /seleccionaEmpresaForm\.(\w+)\.value/.exec(html)?.[1] ?? 'idContribuyente';
        // Public clients choose by posting the page's form or by a GET with the index: the form
        // first, the GET when the answer is no taxpayer's page at all.
        const action = new URL(form?.action ?? 'setearContribuyente.do', url('index.do'));
        let chosen = await http.request({
            method: 'POST',
            url: action,
            referer: url('index.do'),
            origin: `https://${url('index.do').host}`,
            retry: 'safe',
            form: { ...form?.fields, [field]: card.index }
        }, (response) => response);
        if (internals.representing(chosen.text()) === null && !internals.irregular(chosen.text())) {
            chosen = await http.request({ url: new URL(`${action.pathname}?${new URLSearchParams({ [field]: card.index }).toString()}`, action), referer: url('index.do') }, (response) => response);
        }

        checkSelected(chosen, cuit);
        fes.lastPage = chosen.text();
        fes.selected = cuit;
    };

    // The fes session open and the taxpayer chosen; reopened when the session is about to end.
    const ready = async (cuit: string): Promise<void> => {

        if (fes.givenUp) {
            throw fes.givenUp;
        }

        if (!fes.open || options.clock.now() >= fes.expiresAt - internals.sessionMarginMs) {
            await open();
        }

        if (fes.selected !== cuit) {
            await select(cuit);
        }
    };

    const ajax = (kind: InvoiceKind, params: Record<string, string>): Promise<AjaxEnvelope> => {

        return http.request({
            url: url(`ajax.do?${new URLSearchParams(params).toString()}`),
            accept: 'application/json, text/javascript, */*; q=0.01',
            referer: url(kind === 'issued' ? 'comprobantesEmitidos.do' : 'comprobantesRecibidos.do'),
            xhr: true
        }, (response) => {

            const body = response.json() as AjaxEnvelope | undefined;
            if (response.status !== 200 || !body || typeof body !== 'object') {
                throw http.unexpected(response, 'mcmp', String(params.f), `HTTP ${response.status}, no es JSON`);
            }

            if (body.estado === 'ok') {
                return body;
            }

            const message = String(body.mensajeError ?? '');
            if (internals.irregular(message)) {
                throw failure('irregularities', 'mcmp');
            }

            if (/no existe informaci/i.test(message)) {
                return { estado: 'ok', datos: { data: [] }, recordsTotal: 0 };
            }

            if (/sesi[oó]n|logueado|expir|Error DB/i.test(message)) {
                throw failure('session_expired', `mcmp ${params.f}`);
            }

            throw http.unexpected(response, 'mcmp', String(params.f), `estado ${JSON.stringify(body.estado ?? null)}`);
        });
    };

    const download = (kind: InvoiceKind, id: string): Promise<InvoiceRecord[]> => {

        const tc = kind === 'issued' ? 'E' : 'R';
        return http.request({
            url: url(`descargarComprobantes.do?id=${id}&tc=${tc}&tf=csv`),
            accept: 'application/zip, application/octet-stream, */*',
            referer: url(kind === 'issued' ? 'comprobantesEmitidos.do' : 'comprobantesRecibidos.do')
        }, (response) => {

            if (response.status !== 200 || response.body.subarray(0, 2).toString('latin1') !== 'PK') {
                throw http.unexpected(response, 'mcmp', 'descargarComprobantes', `HTTP ${response.status}, no es un ZIP`);
            }

            let entries;
            try {
                entries = readZip(response.body);
            }
            catch (err) {
                throw err instanceof ZipTooLarge ? failure('too_large', `mcmp: ${err.message}`) : failure('unexpected_page', 'mcmp: ZIP ilegible');
            }

            const csv = entries.find((entry) => /\.csv$/i.test(entry.name));
            if (!csv) {
                throw failure('unexpected_page', 'mcmp: el ZIP no trae un CSV');
            }

            try {
                return parseInvoicesCsv(zipText(csv), kind);
            }
            catch (err) {
                if (isAuthorityFailure(err) && err.kind === 'unexpected_page') {
                    http.unexpected({ ...response, text: () => zipText(csv) }, 'mcmp', 'csv', err.detail);
                }

                throw err;
            }
        });
    };

    // One query of at most 365 days, waited for until it is no longer pending.
    const query = async (cuit: string, kind: InvoiceKind, range: DateRange): Promise<InvoiceRecord[]> => {

        const generated = await ajax(kind, {
            f: 'generarConsulta',
            t: kind === 'issued' ? 'E' : 'R',
            fechaEmision: `${internals.dmy(range.fromDate)} - ${internals.dmy(range.toDate)}`,
            tiposComprobantes: '',
            cuitConsultada: cuit
        });
        const id = String(generated.datos?.idConsulta ?? '');
        if (!/^\d+$/.test(id)) {
            return [];                                  // "No existe información": no rows
        }

        // Required by one public client, skipped or never called by others: asked, and an
        // answer it cannot read (captured) does not stop the query.
        await ajax(kind, { f: 'estimarResultados', id }).catch((err: unknown) => {

            if (!isAuthorityFailure(err) || err.kind !== 'unexpected_page') {
                throw err;
            }
        });
        let list = await ajax(kind, { f: 'listaResultados', id });
        for (let polls = 0; list.datos?.consulta?.estado === 'PE'; ++polls) {
            if (polls >= options.maxPolls) {
                throw failure('unavailable', 'mcmp: la consulta sigue pendiente');
            }

            await options.clock.sleep(options.pollIntervalMs);
            list = await ajax(kind, { f: 'listaResultados', id });
        }

        if (list.datos?.consulta?.error) {
            throw failure('unavailable', `mcmp: ${String(list.datos.consulta.error).slice(0, 80)}`);
        }

        const listed = Number(list.recordsTotal);
        if (list.recordsTotal !== undefined && listed === 0) {
            return [];
        }

        const rows = await download(kind, id);
        // Never a list cut short silently: the export must hold what the query counted.
        if (Number.isInteger(listed) && listed > 0 && rows.length !== listed) {
            throw failure('unexpected_page', `mcmp: la consulta contó ${listed} comprobantes y el CSV trae ${rows.length}`);
        }

        return rows;
    };

    return {
        async invoices(cuit: string, kind: InvoiceKind, range: DateRange): Promise<InvoiceRecord[]> {

            const result: InvoiceRecord[] = [];
            for (const part of internals.split(range)) {
                let recovered = false;
                for (;;) {
                    try {
                        await ready(cuit);
                        result.push(...await query(cuit, kind, part));
                        break;
                    }
                    catch (err) {
                        const recoverable = isAuthorityFailure(err) && (err.kind === 'firewall_block' || err.kind === 'session_expired');
                        if (!recoverable || fes.givenUp) {
                            throw err;
                        }

                        // A block ends the fes session: reopen it once (the transport holds the host
                        // closed for the configured wait first); a second one gives fes up for this key.
                        fes.open = false;
                        if (recovered) {
                            if (err.kind === 'firewall_block') {
                                fes.givenUp = err;
                            }

                            throw err;
                        }

                        recovered = true;
                    }
                }
            }

            return result;
        },

        async close(): Promise<void> {

            if (fes.open && !fes.givenUp) {
                fes.open = false;
                await http.request({ url: url('logout.do'), retry: 'never' }, () => undefined).catch(() => undefined);
            }
        }
    };
};
