import type { SubscriptionState } from '../../domain/access.js';
import { invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import { parseStaffName, parseSubscription, staffNames } from './staff-input.js';

export interface CreateAccountInput {
    name: string;
    writingEnabled?: boolean;
    subscription?: string;
}

// Staff create the portfolio; it starts active unless told otherwise.
export const createAccount = async (deps: Pick<Ports, 'accounts' | 'clock'>, input: CreateAccountInput): Promise<{ id: number }> => {

    const name = parseStaffName(input.name, staffNames.account);
    const subscription: SubscriptionState = input.subscription === undefined ? 'active' : parseSubscription(input.subscription);
    if (!name) {
        throw invalid([messages.admin.invalidName]);
    }

    const id = await deps.accounts.create({
        name,
        writingEnabled: input.writingEnabled ?? false,
        subscription,
        createdAt: deps.clock.now().getTime()
    });

    return { id };
};
