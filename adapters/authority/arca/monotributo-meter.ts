import type { ArcaMeter } from '../../../core/domain/arca-meter.js';
import { arcaPeriodMaxLength } from '../../../core/domain/arca-meter.js';
import type { AuthorityFailure } from '../../../core/ports/authority-client.js';
import { arcaPaths } from '../hosts.js';
import { failure, isAuthorityFailure } from './failures.js';
import type { HttpResponse, HttpSession } from './http.js';
import { portalJson } from './services.js';

// ARCA's own billing meter (docs/authority.md, ARCA's meter), read right after the registry has
// the monotributo dashboard open (Inicio.aspx), in that same session:
// - POST Inicio.aspx/CalcularFacturacion with `{}` (an ASP.NET page method) -> `{"d": {...}}`
//   (`d` an object, or the same object as a JSON string) with `valor` (the billing ARCA counts),
//   `valorTope` (the cap), `fechas` (its period), `alertaVisible`, `peligroVisible`. ARCA
//   sometimes answers 0 on a page not finished loading: as public code does, a 0 is not trusted
//   (facturado stays unknown);
// - GET /portal/api/monotributista/{cuit}/deberecategorizar on the portal session ->
//   `fechaDesdeRecategorizacion`, `fechaHastaRecategorizacion`, `showAlertaRecategorizacion`
//   (at the top or under `data`, as the portal's other answers).
// Either read failing makes the meter its failure: the registry is kept, nothing of the meter is
// stored, and the sync says so (never a failure of the registry or of any other system).

type Fields = Record<string, unknown>;

const internals = {
    // Amounts arrive as numbers or as text, with US or Argentine separators.
    amount(value: unknown): number | null {

        if (typeof value === 'number') {
            return Number.isFinite(value) ? value : null;
        }

        if (typeof value !== 'string' || !value.trim()) {
            return null;
        }

        const text = value.replace(/[$\s]/g, '');
        const normalized = /,\d{1,2}$/.test(text) ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
        const parsed = Number(normalized);
        return Number.isFinite(parsed) ? parsed : null;
    },

    // dd/mm/yyyy or an ISO date (with or without its time) as YYYY-MM-DD.
    day(value: unknown): string | null {

        const text = typeof value === 'string' ? value.trim() : '';
        const local = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text);
        if (local) {
            return `${local[3]}-${local[2]!.padStart(2, '0')}-${local[1]!.padStart(2, '0')}`;
        }

        return /^(\d{4}-\d{2}-\d{2})/.exec(text)?.[1] ?? null;
    },

    flag(value: unknown): boolean | null {

        if (typeof value === 'boolean') {
            return value;
        }

        const text = String(value ?? '').trim().toLowerCase();
        return text === 'true' || text === 's' || text === 'si' ? true : text === 'false' || text === 'n' || text === 'no' ? false : null;
    },

    period(value: unknown): string | null {

        const text = (Array.isArray(value) ? value.map(String).join(' al ') : typeof value === 'string' ? value : '').replace(/\s+/g, ' ').trim();
        return text ? text.slice(0, arcaPeriodMaxLength) : null;
    },

    object: (value: unknown): Fields | null => (value && typeof value === 'object' && !Array.isArray(value) ? value as Fields : null)
};

const parseBillingMeter = (body: unknown): Pick<ArcaMeter, 'facturado' | 'tope' | 'periodo'> => {

    let d = internals.object(body)?.d;
    if (typeof d === 'string') {
        try {
            d = JSON.parse(d) as unknown;
        }
        catch {
            throw failure('unexpected_page', 'CalcularFacturacion: d no es JSON');
        }
    }

    const fields = internals.object(d);
    if (!fields || !('valor' in fields)) {
        throw failure('unexpected_page', 'CalcularFacturacion sin d.valor');
    }

    const valor = internals.amount(fields.valor);
    const tope = internals.amount(fields.valorTope);
    return {
        facturado: valor !== null && valor > 0 ? valor : null,
        tope: tope !== null && tope > 0 ? tope : null,
        periodo: internals.period(fields.fechas)
    };
};

const parseRecategorization = (body: Fields): Pick<ArcaMeter, 'debeRecategorizar' | 'recategorizacionDesde' | 'recategorizacionHasta'> => {

    const fields = internals.object(body.data) ?? body;
    if (!('showAlertaRecategorizacion' in fields) && !('fechaDesdeRecategorizacion' in fields)) {
        throw failure('unexpected_page', 'deberecategorizar sin showAlertaRecategorizacion');
    }

    return {
        debeRecategorizar: internals.flag(fields.showAlertaRecategorizacion),
        recategorizacionDesde: internals.day(fields.fechaDesdeRecategorizacion),
        recategorizacionHasta: internals.day(fields.fechaHastaRecategorizacion)
    };
};

// The meter of `cuit`, from its open dashboard; its failure instead when either read fails.
export const readMeter = async (http: HttpSession, dashboard: HttpResponse, cuit: string, timeoutMs: number): Promise<ArcaMeter | AuthorityFailure> => {

    try {
        const billing = await http.request({
            method: 'POST',
            url: new URL(arcaPaths.meter, dashboard.url),
            json: {},
            accept: 'application/json, text/javascript, */*; q=0.01',
            xhr: true,
            origin: dashboard.url.origin,
            referer: dashboard.url,
            // The slow service's requests are not retried (registry.ts); the next day reads again.
            retry: 'never',
            timeoutMs
        }, (response) => {

            if (response.status !== 200) {
                throw http.unexpected(response, 'registry', 'CalcularFacturacion', `HTTP ${response.status}`);
            }

            try {
                return parseBillingMeter(response.json());
            }
            catch (err) {
                throw isAuthorityFailure(err) && err.kind === 'unexpected_page' ? http.unexpected(response, 'registry', 'CalcularFacturacion', err.detail) : err;
            }
        });
        const recategorization = await portalJson(http, arcaPaths.recategorization(cuit), 'deberecategorizar', parseRecategorization);
        return { ...billing, ...recategorization };
    }
    catch (err) {
        if (isAuthorityFailure(err)) {
            return err;
        }

        throw err;
    }
};
