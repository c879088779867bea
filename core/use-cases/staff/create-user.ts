import { isEmail, normalizeEmail } from '../../domain/email.js';
import { conflict, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import { hashPassword, minPasswordLength } from '../../domain/password.js';
import type { Ports } from '../../ports/index.js';
import { parseRole, requireAccount } from './staff-input.js';

export interface CreateUserInput {
    accountId: number;
    email: string;
    password?: string | undefined;
    role?: string | undefined;
}

export const createUser = async (deps: Pick<Ports, 'accounts' | 'users' | 'clock'>, input: CreateUserInput): Promise<{ id: number }> => {

    const email = normalizeEmail(input.email);
    const failures: string[] = [];
    if (!isEmail(email)) {
        failures.push(messages.admin.invalidEmail);
    }

    if (input.password !== undefined && input.password.length < minPasswordLength) {
        failures.push(messages.admin.shortPassword(minPasswordLength));
    }

    if (failures.length) {
        throw invalid(failures);
    }

    const role = parseRole(input.role ?? 'owner');
    await requireAccount(deps, input.accountId);
    // Only what the account already knows refuses an address: a user of this account, or (a
    // password given) an address someone signs in with. A user of another account invited here
    // is invited as anyone else, and refused on accepting (accept-invitation.ts), to the
    // address's owner: an owner's invitation never tells what another account holds.
    const inAccount = (await deps.users.listByAccount(input.accountId)).some((user) => user.email === email);
    if (inAccount || (input.password !== undefined && await deps.users.findByEmail(email))) {
        throw conflict(messages.admin.emailTaken(email));
    }

    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const id = await deps.users.create({ accountId: input.accountId, email, role, passwordHash, createdAt: deps.clock.now().getTime() });
    if (id === null) {
        throw conflict(messages.admin.emailTaken(email));
    }

    return { id };
};
