import type { Principal } from '../domain/access.js';
import { parseCuit } from '../domain/cuit.js';
import { unauthenticated } from '../domain/errors.js';
import { hashToken } from '../domain/token.js';
import type { Ports } from '../ports/index.js';

// The user behind an API token, with its live account flags (401 if none). A request about one
// CUIT names it (as sent; the read's own parameter check still judges it): when it is a CUIT,
// the client is looked up in the same statement as the token and carried on the principal
// for findVisibleClient, which then asks nothing more.
export const findTokenUser = async (deps: Pick<Ports, 'tokens'>, token: string | null, named?: string): Promise<Principal> => {

    const cuit = named === undefined ? null : parseCuit(named);
    const principal = token ? await deps.tokens.findPrincipal(hashToken(token), cuit ?? undefined) : null;
    if (!principal) {
        throw unauthenticated();
    }

    return principal;
};
