import { DomainError, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import { parseStaffCuit, requireUser } from './staff-input.js';

type AssignInput = { userId: number; cuit: string; accountId?: number | undefined };

const internals = {
    // The member and its account's client of the CUIT; with `accountId` (an owner in the
    // panel), a user of another account is as absent.
    async target(deps: Pick<Ports, 'users' | 'clients'>, input: AssignInput) {

        const cuit = parseStaffCuit(input.cuit);
        const user = await requireUser(deps, input.userId, input.accountId);
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
