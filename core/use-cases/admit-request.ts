import type { Principal } from '../domain/access.js';
import { assertSubscriptionActive } from '../domain/access.js';
import { rateLimited } from '../domain/errors.js';
import { rateLimitStatus, windowsAt } from '../domain/rate-limit.js';
import type { Ports } from '../ports/index.js';

// What every request of a known user goes through, whatever proved who it is (an API token, an
// OAuth access token of the MCP endpoint): the account's subscription must be active (403)
// and the request counts against the user's limits (429), shared by all of the user's tokens.
export const admitRequest = async (deps: Pick<Ports, 'rateLimitCounter' | 'rateLimits' | 'clock'>, principal: Principal): Promise<Principal> => {

    assertSubscriptionActive(principal);

    const now = deps.clock.now();
    const windows = windowsAt(now);
    const outcome = await deps.rateLimitCounter.consume(principal.userId, windows, deps.rateLimits);
    if (!outcome.allowed) {
        const nowSeconds = Math.floor(now.getTime() / 1000);
        const monthly = outcome.exceeded === 'month';
        const resetAt = monthly ? windows.monthReset : windows.minuteReset;
        throw rateLimited({
            limit: monthly ? deps.rateLimits.perMonth : deps.rateLimits.perMinute,
            resetAt,
            retryAfterSeconds: Math.max(1, resetAt - nowSeconds)
        });
    }

    return { ...principal, rateLimit: rateLimitStatus(outcome.usage, deps.rateLimits, windows) };
};
