import type { Principal } from '../domain/access.js';
import { unauthenticated } from '../domain/errors.js';
import { hashToken } from '../domain/token.js';
import type { Ports } from '../ports/index.js';
import { chargeRequest } from './charge-request.js';

type Deps = Pick<Ports, 'tokens' | 'rateLimitCounter' | 'rateLimits' | 'clock'>;

// The user behind an API token, with its live account flags (401 if none).
export const findTokenUser = async (deps: Pick<Ports, 'tokens'>, token: string | null): Promise<Principal> => {

    const principal = token ? await deps.tokens.findPrincipal(hashToken(token)) : null;
    if (!principal) {
        throw unauthenticated();
    }

    return principal;
};

// Every authenticated request, whatever the front end: the token names a user (401 if not),
// the account's subscription must be active (403), and the request counts against the
// user's limits (429), shared by all of the user's tokens.
export const chargeTokenRequest = async (deps: Deps, token: string | null): Promise<Principal> => {

    return chargeRequest(deps, await findTokenUser(deps, token));
};
