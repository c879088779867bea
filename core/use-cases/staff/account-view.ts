import type { AccountRecord } from '../../ports/index.js';

// An account as staff see it (account show, account list).
export const accountView = (account: AccountRecord) => ({
    id: account.id,
    name: account.name,
    writingEnabled: account.writingEnabled,
    subscription: account.subscription,
    createdAt: new Date(account.createdAt).toISOString()
});
