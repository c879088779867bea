import type { Ports } from '../../ports/index.js';
import { accountView } from './account-view.js';

// Every account with its flags and what it is billed for, so staff find the id to act on.
export const listAccounts = async (deps: Pick<Ports, 'accounts'>) => {

    const accounts = await deps.accounts.list();
    return {
        accounts: accounts.map((account) => ({ ...accountView(account), cuitCount: account.cuitCount, userCount: account.userCount }))
    };
};
