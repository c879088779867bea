import { DomainError, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import type { Manager } from './staff-input.js';
import { managedAccount, parseStaffCuit, requireUser } from './staff-input.js';

type AssignInput = { userId: number; cuit: string; by?: Manager | undefined };

const internals = {
    // The member and its account's client of the CUIT; with `by` (a user in the panel, who
    // must be allowed to manage the team), a user of another account is as absent.
    async target(deps: Pick<Ports, 'users' | 'clients'>, input: AssignInput) {

        const accountId = managedAccount(input.by);
        const cuit = parseStaffCuit(input.cuit);
        const user = await requireUser(deps, input.userId, accountId);
        if (user.role === 'owner') {
            throw invalid([messages.admin.ownerSeesAll]);
        }

        const client = await deps.clients.findInAccount(user.accountId, cuit);
        if (!client) {
            throw new DomainError('not_found', messages.admin.clientNotInAccount(cuit));
        }

        return { user, client, cuit };
    }
};

// A member sees only the CUITs assigned to it; owners already see the whole account.
export const assignClientToUser = async (deps: Pick<Ports, 'users' | 'clients'>, input: AssignInput) => {

    const { user, client, cuit } = await internals.target(deps, input);
    await deps.users.assignClient(user.id, client.id);
    return { userId: user.id, cuit };
};

// The member stops seeing the CUIT at once (its next request answers 404 for it).
export const unassignClientFromUser = async (deps: Pick<Ports, 'users' | 'clients'>, input: AssignInput) => {

    const { user, client, cuit } = await internals.target(deps, input);
    await deps.users.unassignClient(user.id, client.id);
    return { userId: user.id, cuit, unassigned: true };
};
