import type { SyncSystem } from '../../domain/sync-system.js';
import { toIso } from '../../domain/time.js';
import type { Ports } from '../../ports/index.js';
import type { JobCounts, SyncSummary } from '../../ports/job-queue.js';
import type { QueueDeps } from './deps.js';
import { findSyncTargets } from './find-sync-targets.js';
import { systemsFor } from './sync-policy.js';

export interface SystemStatus {
    system: SyncSystem;
    syncedAt: string | null;
    lastAttemptAt: string | null;
    lastError: string | null;
}

export interface ClientSyncStatus {
    clientId: number;
    accountId: number;
    cuit: string;
    systems: SystemStatus[];
    jobs: JobCounts;
}

export type SyncStatusResult =
    | { cuit: string; clients: ClientSyncStatus[] }
    | { summary: SyncSummary & { systems: (SyncSummary['systems'][number] & { oldestSyncedAtIso: string | null })[] }; jobs: JobCounts };

// `arcasync sync status`: per system, the last success and the last error of a CUIT (in
// every account that manages it); without a CUIT, totals over all clients and the queue.
export const syncStatus = async (deps: QueueDeps & Pick<Ports, 'syncStates'>, input: { cuit?: string | undefined }): Promise<SyncStatusResult> => {

    const now = deps.clock.now().getTime();
    if (input.cuit === undefined) {
        const [summary, jobs] = await Promise.all([deps.syncTargets.summary(), deps.jobQueue.counts(undefined, now)]);
        return { summary: { ...summary, systems: summary.systems.map((entry) => ({ ...entry, oldestSyncedAtIso: toIso(entry.oldestSyncedAt) })) }, jobs };
    }

    const { cuit, clients } = await findSyncTargets(deps, input.cuit);

    const result: ClientSyncStatus[] = [];
    for (const client of clients) {
        const [target, states, jobs] = await Promise.all(
            [deps.syncTargets.find(client.id), deps.syncStates.list(client.id), deps.jobQueue.counts([client.id], now)]
        );
        const expected = target ? systemsFor(target.tipo) : [];
        const bySystem = new Map(states.map((state) => [state.system, state]));
        result.push({
            clientId: client.id,
            accountId: client.accountId,
            cuit,
            systems: expected.map((system) => {

                const state = bySystem.get(system);
                return {
                    system,
                    syncedAt: toIso(state?.syncedAt ?? null),
                    lastAttemptAt: toIso(state?.lastAttemptAt ?? null),
                    lastError: state?.lastError ?? null
                };
            }),
            jobs
        });
    }

    return { cuit, clients: result };
};
