import type { Principal } from '../domain/access.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { SctData } from '../domain/sct.js';
import { toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';

export interface SctResult {
    data: SctData | null;
    syncedAt: string | null;
}

export const getSctParameters = ['cuit'] as const;

// docs/api.md, Reads: data is null until the system was synchronized once.
export const getSct = async (
    deps: Pick<Ports, 'clients' | 'sct' | 'syncStates' | 'readCache'>,
    principal: Principal,
    request: ReadRequest
): Promise<SctResult> => {

    const { cuit } = parseReadRequest(request, getSctParameters);
    const client = await findVisibleClient(deps, principal, cuit);
    return cachedRead(deps.readCache, `sct:${client.id}`, client.dataVersion, async () => {

        const syncedAt = await clientSyncedAt(deps, client, 'sct');
        if (syncedAt === null) {
            return { data: null, syncedAt: null };
        }

        return { data: await deps.sct.get(client.id), syncedAt: toIso(syncedAt) };
    });
};
