import type { Principal } from '../domain/access.js';
import { assertSubscriptionActive } from '../domain/access.js';
import type { Ports } from '../ports/index.js';
import { enforceRateLimits } from './enforce-rate-limits.js';

// What every request of a known user goes through, whatever proved who it is (an API token, an
// OAuth access token of the MCP endpoint): the account's subscription must be active (403),
// then the request is charged to the user's limits (429 when over one; enforce-rate-limits.ts).
// The principal comes back with where its limits stand.
export const chargeRequest = async (deps: Pick<Ports, 'rateLimitCounter' | 'rateLimits' | 'clock'>, principal: Principal): Promise<Principal> => {

    assertSubscriptionActive(principal);
    return { ...principal, rateLimit: await enforceRateLimits(deps, principal.userId) };
};
