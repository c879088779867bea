import type { Ports } from '../../ports/index.js';
import { accountView } from './account-view.js';
import { requireAccount } from './staff-input.js';

// What staff need to answer a customer: flags, users, and the CUIT count billed.
export const showAccount = async (deps: Pick<Ports, 'accounts' | 'users'>, input: { id: number }) => {

    const account = await requireAccount(deps, input.id);
    const [users, cuitCount] = await Promise.all([
        deps.users.listByAccount(account.id),
        deps.accounts.countClients(account.id)
    ]);

    return {
        ...accountView(account),
        cuitCount,
        users: users.map((user) => ({ id: user.id, email: user.email, role: user.role }))
    };
};
