import type { QueueDeps } from './deps.js';
import { findSyncTargets } from './find-sync-targets.js';

// Staff: a full resync of a CUIT (in every account that manages it), due now. A job already
// pending becomes the forced one; a run in progress finishes and the forced one follows.
export const forceResync = async (deps: QueueDeps, input: { cuit: string }): Promise<{ cuit: string; jobs: number[] }> => {

    const { cuit, clients } = await findSyncTargets(deps, input.cuit);

    const now = deps.clock.now().getTime();
    const jobs = [];
    for (const client of clients) {
        jobs.push(await deps.jobQueue.enqueue(client.id, 'forced', now));
    }

    return { cuit, jobs };
};
