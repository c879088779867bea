import type { Principal } from '../domain/access.js';
import { parseCuit } from '../domain/cuit.js';
import { unauthenticated } from '../domain/errors.js';
import { hashToken, tokenUseDue } from '../domain/token.js';
import type { Ports } from '../ports/index.js';

// The user behind an API token, with its live account flags (401 if none). A request about one
// CUIT names it (as sent; the read's own parameter check still judges it): when it is a CUIT,
// the client is looked up in the same statement as the token and carried on the principal
// for findVisibleClient, which then asks nothing more. The token's "last used" is recorded
// when due (tokenUseDue), without the request waiting for it or failing with it: a request is
// never refused because its bookkeeping could not be written.
export const findTokenUser = async (deps: Pick<Ports, 'tokens' | 'clock'>, token: string | null, named?: string): Promise<Principal> => {

    const cuit = named === undefined ? null : parseCuit(named);
    const principal = token ? await deps.tokens.findPrincipal(hashToken(token), cuit ?? undefined) : null;
    if (!principal) {
        throw unauthenticated();
    }

    const used = principal.apiToken;
    if (used) {
        const now = deps.clock.now().getTime();
        if (tokenUseDue(used.lastUsedAt, now)) {
            void deps.tokens.recordUse(used.id, now).catch(() => undefined);
        }
    }

    return principal;
};
