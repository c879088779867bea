import { DomainError, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import type { Manager } from './staff-input.js';
import { managedAccount, parseStaffCuit, requireUser } from './staff-input.js';

type AssignInput = { userId: number; cuit: string; by?: Manager | undefined };
type AssignManyInput = { userId: number; cuits: readonly string[]; by?: Manager | undefined };

const internals = {
    // The member and its account's clients of the CUITs, every one checked before anything
    // changes; with `by` (a user in the panel, who must be allowed to manage the team), a user
    // of another account is as absent.
    async targets(deps: Pick<Ports, 'users' | 'clients'>, input: AssignManyInput) {

        const accountId = managedAccount(input.by);
        const cuits = input.cuits.map(parseStaffCuit);
        const user = await requireUser(deps, input.userId, accountId);
        if (user.role === 'owner') {
            throw invalid([messages.admin.ownerSeesAll]);
        }

        const clients = [];
        for (const cuit of cuits) {
            const client = await deps.clients.findInAccount(user.accountId, cuit);
            if (!client) {
                throw new DomainError('not_found', messages.admin.clientNotInAccount(cuit));
            }

            clients.push(client);
        }

        return { user, clients, cuits };
    }
};

// A member sees only the CUITs assigned to it; owners already see the whole account.
// Several at once (the panel's checkboxes): a CUIT refused leaves every one unchanged, and the
// change is one transaction.
export const assignClientsToUser = async (deps: Pick<Ports, 'users' | 'clients'>, input: AssignManyInput) => {

    const { user, clients, cuits } = await internals.targets(deps, input);
    await deps.users.assignClients(user.id, clients.map((client) => client.id));
    return { userId: user.id, cuits };
};

// The member stops seeing the CUITs at once (its next request answers 404 for them).
export const unassignClientsFromUser = async (deps: Pick<Ports, 'users' | 'clients'>, input: AssignManyInput) => {

    const { user, clients, cuits } = await internals.targets(deps, input);
    await deps.users.unassignClients(user.id, clients.map((client) => client.id));

    return { userId: user.id, cuits, unassigned: true };
};

export const assignClientToUser = async (deps: Pick<Ports, 'users' | 'clients'>, input: AssignInput) => {

    const { userId, cuits: [cuit] } = await assignClientsToUser(deps, { userId: input.userId, cuits: [input.cuit], by: input.by });
    return { userId, cuit: cuit! };
};

export const unassignClientFromUser = async (deps: Pick<Ports, 'users' | 'clients'>, input: AssignInput) => {

    const { userId, cuits: [cuit] } = await unassignClientsFromUser(deps, { userId: input.userId, cuits: [input.cuit], by: input.by });
    return { userId, cuit: cuit!, unassigned: true };
};
