import type { Knex } from 'knex';
import type { ThrottleCounter } from '../../core/ports/index.js';
import { toNumber } from './column-values.js';

// One row per subject holds its current window. As with the rate limits, a single conditional
// UPDATE counts an attempt only while the window has room, so concurrent attempts from any
// number of processes never count past the limit. The count is assigned before the window
// start (MySQL evaluates assignments left to right with updated values, SQLite with the old).

const internals = {
    // A subject's row is no longer needed once its window is over; every rule's window is far
    // shorter than a day (core/domain/throttle.ts). Rows older than that are dropped whenever a
    // new subject's row is made, so addresses and emails seen once do not pile up for ever.
    staleAfterSeconds: 24 * 60 * 60
};

export const throttleCounter = (knex: Knex): ThrottleCounter => {

    return {
        async tryCount(subject, windowStart, limit) {

            // A refused UPDATE means a full window, or no row yet (or one another process was
            // creating meanwhile): look, then try again.
            for (let attempt = 0; attempt < 3; attempt++) {
                const counted = await knex('throttles')
                    .where({ subject })
                    .andWhere((window) => window.whereNot('window_start', windowStart).orWhere('count', '<', limit))
                    .update({ count: knex.raw('case when window_start = ? then count + 1 else 1 end', [windowStart]), window_start: windowStart });
                if (counted > 0) {
                    return true;
                }

                const row = await knex('throttles').where({ subject }).first();
                if (!row) {
                    await knex('throttles').where('window_start', '<', windowStart - internals.staleAfterSeconds).delete();
                    await knex('throttles').insert({ subject, window_start: windowStart, count: 0 }).onConflict('subject').ignore();
                    continue;
                }

                if (toNumber(row.window_start) === windowStart && toNumber(row.count) >= limit) {
                    return false;
                }
            }

            return false;
        },

        async giveBack(subject, windowStart) {

            await knex('throttles').where({ subject, window_start: windowStart }).andWhere('count', '>', 0).decrement('count', 1);
        }
    };
};
