import type { Ports, SealedKeyRow } from '../ports/index.js';

// How many stored credentials and webhook signing secrets each key sealed, so an operator
// knows when a previous key can leave the keyring (nothing left under it).
export interface SealedKeyCount {
    keyId: string | null;              // null: a stored value that is not a sealed value
    count: number;
    current: boolean;
}

const internals = {
    async count(deps: Pick<Ports, 'secretBox'>, list: (afterId: number, limit: number) => Promise<SealedKeyRow[]>): Promise<SealedKeyCount[]> {

        const counts = new Map<string | null, number>();
        let afterId = 0;
        for (;;) {
            const rows = await list(afterId, 1000);
            if (!rows.length) {
                break;
            }

            for (const row of rows) {
                afterId = row.id;
                const keyId = deps.secretBox.keyIdOf(row.sealedKey);
                counts.set(keyId, (counts.get(keyId) ?? 0) + 1);
            }
        }

        return [...counts].map(([id, count]) => ({ keyId: id, count, current: id === deps.secretBox.keyId })).sort((a, b) => b.count - a.count);
    }
};

export const countSealedKeys = async (deps: Pick<Ports, 'clients' | 'secretBox' | 'webhooks'>): Promise<{
    keyId: string;
    keys: SealedKeyCount[];
    webhookSecrets: SealedKeyCount[];
}> => ({
    keyId: deps.secretBox.keyId,
    keys: await internals.count(deps, (afterId, limit) => deps.clients.listSealedKeys(afterId, limit)),
    webhookSecrets: await internals.count(deps, (afterId, limit) => deps.webhooks.listSealedSecrets(afterId, limit))
});
