import type { Ports, SealedKeyRow } from '../ports/index.js';

// How many stored credentials, webhook signing secrets and OAuth server keys each key sealed,
// so an operator knows when a previous key can leave the keyring (nothing left under it).
export interface SealedKeyCount {
    keyId: string | null;              // null: a stored value that is not a sealed value
    count: number;
    current: boolean;
}

const internals = {
    async count<Id extends number | string>(
        deps: Pick<Ports, 'secretBox'>,
        start: Id,
        list: (afterId: Id, limit: number) => Promise<SealedKeyRow<Id>[]>
    ): Promise<SealedKeyCount[]> {

        const counts = new Map<string | null, number>();
        let afterId = start;
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

export const countSealedKeys = async (deps: Pick<Ports, 'clients' | 'secretBox' | 'webhooks' | 'oauthStore'>): Promise<{
    keyId: string;
    keys: SealedKeyCount[];
    webhookSecrets: SealedKeyCount[];
    oauthSecrets: SealedKeyCount[];
}> => ({
    keyId: deps.secretBox.keyId,
    keys: await internals.count<number>(deps, 0, (afterId, limit) => deps.clients.listSealedKeys(afterId, limit)),
    webhookSecrets: await internals.count<number>(deps, 0, (afterId, limit) => deps.webhooks.listSealedSecrets(afterId, limit)),
    oauthSecrets: await internals.count<string>(deps, '', (afterId, limit) => deps.oauthStore.listSealedServerSecrets(afterId, limit))
});
