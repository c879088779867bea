import type { Role, SubscriptionState } from '../../domain/access.js';
import { roles, subscriptionStates } from '../../domain/access.js';
import type { Cuit } from '../../domain/cuit.js';
import { parseCuit } from '../../domain/cuit.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { AccountRecord, Ports, UserRecord } from '../../ports/index.js';

// Checks shared by the staff use cases.

export const parseSubscription = (value: string): SubscriptionState => {

    if (!(subscriptionStates as readonly string[]).includes(value)) {
        throw invalid([messages.admin.invalidSubscription]);
    }

    return value as SubscriptionState;
};

export const parseRole = (value: string): Role => {

    if (!(roles as readonly string[]).includes(value)) {
        throw invalid([messages.admin.invalidRole]);
    }

    return value as Role;
};

export const parseStaffCuit = (value: string): Cuit => {

    const cuit = parseCuit(value);
    if (!cuit) {
        throw invalid([messages.admin.invalidCuit]);
    }

    return cuit;
};

export const requireAccount = async (deps: Pick<Ports, 'accounts'>, id: number): Promise<AccountRecord> => {

    const account = await deps.accounts.findById(id);
    if (!account) {
        throw new DomainError('not_found', messages.admin.accountNotFound(id));
    }

    return account;
};

export const requireUser = async (deps: Pick<Ports, 'users'>, id: number): Promise<UserRecord> => {

    const user = await deps.users.findById(id);
    if (!user) {
        throw new DomainError('not_found', messages.admin.userNotFound(id));
    }

    return user;
};
