import { conflict, DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import { parseTag } from './create-tag.js';
import type { Acting } from './staff-input.js';
import { actedOnAccount, requireAccount } from './staff-input.js';

// Renaming, recolouring and deleting a tag: staff and the dashboard only
// (the API reads tags). Each raises the account's data version, so `GET /v1/etiquetas` and
// the `etiquetas` of `GET /v1/cuits` show the change on their next read.

export const updateTag = async (deps: Pick<Ports, 'accounts' | 'tags'>, input: Acting & { name: string; newName: string; color: string }) => {

    const accountId = actedOnAccount(input);
    const next = parseTag({ name: input.newName, color: input.color });
    await requireAccount(deps, accountId);
    const name = input.name.trim();
    const outcome = await deps.tags.update({ accountId, name, newName: next.name, color: next.color });
    if (outcome === 'missing') {
        throw new DomainError('not_found', messages.admin.tagNotFound(name));
    }

    if (outcome === 'taken') {
        throw conflict(messages.admin.tagTaken(next.name));
    }

    return { nombre: next.name, color: next.color };
};

export const deleteTag = async (deps: Pick<Ports, 'accounts' | 'tags'>, input: Acting & { name: string }) => {

    const accountId = actedOnAccount(input);
    await requireAccount(deps, accountId);
    const name = input.name.trim();
    if (!await deps.tags.remove({ accountId, name })) {
        throw new DomainError('not_found', messages.admin.tagNotFound(name));
    }

    return { etiqueta: name, deleted: true };
};
