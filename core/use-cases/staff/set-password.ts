import { conflict, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import { hashPassword, minPasswordLength } from '../../domain/password.js';
import type { Ports } from '../../ports/index.js';
import { requireUser } from './staff-input.js';

// What a new password must be, wherever it is set (staff, the user, an invitation link).
export const assertPasswordRules = (password: string): void => {

    if (password.length < minPasswordLength) {
        throw invalid([messages.admin.shortPassword(minPasswordLength)]);
    }
};

// Staff set (or reset) the password a user signs in with to authorize MCP clients. What the
// old password authorized goes with it: every OAuth grant, token and session of the user.
export const setPassword = async (
    deps: Pick<Ports, 'users' | 'userCredentials' | 'oauthStore'>,
    input: { userId: number; password: string }
): Promise<{ id: number }> => {

    assertPasswordRules(input.password);
    const user = await requireUser(deps, input.userId);
    // An invitee whose address someone else signs in with meanwhile: one address, one sign-in.
    const holder = await deps.users.findByEmail(user.email);
    if (holder && holder.id !== user.id) {
        throw conflict(messages.team.emailInUse);
    }

    if (await deps.userCredentials.setPasswordHash(user.id, await hashPassword(input.password)) === 'address-taken') {
        throw conflict(messages.team.emailInUse);
    }

    await deps.oauthStore.revokeAccount(String(user.id));
    return { id: user.id };
};
