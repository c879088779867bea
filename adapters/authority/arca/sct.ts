import type { SctData, SctDebt, SctDueDate, SctReturn } from '../../../core/domain/sct.js';
import { dateToIso } from '../../../core/domain/time.js';
import { logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import { decodeEntities, parseForms, selectOptions } from './html.js';
import type { HttpResponse, HttpSession } from './http.js';
import { openService } from './services.js';
import { parseAmount, parseDate } from './authority-values.js';

// Sistema de Cuentas Tributarias (system cuenta_corriente_contrib, ctacte.cloud.afip.gob.ar;
// docs/authority.md): the page inside the iframe `homeContribuyente` holds the Tapestry
// selector `$PropertySelection` (values are indices, labels the CUIT; the page opens on whoever
// was chosen last; a key that reaches one taxpayer gets no selector). The rest-access JSON
// methods getDeudas, getVencimientos and getFaltasPresentacion answer for the CUIT chosen
// there (they ignore a CUIT argument), so the taxpayer is always chosen and checked first,
// then the three are called one after another.
//
// The three lists are shaped differently: debts carry `impuestoView` ("30 - IVA"), due dates
// `descImpuesto` / `descConcepto` and `tipoOperacion`, missing returns a numeric `impuesto`
// (103) with `descImpuesto` and a 4-digit period. What is stored is the text as ARCA writes it
// in its views: "code - description" when ARCA gives both (a debt's view, a missing return's
// code and description), the description alone when that is all it gives (a due date); a bare
// code only when ARCA gives no name at all.

type Method = 'getDeudas' | 'getVencimientos' | 'getFaltasPresentacion';

interface Item {
    [field: string]: unknown;
}

interface SelectorPage {
    url: URL;
    html: string;
}

const internals = {
    service: 'afip.dit.sct.homeContribuyenteView.services.HomeContribuyenteViewService',
    wrapper: 'afip.dit.sct.restaccessCommon.model.Respuesta',

    // A view field may come as text or as an object with a description (unknown: both read).
    view(value: unknown): string {

        if (value === null || value === undefined) {
            return '';
        }

        if (typeof value === 'object') {
            const object = value as Record<string, unknown>;
            return internals.view(object.descripcion ?? object.descripcionCorta ?? object.desc ?? object.id ?? '');
        }

        return String(value).trim();
    },

    // 8 digits (20240500, 20250000 for a year) or 6 -> YYYYMM (YYYY00 for a year).
    period(value: unknown): string {

        const text = internals.view(value).replace(/\D/g, '');
        if (/^\d{8}$/.test(text)) {
            return text.slice(0, 6);
        }

        if (/^\d{6}$/.test(text)) {
            return text;
        }

        if (/^\d{4}$/.test(text)) {
            return `${text}00`;
        }

        throw failure('unexpected_page', `SCT: período ${JSON.stringify(text.slice(0, 12))}`);
    },

    // unknown format: ISO date, dd/mm/yyyy or epoch ms; all read.
    date(value: unknown): string | null {

        if (value === null || value === undefined || value === '') {
            return null;
        }

        if (typeof value === 'number' || /^\d{10,}$/.test(String(value))) {
            return dateToIso(new Date(Number(value)).toISOString().slice(0, 10));
        }

        const date = parseDate(String(value), 'vencimiento');
        return date === null ? null : dateToIso(date);
    },

    amount(value: unknown, what: string): number {

        const parsed = parseAmount(typeof value === 'number' ? value : internals.view(value), what);
        return parsed ?? 0;
    },

    // A block's items under the key public code shows, or the block's only key, or the block
    // itself when it is already a list.
    items(data: unknown, key: string): Item[] {

        if (Array.isArray(data) || data === null || typeof data !== 'object') {
            return internals.list(data);
        }

        const block = data as Record<string, unknown>;
        const keys = Object.keys(block);
        return internals.list(key in block ? block[key] : keys.length === 1 ? block[keys[0]!] : null);
    },

    list(value: unknown): Item[] {

        if (value === null || value === undefined || value === '') {
            return [];
        }

        return (Array.isArray(value) ? value : [value]).filter((item): item is Item => Boolean(item) && typeof item === 'object');
    },

    // A field as ARCA names it: its view ("30 - IVA"), its code and description joined the same
    // way, the description alone, or the bare code.
    named(item: Item, field: string): string {

        const view = internals.view(item[`${field}View`]);
        if (view) {
            return view;
        }

        const capital = `${field[0]!.toUpperCase()}${field.slice(1)}`;
        const description = internals.view(item[`desc${capital}`] ?? item[`descripcion${capital}`]);
        const code = internals.view(item[field]);
        if (description && code && /^\d+$/.test(code)) {
            return `${code} - ${description}`;
        }

        return description || code;
    },

    common(item: Item) {

        return {
            impuesto: internals.named(item, 'impuesto'),
            concepto: internals.named(item, 'concepto'),
            subconcepto: internals.named(item, 'subconcepto'),
            periodo: internals.period(item.periodoFiscal ?? item.periodo),
            antCuota: internals.view(item.anticipocuota ?? item.anticipoCuota)
        };
    },

    // The option labels of the selector and which one is chosen.
    options(html: string): { value: string; cuit: string; selected: boolean }[] | null {

        return selectOptions(html, '$PropertySelection')?.map((option) => ({
            value: option.value,
            cuit: option.label.replace(/\D/g, ''),
            selected: option.selected
        })) ?? null;
    }
};

const parseSctDebts = (data: unknown): SctDebt[] => internals.items(data, 'deuda').map((item) => ({
    establecimiento: internals.view(item.establecimientoView ?? item.establecimiento),
    ...internals.common(item),
    vencimiento: internals.date(item.fechaVencimiento),
    saldo: internals.amount(item.importe, 'importe'),
    intResarcitorios: internals.amount(item.importeInteresesResarcitorios, 'intereses resarcitorios'),
    intPunitorios: internals.amount(item.importeInteresesPunitorios, 'intereses punitorios')
}));

const required = (value: string | null): string => {

    if (value === null) {
        throw failure('unexpected_page', 'SCT: sin fecha de vencimiento');
    }

    return value;
};

const parseSctDueDates = (data: unknown): SctDueDate[] => internals.items(data, 'vencimiento').map((item) => ({
    ...internals.common(item),
    vencimiento: required(internals.date(item.fechaVencimiento)),
    detalle: internals.view(item.tipoOperacion ?? item.descripcion ?? item.detalle)
}));

const parseSctReturns = (data: unknown): SctReturn[] => internals.items(data, 'deuda').map((item) => ({
    establecimiento: internals.view(item.establecimientoView ?? item.establecimiento),
    ...internals.common(item),
    vencimiento: required(internals.date(item.fechaVencimiento))
}));

export const createSct = (http: HttpSession, loginCuit: string) => {

    let page: SelectorPage | null = null;

    const selectorPage = async (): Promise<SelectorPage> => {

        const landing = await openService(http, loginCuit, 'sct');
        const html = landing.text();
        if (internals.options(html)) {
            return { url: landing.url, html };
        }

        const src = /<iframe\b[^>]*(?:name|id)\s*=\s*["']homeContribuyente["'][^>]*\bsrc\s*=\s*["']([^"']+)["']/i.exec(html)?.[1]
            ?? /<iframe\b[^>]*\bsrc\s*=\s*["']([^"']+)["'][^>]*(?:name|id)\s*=\s*["']homeContribuyente["']/i.exec(html)?.[1];
        if (!src) {
            throw http.unexpected(landing, 'sct', 'contribuyente', 'sin el iframe homeContribuyente');
        }

        const url = new URL(decodeEntities(src), landing.url);
        return http.request({ url, referer: landing.url }, (response) => ({ url: response.url, html: response.text() }));
    };

    // The taxpayer is always chosen in the selector and the answer checked: the page opens on
    // whoever was chosen last, in this session or an earlier one.
    const select = async (cuit: string): Promise<void> => {

        page ??= await selectorPage();
        let options = internals.options(page.html);
        if (!options?.some((candidate) => candidate.cuit === cuit) && cuit !== loginCuit) {
            // The page may predate the representation: read it again once.
            page = await selectorPage();
            options = internals.options(page.html);
        }

        if (!options) {
            // No selector: the key reaches its own CUIT only.
            if (cuit !== loginCuit) {
                throw failure('represented_unavailable', `SCT ${cuit}`);
            }

            return;
        }

        const option = options.find((candidate) => candidate.cuit === cuit);
        if (!option) {
            throw failure('represented_unavailable', `SCT ${cuit}`);
        }

        const current = page;
        const block = [...current.html.matchAll(/<form\b[\s\S]*?<\/form>/gi)].map((match) => match[0]).find(
            (candidate) => candidate.includes('$PropertySelection')
        ) ?? '';
        const form = parseForms(block)[0] ?? null;
        const fields = form?.fields ?? {};
        const action = form?.action ?? current.url.pathname;
        page = await http.request({
            method: 'POST',
            url: new URL(decodeEntities(action), current.url),
            referer: current.url,
            retry: 'safe',
            form: { ...fields, $PropertySelection: option.value }
        }, (response) => {

            const chosen = internals.options(response.text())?.find((candidate) => candidate.selected);
            if (chosen?.cuit !== cuit) {
                throw http.unexpected(response, 'sct', 'seleccion', 'el selector no quedó en el CUIT pedido');
            }

            return { url: response.url, html: response.text() };
        });
    };

    const call = (method: Method, args: unknown[]): Promise<unknown> => {

        const request = JSON.stringify({ serviceName: internals.service, methodName: method, arguments: args });
        return http.request({
            url: logicalUrl('ctacte', `/contribuyente/rest-access/service?request=${encodeURIComponent(request)}`),
            accept: 'application/json, text/plain, */*',
            referer: page?.url ?? logicalUrl('ctacte', '/contribuyente/'),
            xhr: true
        }, (response: HttpResponse) => {

            const body = response.json() as Record<string, { data?: unknown; status?: { tipoEstado?: unknown; mensaje?: unknown } } | undefined> | undefined;
            const answer = body?.[internals.wrapper];
            if (response.status !== 200 || !answer || typeof answer !== 'object') {
                if (/F1:username|login\.xhtml/i.test(response.text())) {
                    throw failure('session_expired', `SCT ${method}`);
                }

                throw http.unexpected(response, 'sct', method, `HTTP ${response.status}, sin ${internals.wrapper}`);
            }

            if (answer.status?.tipoEstado !== 'SUCCESS') {
                const message = String(answer.status?.mensaje ?? '');
                if (/no se encontraron datos/i.test(message)) {
                    return null;
                }

                throw http.unexpected(response, 'sct', method, `estado ${JSON.stringify(answer.status?.tipoEstado ?? null)}`);
            }

            return answer.data === '' ? null : answer.data ?? null;
        });
    };

    return {
        async sct(cuit: string): Promise<SctData> {

            await select(cuit);
            // One after another, after the selection: the answers follow the selector.
            const deudas = await call('getDeudas', [Number(cuit), null]);
            const vencimientos = await call('getVencimientos', [Number(cuit)]);
            const faltas = await call('getFaltasPresentacion', [Number(cuit)]);
            return { deuda: parseSctDebts(deudas), vencimientos: parseSctDueDates(vencimientos), ddjj: parseSctReturns(faltas) };
        }
    };
};
