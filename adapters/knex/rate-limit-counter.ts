import type { Knex } from 'knex';
import type { RateLimitCounter } from '../../core/ports/index.js';
import { toNumber } from './rows.js';
import { statements } from './statements.js';

// One row per user holds both windows. The happy path is a single conditional UPDATE that
// increments only while both counts are under their limits, so concurrent requests from any
// number of processes can never count past a limit.
//
// The SET list assigns each count before its window start: MySQL evaluates assignments left
// to right with updated values, SQLite with the old ones; in this order both see the old start.
const internals = {
    increment: 'update rate_limits set ' +
        'minute_count = CASE WHEN minute_start = ? THEN minute_count + 1 ELSE 1 END, minute_start = ?, ' +
        'month_count = CASE WHEN month_start = ? THEN month_count + 1 ELSE 1 END, month_start = ? ' +
        'where user_id = ? and (not minute_start = ? or minute_count < ?) and (not month_start = ? or month_count < ?)'
};

export const rateLimitCounter = (knex: Knex): RateLimitCounter => {

    // Fixed SQL on every request (see statements.ts); the same statement knex would build.
    const sql = statements(knex);
    const tryIncrement = (userId: number, minuteStart: number, monthStart: number, perMinute: number, perMonth: number) => {

        return sql.run(internals.increment, [minuteStart, minuteStart, monthStart, monthStart, userId, minuteStart, perMinute, monthStart, perMonth]);
    };

    return {
        async consume(userId, windows, limits) {

            const { minuteStart, monthStart } = windows;
            // A refused UPDATE means a full window, or a row that did not exist yet (or was
            // created by a concurrent first request meanwhile): look, then try again.
            for (let attempt = 0; attempt < 3; attempt++) {
                if (await tryIncrement(userId, minuteStart, monthStart, limits.perMinute, limits.perMonth) > 0) {
                    return { allowed: true };
                }

                const row = await knex('rate_limits').where('user_id', userId).first();
                if (!row) {
                    await knex('rate_limits')
                        .insert({ user_id: userId, minute_start: minuteStart, minute_count: 0, month_start: monthStart, month_count: 0 })
                        .onConflict('user_id')
                        .ignore();
                    continue;
                }

                if (toNumber(row.month_start) === monthStart && toNumber(row.month_count) >= limits.perMonth) {
                    return { allowed: false, exceeded: 'month' };
                }

                if (toNumber(row.minute_start) === minuteStart && toNumber(row.minute_count) >= limits.perMinute) {
                    return { allowed: false, exceeded: 'minute' };
                }
            }

            return { allowed: false, exceeded: 'minute' };
        }
    };
};
