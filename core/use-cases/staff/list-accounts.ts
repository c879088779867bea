import type { Ports } from '../../ports/index.js';

// Every account with its flags and what it is billed for, so staff find the id to act on.
export const listAccounts = async (deps: Pick<Ports, 'accounts'>) => {

    const accounts = await deps.accounts.list();
    return {
        accounts: accounts.map((account) => ({
            id: account.id,
            name: account.name,
            writingEnabled: account.writingEnabled,
            subscription: account.subscription,
            cuitCount: account.cuitCount,
            userCount: account.userCount,
            createdAt: new Date(account.createdAt).toISOString()
        }))
    };
};
