import type { Principal } from '../domain/access.js';
import type { Ports } from '../ports/index.js';

// The principal of a user known by id (an OAuth grant names its user), with the account
// flags read now, exactly as an API token's principal is; null when the user is gone.
export const principalOfUser = (deps: Pick<Ports, 'users'>, userId: number): Promise<Principal | null> => deps.users.findPrincipal(userId);
