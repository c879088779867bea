import { conflict, invalid } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import type { Acting } from './staff-input.js';
import { actedOnAccount, parseStaffName, requireAccount, staffNames } from './staff-input.js';

const colorPattern = /^#[0-9a-fA-F]{6}$/;

// A tag's name and colour as stored (the colour in lower case), or every failure in Spanish:
// the one rule for creating and for changing one.
export const parseTag = (input: { name: string; color: string }): { name: string; color: string } => {

    const name = parseStaffName(input.name, staffNames.tag);
    const failures: string[] = [];
    if (!name) {
        failures.push(messages.admin.invalidName);
    }

    if (!colorPattern.test(input.color)) {
        failures.push(messages.admin.invalidColor);
    }

    if (failures.length) {
        throw invalid(failures);
    }

    return { name, color: input.color.toLowerCase() };
};

// Tags are managed by staff and the dashboard, never through the API (docs/api.md, Resources).
export const createTag = async (deps: Pick<Ports, 'accounts' | 'tags'>, input: Acting & { name: string; color: string }) => {

    const accountId = actedOnAccount(input);
    const { name, color } = parseTag(input);
    await requireAccount(deps, accountId);
    const id = await deps.tags.create({ accountId, name, color });
    if (id === null) {
        throw conflict(messages.admin.tagTaken(name));
    }

    return { id, nombre: name, color };
};
