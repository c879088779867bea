import { rateLimited } from '../domain/errors.js';
import type { RateLimitStatus } from '../domain/rate-limit.js';
import { rateLimitStatus, windowsAt } from '../domain/rate-limit.js';
import type { Ports } from '../ports/index.js';

// The rate-limit rule (docs/api.md, Limits): a user's request counts against 100 per minute and 200000 per
// calendar month in UTC (core/domain/rate-limit.ts), shared by all of the user's tokens and
// every server process (the counter port). Over either limit: 429 with the limit exceeded,
// when it is released and how long to wait; the month's when both are exceeded. Under them:
// the status of the limit closest to running out, for the answer's headers.
export const enforceRateLimits = async (deps: Pick<Ports, 'rateLimitCounter' | 'rateLimits' | 'clock'>, userId: number): Promise<RateLimitStatus> => {

    const now = deps.clock.now();
    const windows = windowsAt(now);
    const outcome = await deps.rateLimitCounter.consume(userId, windows, deps.rateLimits);
    if (!outcome.allowed) {
        const monthly = outcome.exceeded === 'month';
        const resetAt = monthly ? windows.monthReset : windows.minuteReset;
        throw rateLimited({
            limit: monthly ? deps.rateLimits.perMonth : deps.rateLimits.perMinute,
            resetAt,
            retryAfterSeconds: Math.max(1, resetAt - Math.floor(now.getTime() / 1000))
        });
    }

    return rateLimitStatus(outcome.usage, deps.rateLimits, windows);
};
