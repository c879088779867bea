import type { Principal } from '../domain/access.js';
import type { Ports } from '../ports/index.js';

// The principal of a user known by id (an OAuth grant names its user), with the account
// flags read now, exactly as an API token's principal is; null when the user is gone.
export const principalOfUser = async (deps: Pick<Ports, 'users' | 'accounts'>, userId: number): Promise<Principal | null> => {

    const user = await deps.users.findById(userId);
    const account = user ? await deps.accounts.findById(user.accountId) : null;
    if (!user || !account) {
        return null;
    }

    return {
        userId: user.id,
        accountId: user.accountId,
        role: user.role,
        writingEnabled: account.writingEnabled,
        subscription: account.subscription
    };
};
