import { keepsAnOwner } from '../../domain/access.js';
import { conflict, DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import type { Manager } from './staff-input.js';
import { managedAccount, parseRole, requireUser } from './staff-input.js';

// An owner manages the whole account; a member, the CUITs assigned to it (which a member
// keeps while an owner, and sees again if made member once more). The account keeps an owner.
export const changeUserRole = async (deps: Pick<Ports, 'users'>, input: { userId: number; role: string; by?: Manager | undefined }) => {

    const accountId = managedAccount(input.by);
    const role = parseRole(input.role);
    const user = await requireUser(deps, input.userId, accountId);
    if (user.role === role) {
        return { id: user.id, role };
    }

    // Checked here for the clear answer; the repository checks again under its lock.
    if (!keepsAnOwner(await deps.users.listByAccount(user.accountId), { userId: user.id, role })) {
        throw conflict(messages.team.lastOwner);
    }

    assertTeamChange(user.id, await deps.users.setRole(user.id, role));
    return { id: user.id, role };
};

// What the repository answered a role change or removal with, as the core's errors: the last
// owner (another change got there first), or the user gone meanwhile.
export const assertTeamChange = (userId: number, outcome: 'changed' | 'removed' | 'last_owner' | 'absent'): void => {

    if (outcome === 'last_owner') {
        throw conflict(messages.team.lastOwner);
    }

    if (outcome === 'absent') {
        throw new DomainError('not_found', messages.admin.userNotFound(userId));
    }
};
