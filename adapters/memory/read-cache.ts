import { LRUCache } from 'lru-cache';
import type { ReadCache } from '../../core/ports/read-cache.js';

// The read cache of one process: least recently used answers are dropped first once their
// estimated size passes the budget. lru-cache does the bookkeeping (size-bounded LRU, no
// timers); an answer's size is estimated from its JSON, since that is what it stands for.

interface Entry {
    version: number;
    value: unknown;
}

const internals = {
    // A parsed JSON value takes several times its text in V8's heap, and the HTTP layer keeps
    // the text too (servers/http/errors.ts).
    bytesPerJsonChar: 4,

    freeze(value: unknown): void {

        if (value === null || typeof value !== 'object' || Object.isFrozen(value)) {
            return;
        }

        Object.freeze(value);
        for (const inner of Object.values(value)) {
            internals.freeze(inner);
        }
    },

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
        sizeCalculation: (entry) => Math.max(1, (JSON.stringify(entry.value)?.length ?? 0) * internals.bytesPerJsonChar)
    });

    return {
        get<T>(key: string, version: number): T | undefined {

            const entry = entries.get(key);
            return entry?.version === version ? entry.value as T : undefined;
        },

        set<T>(key: string, version: number, value: T): T {

            internals.freeze(value);
            const kept = entries.get(key);
            // A slower request that read an older version must not replace a newer answer.
            if (!kept || kept.version < version) {
                entries.set(key, { version, value });
            }

            return value;
        }
    };
};
