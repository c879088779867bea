import type { RegistryReading } from '../../../core/ports/authority-client.js';
import { arcaPaths } from '../hosts.js';
import { failure, isAuthorityFailure } from './failures.js';
import { pageText, parseForms } from './html.js';
import type { HttpResponse, HttpSession } from './http.js';
import { readMeter } from './monotributo-meter.js';
import { openService, portalJson } from './services.js';

// The registry classification (docs/authority.md): GET /portal/api/cuit/{cuit}/tipoCuitImpuestos
// on the portal session -> data.impuestos[{id, periodo, descripcion, estado}]; active taxes are
// matched on their descriptions ("MONOTRIBUTO", "AUTONOMO"), as public code does (tax ids 20
// and 308 are unverified, read as a fallback). The monotributo category letter (A–K) is the
// "Categoría X" of the monotributo dashboard (service admin_mono): default.aspx takes the
// token/sign; a key that reaches several taxpayers is shown the SelecRepresentado.aspx grid,
// answered for the wanted CUIT (ctl00$ContentPlaceHolder1$hID with the page's ASP.NET fields and
// btnAcceder); a key that reaches one goes straight to Inicio.aspx. Inicio.aspx's
// hidCUITContribuyente is checked to be the CUIT asked for before the letter is read. The
// service warms up slowly (30–45 s): its requests get a longer limit, and are not retried.
// When the dashboard shows no category, it is left unknown and the page captured. With the
// dashboard open, ARCA's own meter is read in the same session (monotributo-meter.ts).

interface Tax {
    id?: unknown;
    descripcion?: unknown;
    estado?: unknown;
}

const internals = {
    active: (tax: Tax) => String(tax.estado ?? 'ACTIVO').trim().toUpperCase() === 'ACTIVO',
    described: (tax: Tax, word: RegExp, id: number) => word.test(
        String(tax.descripcion ?? '').normalize('NFD').replace(/\p{Diacritic}/gu, '').toUpperCase()
    ) || Number(tax.id) === id,
    warmUpMs: 90_000,
    selector: 'ctl00$ContentPlaceHolder1$hID',
    button: 'ctl00$ContentPlaceHolder1$btnAcceder',

    // The dashboard's own statement of whose it is.
    shownCuit: (html: string): string | null => (/<input\b[^>]*\bid\s*=\s*["']hidCUITContribuyente["'][^>]*>/i.exec(html)?.[0].match(
        /\bvalue\s*=\s*["'](\d+)["']/i
    )?.[1]) ?? null
};

const parseTaxes = (body: unknown): { monotributista: boolean | null; autonomo: boolean | null } => {

    const taxes = (body as { data?: { impuestos?: unknown } | null } | null)?.data?.impuestos;
    if (!Array.isArray(taxes)) {
        throw failure('unexpected_page', 'tipoCuitImpuestos sin data.impuestos');
    }

    if (!taxes.length) {
        return { monotributista: null, autonomo: null };
    }

    const active = (taxes as Tax[]).filter(internals.active);
    return {
        monotributista: active.some((tax) => internals.described(tax, /MONOTRIBUTO/, 20)),
        // "MONOTRIBUTO AUTONOMO" is the monotributo's pension component, not the autónomos regime.
        autonomo: active.some((tax) => internals.described(tax, /^(?!.*MONOTRIBUTO).*AUTONOMO/, 308))
    };
};

const parseCategory = (html: string): string | null => /Categor[ií]a\s+([A-K])\b/.exec(pageText(html))?.[1] ?? null;

export const createRegistry = (http: HttpSession, loginCuit: string) => {

    // The grid of a key that reaches several taxpayers, answered for `cuit`; null when this
    // key's dashboard shows no such taxpayer.
    const choose = async (page: HttpResponse, cuit: string): Promise<HttpResponse | null> => {

        const form = parseForms(page.text()).find((candidate) => internals.selector in candidate.fields);
        if (!form) {
            return page;
        }

        if (!page.text().includes(cuit)) {
            return null;
        }

        return http.request({
            method: 'POST',
            url: new URL(form.action ?? page.url.pathname, page.url),
            referer: page.url,
            retry: 'safe',
            timeoutMs: internals.warmUpMs,
            form: { ...form.fields, [internals.selector]: cuit, [internals.button]: form.fields[internals.button] || 'Acceder' }
        }, (response) => response);
    };

    // The taxpayer's dashboard and the letter it shows; null when the key reaches none.
    const category = async (cuit: string): Promise<{ letter: string | null; dashboard: HttpResponse } | null> => {

        let landing: HttpResponse;
        try {
            landing = await openService(http, loginCuit, 'monotributo', { timeoutMs: internals.warmUpMs });
        }
        catch (err) {
            // Not adhered to the dashboard: the category stays unknown, the rest is kept.
            if (isAuthorityFailure(err) && err.kind === 'not_adhered') {
                return null;
            }

            throw err;
        }

        const dashboard = await choose(landing, cuit);
        if (!dashboard) {
            return null;
        }

        const shown = internals.shownCuit(dashboard.text());
        if (shown !== null && shown !== cuit) {
            throw http.unexpected(dashboard, 'registry', 'monotributo', 'el tablero es de otro CUIT');
        }

        if (shown === null && cuit !== loginCuit) {
            throw http.unexpected(dashboard, 'registry', 'monotributo', 'el tablero no dice de qué CUIT es');
        }

        const letter = parseCategory(dashboard.text());
        if (letter === null) {
            http.unexpected(dashboard, 'registry', 'monotributo', 'el tablero no muestra la categoría');
        }

        return { letter, dashboard };
    };

    return {
        async registry(cuit: string): Promise<RegistryReading> {

            const taxes = await portalJson(http, arcaPaths.taxes(cuit), 'tipoCuitImpuestos', parseTaxes);
            const shown = taxes.monotributista ? await category(cuit) : null;
            // A dashboard without its category is not a complete page (public code sees the
            // meter answer 0 on those): the meter is not asked.
            if (!shown?.letter) {
                return { ...taxes, categoria: null };
            }

            return { ...taxes, categoria: shown.letter, meter: await readMeter(http, shown.dashboard, cuit, internals.warmUpMs) };
        }
    };
};
