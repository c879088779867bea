import type { QueueDeps } from './deps.js';
import type { AccountTargetDeps } from './find-sync-targets.js';
import { findAccountTarget } from './find-sync-targets.js';

// Staff: a full resync of one account's client of a CUIT, due now (a CUIT several accounts
// manage needs the account: findAccountTarget). A job already pending becomes the forced one;
// a run in progress finishes and the forced one follows.
export const forceResync = async (
    deps: QueueDeps & AccountTargetDeps,
    input: { cuit: string; accountId?: number | undefined }
): Promise<{ cuit: string; accountId: number; jobs: number[] }> => {

    const { cuit, client } = await findAccountTarget(deps, input.cuit, input.accountId);
    const job = await deps.jobQueue.enqueue(client.id, 'forced', deps.clock.now().getTime());
    return { cuit, accountId: client.accountId, jobs: [job] };
};
