import type { Principal } from '../domain/access.js';
import type { ClientRecord } from '../domain/client.js';
import type { Cuit } from '../domain/cuit.js';
import type { Ports } from '../ports/index.js';
import { findVisibleClient } from './find-visible-client.js';

// What an edit form shows of a client the principal manages (the 404 of findVisibleClient
// otherwise): its record, which carries no key, and a legal entity's representative by CUIT,
// when the principal sees that person too (a member may not: then none is shown, and an
// empty field keeps it).
export const editableClient = async (
    deps: Pick<Ports, 'clients'>, principal: Principal, cuit: Cuit
): Promise<{ client: ClientRecord; representante: Cuit | null }> => {

    const client = await findVisibleClient(deps, principal, cuit);
    if (client.representativeId === null) {
        return { client, representante: null };
    }

    const noFilters = { etiquetas: null, monotributista: null, autonomo: null, categoria: null };
    const page = await deps.clients.listVisible(principal, { ...noFilters, ids: [client.representativeId] }, { limit: 1, offset: 0 });
    return { client, representante: page.items[0]?.cuit ?? null };
};
