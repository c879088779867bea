import type { Principal } from '../domain/access.js';
import { unauthenticated } from '../domain/errors.js';
import { hashToken } from '../domain/token.js';
import type { Ports } from '../ports/index.js';

// The user behind an API token, with its live account flags (401 if none).
export const findTokenUser = async (deps: Pick<Ports, 'tokens'>, token: string | null): Promise<Principal> => {

    const principal = token ? await deps.tokens.findPrincipal(hashToken(token)) : null;
    if (!principal) {
        throw unauthenticated();
    }

    return principal;
};
