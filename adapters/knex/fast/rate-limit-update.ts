// Fast path: the rate limit's UPDATE as fixed SQL, every authenticated request. Earns it: the
// figure of statements.ts (the authenticated hit ~160 -> ~105 µs of CPU, 496f19d).

import type { Dialect } from '../connection.js';

// One row per user holds both windows. The happy path is a single conditional UPDATE that
// adds a user's requests only while both counts stay within their limits, so concurrent
// requests from any number of processes can never count past a limit; the same statement
// hands back both counts, for the answers' headers, with no second round trip: SQLite by
// RETURNING, MySQL (which has no UPDATE … RETURNING) through LAST_INSERT_ID(expr), whose value
// the server sends back in the statement's OK packet as its insert id.
//
// The SET list assigns each count before its window start: MySQL evaluates assignments left
// to right with updated values, SQLite with the old ones; in this order both see the old start.

const set = 'minute_count = CASE WHEN minute_start = ? THEN minute_count + ? ELSE ? END, minute_start = ?, ' +
    'month_count = CASE WHEN month_start = ? THEN month_count + ? ELSE ? END, month_start = ?';
const where = 'where user_id = ? and (not minute_start = ? or minute_count + ? <= ?) and (not month_start = ? or month_count + ? <= ?)';

// Both counts (32-bit columns) in one 64-bit id: the minute's above, the month's below. The
// last assignment runs after both counts took their new values, and adds 0 to month_start.
export const countsShift = 32n;
const countsId = ' + 0 * LAST_INSERT_ID(minute_count * 4294967296 + month_count)';

// Bindings: the minute's start, count, count, start; the month's start, count less refund, count,
// start; the user, the minute's start, count, limit; the month's start, count less refund, limit.
export const rateLimitUpdateSql = (dialect: Dialect): string => (dialect === 'sqlite'
    ? `update rate_limits set ${set} ${where} returning minute_count, month_count`
    : `update rate_limits set ${set}${countsId} ${where}`);
