import { DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import type { Acting } from './staff-input.js';
import { actedOnAccount, parseStaffCuit, requireAccount } from './staff-input.js';

type TagDeps = Pick<Ports, 'accounts' | 'clients' | 'tags'>;
type TagInput = Acting & { cuit: string; name: string };
type TagManyInput = Acting & { cuits: readonly string[]; name: string };

const internals = {
    // CUITs of the account gain or lose a tag of the account; either missing is not found.
    // Every CUIT is checked first, and the change is one transaction: a refusal, or a failure
    // halfway, leaves them all as they were.
    async change(deps: TagDeps, input: TagManyInput, action: 'assign' | 'unassign') {

        const accountId = actedOnAccount(input);
        const cuits = input.cuits.map(parseStaffCuit);
        await requireAccount(deps, accountId);
        const clients = [];
        for (const cuit of cuits) {
            const client = await deps.clients.findInAccount(accountId, cuit);
            if (!client) {
                throw new DomainError('not_found', messages.admin.clientNotInAccount(cuit));
            }

            clients.push(client);
        }

        const name = input.name.trim();
        if (!await deps.tags[action]({ accountId, clientIds: clients.map((client) => client.id), name })) {
            throw new DomainError('not_found', messages.admin.tagNotFound(name));
        }

        return { cuits, etiqueta: name };
    },

    async one(deps: TagDeps, input: TagInput, action: 'assign' | 'unassign') {

        const { cuits: [cuit], etiqueta } = await internals.change(deps, { ...input, cuits: [input.cuit] }, action);
        return { cuit: cuit!, etiqueta };
    }
};

export const assignTag = (deps: TagDeps, input: TagInput) => internals.one(deps, input, 'assign');

// Taking off a tag the CUIT does not have is harmless, as assigning twice is.
export const unassignTag = (deps: TagDeps, input: TagInput) => internals.one(deps, input, 'unassign');

// La cartera's selection: all of its CUITs, or none.
export const assignTagToClients = (deps: TagDeps, input: TagManyInput) => internals.change(deps, input, 'assign');

export const unassignTagFromClients = (deps: TagDeps, input: TagManyInput) => internals.change(deps, input, 'unassign');
