import { setTimeout as sleep } from 'node:timers/promises';

// A transaction the database aborted because it lost to another over locks is the database
// asking for it to run again, not a failure (issue 37, item 8: a DELETE of a CUIT while its sync
// wrote met a deadlock on MariaDB and answered 500). Every write transaction of a repository
// that can meet another one's locks runs through retriedOnLockConflict: the whole transaction
// again, a bounded number of times, after a short random pause (full jitter, so the two that
// collided do not collide again in step). Only then does its error reach the caller.
// - MySQL's deadlock (1213): InnoDB rolled the whole transaction back at once; retried up to
//   five times in all, some 10 to 200 ms apart.
// - MySQL's lock wait timeout (1205): the statement waited innodb_lock_wait_timeout (50 s by
//   default) already; the transaction (rolled back by its caller) runs once more.
// SQLite's busy database is not retried here: its writers already wait busy_timeout for the
// lock, and a serving process answers 503 when that runs out (errors.ts).

export type Retryable = (err: unknown) => boolean;

const internals = {
    attempts: { ER_LOCK_DEADLOCK: 5, ER_LOCK_WAIT_TIMEOUT: 2 } as Record<string, number>,
    baseMs: 10,
    maxMs: 200,

    code: (err: unknown): string => String((err as { code?: unknown } | null)?.code ?? ''),

    // The pause before attempt `attempt + 1`: 10, 20, 40… ms at most 200, each a random share
    // of that between its half and all of it.
    pauseMs(attempt: number, random: () => number): number {

        const ceiling = Math.min(internals.baseMs * 2 ** (attempt - 1), internals.maxMs);
        return Math.round(ceiling * (0.5 + random() / 2));
    }
};

// Whether the error is one a run of the same transaction again may not meet.
const isRetriedLockConflict: Retryable = (err) => internals.code(err) in internals.attempts;

// `transaction` (a whole transaction: it begins, writes and commits or rolls back) run again
// while it fails with a lock conflict, as bounded above. `retryable` widens what is retried
// (a caller's own conflicts, such as SQLite's busy database); those get the deadlock's bound.
export const retriedOnLockConflict = async <T>(
    transaction: () => Promise<T>,
    retryable: Retryable = isRetriedLockConflict,
    random: () => number = Math.random
): Promise<T> => {

    for (let attempt = 1; ; attempt++) {
        try {
            return await transaction();
        }
        catch (err) {
            const attempts = internals.attempts[internals.code(err)] ?? internals.attempts.ER_LOCK_DEADLOCK!;
            if (attempt >= attempts || !retryable(err)) {
                throw err;
            }

            await sleep(internals.pauseMs(attempt, random));
        }
    }
};
