import type { Ports } from '../../ports/index.js';
import { requireAccount } from './staff-input.js';

// The users of an account (of every account when none is named), for the ids that
// `user assign`, `user set-password` and `token create` take.
export const listUsers = async (deps: Pick<Ports, 'accounts' | 'users'>, input: { accountId?: number | undefined }) => {

    const users = input.accountId === undefined
        ? await deps.users.list()
        : await deps.users.listByAccount((await requireAccount(deps, input.accountId)).id);

    return { users: users.map((user) => ({ id: user.id, accountId: user.accountId, email: user.email, role: user.role })) };
};
