import type { Principal } from '../domain/access.js';
import type { ClientFilters, ClientListItem } from '../domain/client.js';
import { toClientListItem } from '../domain/client.js';
import type { Pagination } from '../domain/pagination.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';

export interface ListCuitsResult {
    data: ClientListItem[];
    pagination: Pagination;
    filters: ClientFilters;
}

// docs/api.md, Reads: what the CUIT list takes.
export const listCuitsParameters = ['limit', 'offset', 'etiquetas', 'monotributista', 'autonomo', 'categoria'] as const;

// docs/api.md, Reads: the CUITs the principal manages, by name then internal id; tags OR, filters AND.
export const listCuits = async (deps: Pick<Ports, 'clients' | 'readCache'>, principal: Principal, request: ReadRequest): Promise<ListCuitsResult> => {

    const input = parseReadRequest(request, listCuitsParameters);
    const page = { limit: input.limit, offset: input.offset };
    const filters: ClientFilters = {
        etiquetas: input.etiquetas?.length ? [...new Set(input.etiquetas)] : null,
        monotributista: input.monotributista ?? null,
        autonomo: input.autonomo ?? null,
        categoria: input.categoria ?? null
    };

    // Owners see the whole account, so they share answers; a member's depend on its assignments.
    const viewer = principal.role === 'owner' ? 'owner' : `user-${principal.userId}`;
    const key = `cuits:${principal.accountId}:${viewer}:${page.limit}:${page.offset}:${JSON.stringify(filters)}`;
    return cachedRead(deps.readCache, key, principal.dataVersion, async () => {

        const result = await deps.clients.listVisible(principal, filters, page);
        return {
            data: result.items.map(toClientListItem),
            pagination: { ...page, total: result.total },
            filters
        };
    });
};
