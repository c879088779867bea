import type { Principal } from '../domain/access.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { CcmaMovement } from '../domain/ccma.js';
import type { Pagination } from '../domain/pagination.js';
import { toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';

export interface CcmaMovementsResult {
    data: CcmaMovement[];
    pagination: Pagination;
    syncedAt: string | null;
}

export const listCcmaMovementsParameters = ['cuit', 'limit', 'offset'] as const;

// docs/api.md, Reads: limit and offset count periods, newest first; every movement of a page's
// periods is returned, by orden within its period.
export const listCcmaMovements = async (
    deps: Pick<Ports, 'clients' | 'ccma' | 'syncStates' | 'readCache'>,
    principal: Principal,
    request: ReadRequest
): Promise<CcmaMovementsResult> => {

    const input = parseReadRequest(request, listCcmaMovementsParameters);
    const page = { limit: input.limit, offset: input.offset };
    const client = await findVisibleClient(deps, principal, input.cuit);
    return cachedRead(deps.readCache, `ccma-movements:${client.id}:${page.limit}:${page.offset}`, client.dataVersion, async () => {

        const [result, syncedAt] = await Promise.all([
            deps.ccma.listMovementsByPeriod(client.id, page),
            clientSyncedAt(deps, client, 'ccma')
        ]);

        return { data: result.items, pagination: { ...page, total: result.total }, syncedAt: toIso(syncedAt) };
    });
};
