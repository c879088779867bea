import type Joi from 'joi';

// How the contract's refusals become messages, in one place. Every failing key gets one
// message (its first failure), and a message is said once; they come in the contract's order of its keys, then
// whatever concerns the input as a whole (a period with one end), then the keys the input
// should not have carried, in the order it sent them. The caller joins them (docs/api.md, Errors: one
// `error`; see core/domain/errors.ts).

export const validationPreferences: Joi.ValidationOptions = {
    abortEarly: false,
    errors: { wrap: { label: false } }
};

// `listed`: the keys reported in the contract's order; any other key failing is one the
// input should not carry.
export const failuresOf = (error: Joi.ValidationError | undefined, listed: readonly string[], input: unknown): string[] => {

    if (!error) {
        return [];
    }

    const sent = input !== null && typeof input === 'object' ? Object.keys(input) : [];
    const rank = (detail: Joi.ValidationErrorItem): number => {

        const key = detail.path[0];
        if (key === undefined) {
            return listed.length;
        }

        const place = listed.indexOf(String(key));
        return place >= 0 ? place : listed.length + 1 + sent.indexOf(String(key));
    };

    const seen = new Set<string>();
    const ranked: { rank: number; message: string }[] = [];
    for (const detail of error.details) {
        const key = detail.path.length ? String(detail.path[0]) : null;
        if (key !== null && seen.has(key)) {
            continue;
        }

        if (key !== null) {
            seen.add(key);
        }

        ranked.push({ rank: rank(detail), message: detail.message });
    }

    // Array.prototype.sort is stable: equal ranks keep joi's order. A message said for two
    // keys (the CUIT and 'tipo' cannot be modified) is said once.
    return [...new Set(ranked.sort((a, b) => a.rank - b.rank).map((item) => item.message))];
};

// The same refusals by the key they concern, its first message each (a form shows them beside
// its fields); what concerns the input as a whole has no key and is left to the joined message.
export const failuresByKey = (error: Joi.ValidationError | undefined): Record<string, string> => {

    const byKey: Record<string, string> = {};
    for (const detail of error?.details ?? []) {
        const key = detail.path.length ? String(detail.path[0]) : null;
        if (key !== null && !Object.hasOwn(byKey, key)) {
            byKey[key] = detail.message;
        }
    }

    return byKey;
};
