import type { RegistryClassification } from '../../../core/ports/repositories.js';
import { arcaPaths } from '../hosts.js';
import { failure, isAuthorityFailure } from './failures.js';
import { pageText } from './html.js';
import type { HttpSession } from './http.js';
import { openService, portalApiRequest, portalSessionEnded } from './services.js';

// The registry classification (AUTHORITY.md): GET /portal/api/cuit/{cuit}/tipoCuitImpuestos on
// the portal session -> data.impuestos[{id, periodo, descripcion, estado}]; active taxes are
// matched on their descriptions ("MONOTRIBUTO", "AUTONOMO"), as public code does (tax ids 20
// and 308 are unverified, read as a fallback). The monotributo category letter (A–K) is the
// "Categoría X" of the monotributo dashboard (service admin_mono), read for the key's own CUIT
// only; when the dashboard shows none, the category is left unknown and the page captured.

interface Tax {
    id?: unknown;
    descripcion?: unknown;
    estado?: unknown;
}

const internals = {
    active: (tax: Tax) => String(tax.estado ?? 'ACTIVO').trim().toUpperCase() === 'ACTIVO',
    described: (tax: Tax, word: RegExp, id: number) => word.test(String(tax.descripcion ?? '').normalize('NFD').replace(/\p{Diacritic}/gu, '').toUpperCase()) || Number(tax.id) === id
};

export const parseTaxes = (body: unknown): { monotributista: boolean | null; autonomo: boolean | null } => {

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

export const parseCategory = (html: string): string | null => /Categor[ií]a\s+([A-K])\b/.exec(pageText(html))?.[1] ?? null;

export const createRegistry = (http: HttpSession, loginCuit: string) => {

    const category = async (): Promise<string | null> => {

        try {
            const landing = await openService(http, loginCuit, 'monotributo');
            const letter = parseCategory(landing.text());
            if (letter === null) {
                http.unexpected(landing, 'registry', 'monotributo', 'el tablero no muestra la categoría');
            }

            return letter;
        }
        catch (err) {
            // Not adhered to the dashboard: the category stays unknown, the rest is kept.
            if (isAuthorityFailure(err) && err.kind === 'not_adhered') {
                return null;
            }

            throw err;
        }
    };

    return {
        async registry(cuit: string): Promise<RegistryClassification> {

            const taxes = await http.request(portalApiRequest(arcaPaths.taxes(cuit)), (response) => {

                if (portalSessionEnded(response)) {
                    throw failure('session_expired', 'portal (tipoCuitImpuestos)');
                }

                try {
                    return parseTaxes(response.json());
                }
                catch (err) {
                    throw http.unexpected(response, 'registry', 'tipoCuitImpuestos', isAuthorityFailure(err) ? err.detail : err instanceof Error ? err.message : 'ilegible');
                }
            });

            const categoria = taxes.monotributista && cuit === loginCuit ? await category() : null;
            return { ...taxes, categoria };
        }
    };
};
