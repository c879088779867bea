import type { ReadCache } from '../ports/read-cache.js';

// A read answered from the cache while the data version it was read at is still current
// (see ports/read-cache.ts). The version must be read before the data, so a kept answer is
// never older than its version.
export const cachedRead = async <T>(cache: ReadCache, key: string, version: number, read: () => Promise<T>): Promise<T> => {

    const kept = cache.get<T>(key, version);
    return kept !== undefined ? kept : cache.set(key, version, await read());
};
