import type { Ports, SealedKeyRow } from '../ports/index.js';

// Key rotation: every stored credential (clave_arca) and every webhook signing secret not
// sealed with the box's current key is opened (with whichever keyring key sealed it) and sealed
// again with the current one, in the same run. Servers keep running meanwhile: each value is
// replaced only if it is still the one read (an edit or a `webhook rotate-secret` that came in
// between wins and is looked at again), and nothing is ever decrypted to the output. A run
// stopped halfway leaves each value whole, under the old key or the new one, and the keyring
// still opens both: running it again finishes (README: Rotating the secret key).

export interface ResealCounts {
    total: number;
    resealed: number;
    alreadyCurrent: number;
    unreadable: number;                // altered, or sealed with a key not in the keyring
}

export interface ResealReport extends ResealCounts {
    keyId: string;                     // the key every readable value is now sealed with
    unreadableClientIds: number[];
    // The webhook endpoints' signing secrets: the receivers keep verifying with the same secret.
    webhookSecrets: ResealCounts & { unreadableEndpointIds: number[] };
}

// Where sealed values are kept: read in id order, replaced by compare-and-set.
interface SealedStore {
    list(afterId: number, limit: number): Promise<SealedKeyRow[]>;
    replace(id: number, expected: string, next: string): Promise<boolean>;
}

type ResealDeps = Pick<Ports, 'clients' | 'secretBox'> & Partial<Pick<Ports, 'webhooks'>>;

const internals = {
    batchSize: 500,
    retries: 3,

    async reseal(deps: ResealDeps, store: SealedStore, row: SealedKeyRow, keyId: string, counts: ResealCounts, unreadable: number[]): Promise<void> {

        let sealed: string | null = row.sealedKey;
        for (let attempt = 0; sealed !== null && attempt <= internals.retries; attempt++) {
            if (deps.secretBox.keyIdOf(sealed) === keyId) {
                counts.alreadyCurrent++;
                return;
            }

            let plaintext: string;
            try {
                plaintext = deps.secretBox.open(sealed);
            }
            catch {
                counts.unreadable++;
                unreadable.push(row.id);
                return;
            }

            if (await store.replace(row.id, sealed, deps.secretBox.seal(plaintext))) {
                counts.resealed++;
                return;
            }

            // Changed (or deleted) meanwhile: look at the value now stored.
            const [fresh] = await store.list(row.id - 1, 1);
            sealed = fresh?.id === row.id ? fresh.sealedKey : null;
        }
    },

    async resealAll(deps: ResealDeps, store: SealedStore, keyId: string, counts: ResealCounts, unreadable: number[], batchSize: number): Promise<void> {

        let afterId = 0;
        for (;;) {
            const rows = await store.list(afterId, batchSize);
            if (!rows.length) {
                return;
            }

            for (const row of rows) {
                afterId = row.id;
                counts.total++;
                await internals.reseal(deps, store, row, keyId, counts, unreadable);
            }
        }
    }
};

export const resealStoredKeys = async (deps: ResealDeps, options: { batchSize?: number } = {}): Promise<ResealReport> => {

    const keyId = deps.secretBox.keyId;
    const batchSize = options.batchSize ?? internals.batchSize;
    const report: ResealReport = {
        keyId,
        total: 0,
        resealed: 0,
        alreadyCurrent: 0,
        unreadable: 0,
        unreadableClientIds: [],
        webhookSecrets: { total: 0, resealed: 0, alreadyCurrent: 0, unreadable: 0, unreadableEndpointIds: [] }
    };
    const clients: SealedStore = {
        list: (afterId, limit) => deps.clients.listSealedKeys(afterId, limit),
        replace: (id, expected, next) => deps.clients.replaceSealedKey(id, expected, next)
    };
    await internals.resealAll(deps, clients, keyId, report, report.unreadableClientIds, batchSize);
    const webhooks = deps.webhooks;
    if (webhooks) {
        const secrets: SealedStore = {
            list: (afterId, limit) => webhooks.listSealedSecrets(afterId, limit),
            replace: (id, expected, next) => webhooks.replaceSealedSecret(id, expected, next)
        };
        await internals.resealAll(deps, secrets, keyId, report.webhookSecrets, report.webhookSecrets.unreadableEndpointIds, batchSize);
    }

    return report;
};
