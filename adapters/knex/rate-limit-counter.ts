import type { Knex } from 'knex';
import type { RateLimits, RateWindows } from '../../core/domain/rate-limit.js';
import type { RateLimitCounter, RateLimitOutcome, RateLimitUsage } from '../../core/ports/index.js';
import { batched } from './batching.js';
import { toNumber } from './column-values.js';
import { placeholders, statements } from './statements.js';

// One row per user holds both windows. The happy path is a single conditional UPDATE that
// adds a user's requests only while both counts stay within their limits, so concurrent
// requests from any number of processes can never count past a limit.
//
// The SET list assigns each count before its window start: MySQL evaluates assignments left
// to right with updated values, SQLite with the old ones; in this order both see the old start.

interface Request {
    userId: number;
    windows: RateWindows;
    limits: RateLimits;
}

const internals = {
    increment: 'update rate_limits set ' +
        'minute_count = CASE WHEN minute_start = ? THEN minute_count + ? ELSE ? END, minute_start = ?, ' +
        'month_count = CASE WHEN month_start = ? THEN month_count + ? ELSE ? END, month_start = ? ' +
        'where user_id = ? and (not minute_start = ? or minute_count + ? <= ?) and (not month_start = ? or month_count + ? <= ?)',

    usage: (count: number) => `select user_id, minute_start, minute_count, month_start, month_count from rate_limits where user_id in (${placeholders(count)})`,

    groupKey: (request: Request): string => [request.userId, request.windows.minuteStart, request.windows.monthStart, request.limits.perMinute, request.limits.perMonth].join(':')
};

type Counted = { allowed: true } | Extract<RateLimitOutcome, { allowed: false }>;

export const rateLimitCounter = (knex: Knex): RateLimitCounter => {

    // Fixed SQL on every request (see statements.ts).
    const sql = statements(knex);

    // What the users' windows hold after their requests were counted, for the answers'
    // headers: one read after the batch's updates, for every user counted in it.
    const usageOf = async (requests: readonly Request[]): Promise<RateLimitUsage[]> => {

        const userIds = [...new Set(requests.map((request) => request.userId))];
        const rows = new Map((await sql.all(internals.usage(userIds.length), userIds)).map((row) => [toNumber(row.user_id), row]));
        return requests.map(({ userId, windows }) => {

            const row = rows.get(userId);
            return {
                minute: row && toNumber(row.minute_start) === windows.minuteStart ? toNumber(row.minute_count) : 0,
                month: row && toNumber(row.month_start) === windows.monthStart ? toNumber(row.month_count) : 0
            };
        });
    };

    // Adds `count` requests at once, or none of them (false) when that would pass a limit or
    // the user has no row yet.
    const tryAdd = async (request: Request, count: number): Promise<boolean> => {

        const { userId, windows: { minuteStart, monthStart }, limits } = request;
        if (count > limits.perMinute || count > limits.perMonth) {
            return false;
        }

        return await sql.run(internals.increment, [
            minuteStart, count, count, minuteStart,
            monthStart, count, count, monthStart,
            userId, minuteStart, count, limits.perMinute, monthStart, count, limits.perMonth
        ]) > 0;
    };

    const consumeOne = async (request: Request): Promise<Counted> => {

        const { userId, windows: { minuteStart, monthStart }, limits } = request;
        // A refused UPDATE means a full window, or a row that did not exist yet (or was
        // created by a concurrent first request meanwhile): look, then try again.
        for (let attempt = 0; attempt < 3; attempt++) {
            if (await tryAdd(request, 1)) {
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
    };

    // The requests of one event-loop turn are counted together (batching.ts): one UPDATE adds
    // a user's n requests when all n fit. When they do not, each is counted on its own, in
    // order, so exactly as many are let through as the limits leave room for. A write is a
    // round trip on MySQL and a commit to the write-ahead log on SQLite: both dialects gain.
    const consumeTogether = batched(async (requests: readonly Request[]): Promise<RateLimitOutcome[]> => {

        const groups = new Map<string, number[]>();
        requests.forEach((request, i) => {

            const key = internals.groupKey(request);
            const group = groups.get(key);
            if (group) {
                group.push(i);
            }
            else {
                groups.set(key, [i]);
            }
        });

        const counted: Counted[] = new Array(requests.length);
        await Promise.all([...groups.values()].map(async (indexes) => {

            const first = requests[indexes[0]!]!;
            if (indexes.length > 1 && await tryAdd(first, indexes.length)) {
                indexes.forEach((i) => (counted[i] = { allowed: true }));
                return;
            }

            for (const i of indexes) {
                counted[i] = await consumeOne(requests[i]!);
            }
        }));

        const admitted = requests.filter((_request, i) => counted[i]!.allowed);
        const usage = admitted.length ? await usageOf(admitted) : [];
        let next = 0;
        return counted.map((outcome): RateLimitOutcome => (outcome.allowed ? { allowed: true, usage: usage[next++]! } : outcome));
    });

    return {
        consume(userId, windows, limits) {

            return consumeTogether({ userId, windows, limits });
        }
    };
};
