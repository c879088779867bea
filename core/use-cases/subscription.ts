import type { Principal, SubscriptionState } from '../domain/access.js';
import type { Ports } from '../ports/index.js';

// The account's subscription as its users see it (the panel's subscription page): its state,
// read live as every request reads it, and how many CUITs it is billed for (every CUIT of the
// account, whoever manages it).
export const subscriptionOf = async (
    deps: Pick<Ports, 'accounts'>,
    principal: Principal
): Promise<{ state: SubscriptionState; billedCuits: number }> => ({
    state: principal.subscription,
    billedCuits: await deps.accounts.countClients(principal.accountId)
});
