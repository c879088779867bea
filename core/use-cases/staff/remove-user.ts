import { keepsAnOwner } from '../../domain/access.js';
import { conflict } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import { assertTeamChange } from './change-user-role.js';
import type { Manager } from './staff-input.js';
import { managedAccount, requireUser } from './staff-input.js';

// A user leaves the account, and everything they could act with ends at once: their API tokens,
// assignments and invitation links go with the row; their panel sessions and OAuth grants
// (entries of the OAuth store indexed by user, as set-password.ts ends them) right after, so
// the next request with any of them is refused. The account keeps an owner.
export const removeUser = async (deps: Pick<Ports, 'users' | 'oauthStore'>, input: { userId: number; by?: Manager | undefined }) => {

    const user = await requireUser(deps, input.userId, managedAccount(input.by));
    if (!keepsAnOwner(await deps.users.listByAccount(user.accountId), { userId: user.id, role: null })) {
        throw conflict(messages.team.lastOwner);
    }

    assertTeamChange(user.id, await deps.users.remove(user.id));
    // After the row: a session or grant started in between names a user that is gone.
    await deps.oauthStore.revokeAccount(String(user.id));
    return { id: user.id, email: user.email, removed: true };
};
