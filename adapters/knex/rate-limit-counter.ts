import type { Knex } from 'knex';
import type { RateLimitCounter, RateLimitOutcome, RateLimitUsage } from '../../core/ports/index.js';
import { toNumber } from './column-values.js';
import { dialectOf } from './connection.js';
import type { CounterRequest } from './fast/rate-limit-leases.js';
import { leasedCounter } from './fast/rate-limit-leases.js';
import { countsShift, rateLimitUpdateSql } from './fast/rate-limit-update.js';
import { statements } from './fast/statements.js';

// One row per user holds both windows, counted by one conditional UPDATE (fast/rate-limit-update.ts).

export const rateLimitCounter = (knex: Knex): RateLimitCounter => {

    // Fixed SQL on every request (see statements.ts).
    const sql = statements(knex);
    const dialect = dialectOf(knex);
    const increment = rateLimitUpdateSql(dialect);

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
        return changes > 0 ? { minute: Number(id >> countsShift), month: Number(id & ((1n << countsShift) - 1n)) } : null;
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
