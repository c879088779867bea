import type { ClientRecord } from '../domain/client.js';
import type { SyncSystem } from '../domain/sync-system.js';
import type { Timestamp } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';

// When a system of the client was last synchronized, for the `syncedAt` of its read answers.
// Every system's date is read at once and kept under the client's data version (a sync that
// stores a system raises it, see ports/read-cache.ts): an integrator paging through a client's
// invoices, movements and notifications asks the database at most twice (the memory cache
// keeps what is asked for a second time), not on every page.
export const clientSyncedAt = async (deps: Pick<Ports, 'syncStates' | 'readCache'>, client: ClientRecord, system: SyncSystem): Promise<Timestamp | null> => {

    const bySystem = await cachedRead(deps.readCache, `synced-at:${client.id}`, client.dataVersion, () => deps.syncStates.syncedAtBySystem(client.id));
    return bySystem[system] ?? null;
};
