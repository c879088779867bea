import type { Principal } from '../domain/access.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { CcmaBalances } from '../domain/ccma.js';
import { toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';

export interface CcmaBalancesResult {
    data: CcmaBalances | null;
    syncedAt: string | null;
}

export const getCcmaBalancesParameters = ['cuit'] as const;

// docs/api.md, Reads: data is null until the system was synchronized once; a null balance inside it
// means the authority did not report it.
export const getCcmaBalances = async (
    deps: Pick<Ports, 'clients' | 'ccma' | 'syncStates' | 'readCache'>,
    principal: Principal,
    request: ReadRequest
): Promise<CcmaBalancesResult> => {

    const { cuit } = parseReadRequest(request, getCcmaBalancesParameters);
    const client = await findVisibleClient(deps, principal, cuit);
    return cachedRead(deps.readCache, `ccma:${client.id}`, client.dataVersion, async () => {

        const syncedAt = await clientSyncedAt(deps, client, 'ccma');
        if (syncedAt === null) {
            return { data: null, syncedAt: null };
        }

        const balances = await deps.ccma.getBalances(client.id);
        return { data: balances ?? { saldoDeudor: null, saldoAcreedor: null }, syncedAt: toIso(syncedAt) };
    });
};
