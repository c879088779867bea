import { DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import { parseStaffCuit, requireAccount } from './staff-input.js';

export const assignTag = async (deps: Pick<Ports, 'accounts' | 'clients' | 'tags'>, input: { accountId: number; cuit: string; name: string }) => {

    const cuit = parseStaffCuit(input.cuit);
    await requireAccount(deps, input.accountId);
    const client = await deps.clients.findInAccount(input.accountId, cuit);
    if (!client) {
        throw new DomainError('not_found', messages.admin.clientNotInAccount(cuit));
    }

    const name = input.name.trim();
    if (!await deps.tags.assign({ accountId: input.accountId, clientId: client.id, name })) {
        throw new DomainError('not_found', messages.admin.tagNotFound(name));
    }

    return { cuit, etiqueta: name };
};
