import { invalid } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { PageRequest } from '../domain/pagination.js';
import { maxLimit, pageDefaults } from '../domain/pagination.js';

// SPEC §4.14. Front ends validate their own input shapes; the bounds are re-checked here so
// that no front end can page outside them.
export const resolvePage = (input: { limit?: number | undefined; offset?: number | undefined }): PageRequest => {

    const limit = input.limit ?? pageDefaults.limit;
    const offset = input.offset ?? pageDefaults.offset;
    const failures: string[] = [];
    if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
        failures.push(messages.field.limit);
    }

    if (!Number.isInteger(offset) || offset < 0) {
        failures.push(messages.field.offset);
    }

    if (failures.length) {
        throw invalid(failures);
    }

    return { limit, offset };
};
