import { DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import type { Acting } from './staff-input.js';
import { actedOnAccount, parseStaffCuit, requireAccount } from './staff-input.js';

type TagInput = Acting & { cuit: string; name: string };

const internals = {
    // One CUIT of the account gains or loses a tag of the account; either missing is not found.
    async change(deps: Pick<Ports, 'accounts' | 'clients' | 'tags'>, input: TagInput, action: 'assign' | 'unassign') {

        const accountId = actedOnAccount(input);
        const cuit = parseStaffCuit(input.cuit);
        await requireAccount(deps, accountId);
        const client = await deps.clients.findInAccount(accountId, cuit);
        if (!client) {
            throw new DomainError('not_found', messages.admin.clientNotInAccount(cuit));
        }

        const name = input.name.trim();
        if (!await deps.tags[action]({ accountId, clientId: client.id, name })) {
            throw new DomainError('not_found', messages.admin.tagNotFound(name));
        }

        return { cuit, etiqueta: name };
    }
};

export const assignTag = (deps: Pick<Ports, 'accounts' | 'clients' | 'tags'>, input: TagInput) => internals.change(deps, input, 'assign');

// Taking off a tag the CUIT does not have is harmless, as assigning twice is.
export const unassignTag = (deps: Pick<Ports, 'accounts' | 'clients' | 'tags'>, input: TagInput) => internals.change(deps, input, 'unassign');
