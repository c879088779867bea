import type { Principal, Role, SubscriptionState } from '../../domain/access.js';
import { assertMayManageAccount, roles, subscriptionStates } from '../../domain/access.js';
import type { Cuit } from '../../domain/cuit.js';
import { parseCuit } from '../../domain/cuit.js';
import { DomainError, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import { isPrintableText } from '../../domain/text.js';
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

// The names staff give, each with the column's length and how its errors name it.
export const staffNames = {
    account: { what: 'El nombre de la cuenta', max: 200 },
    token: { what: 'El nombre del token', max: 200 },
    tag: { what: 'El nombre de la etiqueta', max: 100 }
} as const;

// A name shows in listings and terminals: a control character (an ESC sequence, a line break)
// would act there or forge a line, so it is refused, as are lone surrogates (isPrintableText)
// and C1 controls, wherever they stand. Returns the name trimmed of spaces; empty is the
// caller's to refuse or allow.
export const parseStaffName = (value: string, name: { what: string; max: number }): string => {

    if (!isPrintableText(value) || /[\u0080-\u009f]/.test(value)) {
        throw invalid([messages.admin.nameCharacters(name.what)]);
    }

    const trimmed = value.trim();
    if (trimmed.length > name.max) {
        throw invalid([messages.admin.nameTooLong(name.what, name.max)]);
    }

    return trimmed;
};

export const requireAccount = async (deps: Pick<Ports, 'accounts'>, id: number): Promise<AccountRecord> => {

    const account = await deps.accounts.findById(id);
    if (!account) {
        throw new DomainError('not_found', messages.admin.accountNotFound(id));
    }

    return account;
};

// A user of the account acting through the panel, on its tags or team.
export type Manager = Pick<Principal, 'accountId' | 'role'>;

// Who acts on an account's tags or team: the operator (the CLI), naming the account, or a
// manager (the panel), on its own account once the core's rule lets it (access.ts).
export type Acting = { accountId: number } | { by: Manager };

export const actedOnAccount = (acting: Acting): number => {

    if ('by' in acting) {
        assertMayManageAccount(acting.by);
        return acting.by.accountId;
    }

    return acting.accountId;
};

// The account a use case on one user is confined to: none for the operator (`by` absent), the
// manager's own (once the rule lets it) for a user of the panel.
export const managedAccount = (by: Manager | undefined): number | undefined => (by === undefined ? undefined : actedOnAccount({ by }));

// With `accountId` (an owner acting from the panel), a user of another account is as absent.
export const requireUser = async (deps: Pick<Ports, 'users'>, id: number, accountId?: number): Promise<UserRecord> => {

    const user = await deps.users.findById(id);
    if (!user || (accountId !== undefined && user.accountId !== accountId)) {
        throw new DomainError('not_found', messages.admin.userNotFound(id));
    }

    return user;
};
