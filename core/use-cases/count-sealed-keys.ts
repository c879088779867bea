import type { Ports } from '../ports/index.js';

// How many stored credentials each key sealed, so an operator knows when a previous key can
// leave the keyring (none left under it).
export interface SealedKeyCount {
    keyId: string | null;              // null: a stored value that is not a sealed value
    count: number;
    current: boolean;
}

export const countSealedKeys = async (deps: Pick<Ports, 'clients' | 'secretBox'>): Promise<{ keyId: string; keys: SealedKeyCount[] }> => {

    const counts = new Map<string | null, number>();
    let afterId = 0;
    for (;;) {
        const rows = await deps.clients.listSealedKeys(afterId, 1000);
        if (!rows.length) {
            break;
        }

        for (const row of rows) {
            afterId = row.id;
            const keyId = deps.secretBox.keyIdOf(row.sealedKey);
            counts.set(keyId, (counts.get(keyId) ?? 0) + 1);
        }
    }

    const keyId = deps.secretBox.keyId;
    const keys = [...counts].map(([id, count]) => ({ keyId: id, count, current: id === keyId })).sort((a, b) => b.count - a.count);
    return { keyId, keys };
};
