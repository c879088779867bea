import type { AuthorityCredentials } from '../../../core/ports/authority-client.js';
import type { RegistryClassification } from '../../../core/ports/repositories.js';
import { logicalUrl } from '../hosts.js';
import { failure } from './failures.js';
import type { HttpSession } from './http.js';
import { openService } from './services.js';

// The registry: the registration certificate as getPersona_v2-like JSON (the address
// /padron-puc-constancia-internet/api/constancia?cuit= is assumed). Monotributo: datosMonotributo
// with a category whose description begins with its letter A-K; autónomo: tax 308 (APORTES
// SEG.SOCIAL AUTONOMOS) under datosRegimenGeneral, or an autónomo category there.

interface Tax {
    idImpuesto?: unknown;
}

interface Persona {
    datosMonotributo?: {
        categoriaMonotributo?: { idCategoria?: unknown; descripcionCategoria?: unknown } | null;
        impuesto?: Tax[] | null;
    } | null;
    datosRegimenGeneral?: {
        impuesto?: Tax[] | null;
        categoriaAutonomo?: unknown;
    } | null;
}

const internals = {
    letter(category: { idCategoria?: unknown; descripcionCategoria?: unknown } | null | undefined): string | null {

        const description = String(category?.descripcionCategoria ?? '').trim().toUpperCase();
        const match = /^([A-K])\b/.exec(description) ?? /^([A-K])$/.exec(String(category?.idCategoria ?? '').trim().toUpperCase());
        return match ? match[1]! : null;
    },

    taxes(list: Tax[] | null | undefined): number[] {

        return Array.isArray(list) ? list.map((tax) => Number(tax.idImpuesto)) : [];
    }
};

export const parseRegistry = (body: unknown): RegistryClassification => {

    const envelope = body as { personaReturn?: Persona & { errorConstancia?: unknown }; persona?: Persona; errorConstancia?: unknown } | null;
    const persona = envelope?.personaReturn ?? envelope?.persona;
    if (!persona || typeof persona !== 'object') {
        throw failure('unexpected_page', 'constancia sin datos de la persona');
    }

    const monotributo = persona.datosMonotributo ?? null;
    const categoria = internals.letter(monotributo?.categoriaMonotributo);
    const monotributista = Boolean(monotributo && (categoria !== null || internals.taxes(monotributo.impuesto).includes(20)));
    const general = persona.datosRegimenGeneral ?? null;
    const autonomo = Boolean(general && (internals.taxes(general.impuesto).includes(308) || (general.categoriaAutonomo !== undefined && general.categoriaAutonomo !== null)));
    return { monotributista, autonomo, categoria: monotributista ? categoria : null };
};

export const createRegistry = (http: HttpSession, credentials: AuthorityCredentials) => {

    return {
        async registry(): Promise<RegistryClassification> {

            await openService(http, credentials, 'registry');
            const url = logicalUrl('registry', `/padron-puc-constancia-internet/api/constancia?cuit=${credentials.representedCuit}`);
            return http.request({ url, accept: 'application/json' }, (response) => {

                if (response.status !== 200) {
                    throw failure('unexpected_page', `constancia: HTTP ${response.status}`);
                }

                return parseRegistry(response.json());
            });
        }
    };
};
