import { invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { QueueDeps } from './deps.js';
import type { AccountTargetDeps } from './find-sync-targets.js';
import { findAccountTarget } from './find-sync-targets.js';
import type { SyncWindow } from './daily-window.js';
import { scheduleDue } from './schedule-due.js';

export interface EnqueueSyncInput {
    cuits?: readonly string[];
    // The account whose clients of `cuits` run (required for a CUIT several accounts manage).
    accountId?: number | undefined;
    all?: boolean;
    due?: boolean;
    window?: SyncWindow;
}

// `arcasync sync`: what to run now. Named CUITs (one account's client each) and --all get a
// 'manual' job each (unless one is pending); --due enqueues the daily ones. Returns the
// clients whose jobs the run waits for, or null for "every due job" (--due).
export const enqueueSync = async (deps: QueueDeps & AccountTargetDeps, input: EnqueueSyncInput): Promise<{ clientIds: number[] | null; enqueued: number }> => {

    const now = deps.clock.now().getTime();
    if (input.accountId !== undefined && !input.cuits?.length) {
        throw invalid([messages.sync.accountWithoutCuit]);
    }

    if (input.all) {
        const ids = await deps.syncTargets.listIds();
        for (const id of ids) {
            await deps.jobQueue.enqueue(id, 'manual', now);
        }

        return { clientIds: ids, enqueued: ids.length };
    }

    if (input.cuits?.length) {
        const ids: number[] = [];
        for (const raw of input.cuits) {
            const { client } = await findAccountTarget(deps, raw, input.accountId);
            ids.push(client.id);
        }

        const unique = [...new Set(ids)];
        for (const id of unique) {
            await deps.jobQueue.enqueue(id, 'manual', now);
        }

        return { clientIds: unique, enqueued: unique.length };
    }

    if (input.due) {
        const { enqueued } = await scheduleDue(deps, input.window);
        return { clientIds: null, enqueued };
    }

    throw invalid([messages.sync.nothingToRun]);
};
