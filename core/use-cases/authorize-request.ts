import type { Principal } from '../domain/access.js';
import { assertSubscriptionActive } from '../domain/access.js';
import { rateLimited, unauthenticated } from '../domain/errors.js';
import { windowsAt } from '../domain/rate-limit.js';
import { hashToken } from '../domain/token.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'tokens' | 'rateLimitCounter' | 'rateLimits' | 'clock'>;

// Every authenticated request, whatever the front end: the token names a user (401 if not),
// the account's subscription must be active (403), and the request counts against the
// user's limits (429), shared by all of the user's tokens.
export const authorizeRequest = async (deps: Deps, token: string | null): Promise<Principal> => {

    if (!token) {
        throw unauthenticated();
    }

    const principal = await deps.tokens.findPrincipal(hashToken(token));
    if (!principal) {
        throw unauthenticated();
    }

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

    return principal;
};
