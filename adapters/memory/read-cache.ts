import { LRUCache } from 'lru-cache';
import type { ReadCache } from '../../core/ports/read-cache.js';

// The read cache of one process: least recently used answers are dropped first once their
// estimated size passes the budget. lru-cache does the bookkeeping (size-bounded LRU, no
// timers); an answer's size is estimated from the JSON it stands for, in the same walk that
// freezes it.
//
// An answer is kept from the second time it is asked for: most are asked for once and never
// again (an integrator pages through distinct URLs after each sync), and keeping those would
// only cost the walk, their JSON kept beside them, and the collector's time moving them into
// the old generation, while pushing out answers that are asked for again. Only the keys
// asked for are remembered, in a bounded list of their own.

interface Entry {
    version: number;
    value: unknown;
    size: number;
}

const internals = {
    // A parsed JSON value takes several times its text in V8's heap, and the HTTP layer keeps
    // the text too (servers/http/errors.ts).
    bytesPerJsonChar: 4,

    // Freezes the value, nested objects included, and returns how many characters its JSON
    // takes (escapes inside strings aside).
    freezeAndMeasure(value: unknown): number {

        if (typeof value === 'string') {
            return value.length + 2;
        }

        if (value === null || typeof value !== 'object') {
            return String(value).length;
        }

        Object.freeze(value);
        // The brackets, and one comma fewer than the members.
        let chars = 1;
        if (Array.isArray(value)) {
            for (const inner of value) {
                chars += internals.freezeAndMeasure(inner) + 1;
            }

            return Math.max(2, chars);
        }

        for (const key in value) {
            chars += key.length + 4 + internals.freezeAndMeasure((value as Record<string, unknown>)[key]);
        }

        return Math.max(2, chars);
    },

    // Keys asked for and not kept, with how many times; the oldest are forgotten first.
    maxAskedKeys: 50_000,

    disabled: {
        get: () => undefined,
        set: <T>(_key: string, _version: number, value: T): T => value
    } satisfies ReadCache
};

export const memoryReadCache = (options: { maxBytes: number }): ReadCache => {

    if (options.maxBytes <= 0) {
        return internals.disabled;
    }

    const entries = new LRUCache<string, Entry>({
        maxSize: options.maxBytes,
        // One answer alone may not take more than a tenth of the budget.
        maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 10)),
        sizeCalculation: (entry) => Math.max(1, entry.size * internals.bytesPerJsonChar)
    });

    // Bounded by a size of one per key, not by `max`: with a max, LRUCache allocates all its
    // slots when it is made, some milliseconds for each app composed, each CLI command included.
    const asked = new LRUCache<string, number>({ maxSize: internals.maxAskedKeys, sizeCalculation: () => 1 });

    return {
        get<T>(key: string, version: number): T | undefined {

            const entry = entries.get(key);
            if (entry?.version === version) {
                return entry.value as T;
            }

            asked.set(key, (asked.get(key) ?? 0) + 1);
            return undefined;
        },

        set<T>(key: string, version: number, value: T): T {

            const kept = entries.get(key);
            if (!kept && (asked.get(key) ?? 0) < 2) {
                return value;
            }

            // A slower request that read an older version must not replace a newer answer.
            if (!kept || kept.version < version) {
                entries.set(key, { version, value, size: internals.freezeAndMeasure(value) });
                asked.delete(key);
            }

            return value;
        }
    };
};
