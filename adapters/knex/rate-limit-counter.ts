import type { Knex } from 'knex';
import type { RateLimitCounter, RateLimitOutcome, RateLimitUsage } from '../../core/ports/index.js';
import { toNumber } from './column-values.js';
import { dialectOf } from './connection.js';
import type { Dialect } from './connection.js';
import type { CounterRequest } from './fast/rate-limit-leases.js';
import { leasedCounter } from './fast/rate-limit-leases.js';
import { statements } from './fast/statements.js';

// One row per user holds both windows. The happy path is a single conditional UPDATE that
// adds a user's requests only while both counts stay within their limits, so concurrent
// requests from any number of processes can never count past a limit; the same statement
// hands back both counts, for the answers' headers, with no second round trip: SQLite by
// RETURNING, MySQL (which has no UPDATE … RETURNING) through LAST_INSERT_ID(expr), whose value
// the server sends back in the statement's OK packet as its insert id.
//
// The SET list assigns each count before its window start: MySQL evaluates assignments left
// to right with updated values, SQLite with the old ones; in this order both see the old start.

const internals = {
    set: 'minute_count = CASE WHEN minute_start = ? THEN minute_count + ? ELSE ? END, minute_start = ?, ' +
        'month_count = CASE WHEN month_start = ? THEN month_count + ? ELSE ? END, month_start = ?',
    where: 'where user_id = ? and (not minute_start = ? or minute_count + ? <= ?) and (not month_start = ? or month_count + ? <= ?)',

    // Both counts (32-bit columns) in one 64-bit id: the minute's above, the month's below. The
    // last assignment runs after both counts took their new values, and adds 0 to month_start.
    countsShift: 32n,
    countsId: ' + 0 * LAST_INSERT_ID(minute_count * 4294967296 + month_count)',

    increment(dialect: Dialect): string {

        return dialect === 'sqlite'
            ? `update rate_limits set ${internals.set} ${internals.where} returning minute_count, month_count`
            : `update rate_limits set ${internals.set}${internals.countsId} ${internals.where}`;
    }
};

export const rateLimitCounter = (knex: Knex): RateLimitCounter => {

    // Fixed SQL on every request (see statements.ts).
    const sql = statements(knex);
    const dialect = dialectOf(knex);
    const increment = internals.increment(dialect);

    // Adds `count` requests at once (taking back `refund` unused ones from the month's count)
    // and answers both counts after them, or adds none of them (null) when that would pass a
    // limit or the user has no row yet.
    const add = async (request: CounterRequest, count: number, refund: number): Promise<RateLimitUsage | null> => {

        const { userId, windows: { minuteStart, monthStart }, limits } = request;
        if (count > limits.perMinute || count > limits.perMonth) {
            return null;
        }

        const monthAdd = count - refund;
        const bindings = [
            minuteStart, count, count, minuteStart,
            monthStart, monthAdd, count, monthStart,
            userId, minuteStart, count, limits.perMinute, monthStart, monthAdd, limits.perMonth
        ];
        if (dialect === 'sqlite') {
            const row = await sql.first(increment, bindings);
            return row ? { minute: toNumber(row.minute_count), month: toNumber(row.month_count) } : null;
        }

        const { changes, id } = await sql.write(increment, bindings);
        return changes > 0 ? { minute: Number(id >> internals.countsShift), month: Number(id & ((1n << internals.countsShift) - 1n)) } : null;
    };

    const addOne = async (request: CounterRequest, refund: number): Promise<RateLimitOutcome> => {

        const { userId, windows: { minuteStart, monthStart }, limits } = request;
        // A refused UPDATE means a full window, or a row that did not exist yet (or was
        // created by a concurrent first request meanwhile): look, then try again.
        for (let attempt = 0; attempt < 3; attempt++) {
            const usage = await add(request, 1, refund);
            if (usage) {
                return { allowed: true, usage };
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
    };

    // Counted in leases (rate-limit-leases.ts): a user sending requests at once, or many in a
    // row, shares one write among them.
    const consume = leasedCounter({ add, addOne });

    return {
        consume(userId, windows, limits) {

            return consume({ userId, windows, limits });
        }
    };
};
