import type { Principal } from '../domain/access.js';
import type { Cuit } from '../domain/cuit.js';
import type { Ports } from '../ports/index.js';

// The principal of a user known by id (an OAuth grant names its user), with the account
// flags read now, exactly as an API token's principal is; null when the user is gone.
export const principalOfUser = (deps: Pick<Ports, 'users'>, userId: number): Promise<Principal | null> => deps.users.findPrincipal(userId);

// A panel session's user: its principal as above and its e-mail, in one lookup. A page about
// one CUIT names it, so its use cases ask nothing more to know whether the user manages it (as
// an API request's token lookup, find-token-user.ts).
export const sessionUserOf = (
    deps: Pick<Ports, 'users'>,
    userId: number,
    cuit?: Cuit
): Promise<{ principal: Principal; email: string } | null> => deps.users.findSessionUser(userId, cuit);
