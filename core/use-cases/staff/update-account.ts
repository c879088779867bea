import type { Ports } from '../../ports/index.js';
import { parseSubscription, requireAccount } from './staff-input.js';

export interface UpdateAccountInput {
    id: number;
    writingEnabled?: boolean | undefined;
    subscription?: string | undefined;
}

// Staff enable API writing and set the subscription state; tokens keep working and see the
// change on their next request.
export const updateAccount = async (deps: Pick<Ports, 'accounts'>, input: UpdateAccountInput) => {

    const changes: { writingEnabled?: boolean; subscription?: ReturnType<typeof parseSubscription> } = {};
    if (input.writingEnabled !== undefined) {
        changes.writingEnabled = input.writingEnabled;
    }

    if (input.subscription !== undefined) {
        changes.subscription = parseSubscription(input.subscription);
    }

    await requireAccount(deps, input.id);
    if (Object.keys(changes).length) {
        await deps.accounts.update(input.id, changes);
    }

    const account = await requireAccount(deps, input.id);
    return { id: account.id, name: account.name, writingEnabled: account.writingEnabled, subscription: account.subscription };
};
