import { DomainError, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import { parseStaffCuit, requireUser } from './staff-input.js';

// A member sees only the CUITs assigned to it; owners already see the whole account.
export const assignClientToUser = async (deps: Pick<Ports, 'users' | 'clients'>, input: { userId: number; cuit: string }) => {

    const cuit = parseStaffCuit(input.cuit);
    const user = await requireUser(deps, input.userId);
    if (user.role === 'owner') {
        throw invalid([messages.admin.ownerSeesAll]);
    }

    const client = await deps.clients.findInAccount(user.accountId, cuit);
    if (!client) {
        throw new DomainError('not_found', messages.admin.clientNotInAccount(cuit));
    }

    await deps.users.assignClient(user.id, client.id);
    return { userId: user.id, cuit };
};
