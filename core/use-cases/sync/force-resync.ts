import { invalid, notFound } from '../../domain/errors.js';
import { parseCuit } from '../../domain/cuit.js';
import { messages } from '../../domain/messages.js';
import type { QueueDeps } from './deps.js';

// Staff: a full resync of a CUIT (in every account that manages it), due now. A job already
// pending becomes the forced one; a run in progress finishes and the forced one follows.
export const forceResync = async (deps: QueueDeps, input: { cuit: string }): Promise<{ cuit: string; jobs: number[] }> => {

    const cuit = parseCuit(input.cuit);
    if (!cuit) {
        throw invalid([messages.admin.invalidCuit]);
    }

    const clients = await deps.syncTargets.findByCuit(cuit);
    if (!clients.length) {
        throw notFound();
    }

    const now = deps.clock.now().getTime();
    const jobs = [];
    for (const client of clients) {
        jobs.push(await deps.jobQueue.enqueue(client.id, 'forced', now));
    }

    return { cuit, jobs };
};
