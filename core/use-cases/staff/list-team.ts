import type { Principal } from '../../domain/access.js';
import { assertMayManageAccount } from '../../domain/access.js';
import type { Ports } from '../../ports/index.js';
import type { Acting } from './staff-input.js';
import { actedOnAccount, requireUser } from './staff-input.js';

// The account's users as its owners manage them: role, CUITs assigned, invitation pending.
export const listTeam = async (deps: Pick<Ports, 'users'>, acting: Acting) => ({ users: await deps.users.listTeam(actedOnAccount(acting)) });

// How many of the account's CUITs a user's page lists to pick from.
const pickLimit = 1000;

// One user of the account with the CUITs assigned to it and the account's CUITs to assign
// (owners see them all: `owner` is the principal of an owner of the account, the only users
// who manage the team).
export const teamMember = async (
    deps: Pick<Ports, 'users' | 'clients'>,
    owner: Pick<Principal, 'accountId' | 'userId' | 'role' | 'writingEnabled' | 'subscription' | 'dataVersion'>,
    input: { userId: number }
) => {

    assertMayManageAccount(owner);
    const user = await requireUser(deps, input.userId, owner.accountId);
    const [team, assigned, clients] = await Promise.all([
        deps.users.listTeam(owner.accountId),
        deps.users.assignedCuits(user.id),
        deps.clients.listVisible({ ...owner, role: 'owner' }, { etiquetas: null, monotributista: null, autonomo: null, categoria: null }, { limit: pickLimit, offset: 0 })
    ]);
    const member = team.find((row) => row.id === user.id) ?? { ...user, assignedCount: assigned.length, pending: false };
    const mine = new Set<string>(assigned);
    return {
        user: member,
        clients: clients.items.map((client) => ({ cuit: client.cuit, displayName: client.displayName, assigned: mine.has(client.cuit) })),
        more: clients.total > clients.items.length
    };
};
