import type { Ports, SealedKeyRow } from '../ports/index.js';

// Key rotation: every stored credential (clave_arca), every webhook signing secret and every
// key of the OAuth server (cookies, token signing, CSRF) not sealed with the box's current key
// is opened (with whichever keyring key sealed it) and sealed again with the current one, in
// the same run. Servers keep running meanwhile: each value is replaced only if it is still the
// one read (an edit or a `webhook rotate-secret` that came in between wins and is looked at
// again), and nothing is ever decrypted to the output. A run
// stopped halfway leaves each value whole, under the old key or the new one, and the keyring
// still opens both: running it again finishes (README: Rotating the secret key).

interface ResealCounts {
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
    // The OAuth server's own keys, by name: its cookies, tokens and sessions keep working.
    oauthSecrets: ResealCounts & { unreadableIds: string[] };
}

// Where sealed values are kept: read in id order after `start`, replaced by compare-and-set.
interface SealedStore<Id extends number | string> {
    start: Id;
    list(afterId: Id, limit: number): Promise<SealedKeyRow<Id>[]>;
    // The value stored now (null when it went).
    current(id: Id): Promise<string | null>;
    replace(id: Id, expected: string, next: string): Promise<boolean>;
}

type ResealDeps = Pick<Ports, 'clients' | 'secretBox'> & Partial<Pick<Ports, 'webhooks' | 'oauthStore'>>;

const internals = {
    batchSize: 500,
    retries: 3,

    // A store of numeric ids: the value stored now is its list after the id before.
    byNumber: (list: SealedStore<number>['list'], replace: SealedStore<number>['replace']): SealedStore<number> => ({
        start: 0,
        list,
        replace,
        async current(id) {

            const [fresh] = await list(id - 1, 1);
            return fresh?.id === id ? fresh.sealedKey : null;
        }
    }),

    async reseal<Id extends number | string>(
        deps: ResealDeps,
        store: SealedStore<Id>,
        row: SealedKeyRow<Id>,
        keyId: string,
        counts: ResealCounts,
        unreadable: Id[]
    ): Promise<void> {

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
            sealed = await store.current(row.id);
        }
    },

    async resealAll<Id extends number | string>(
        deps: ResealDeps,
        store: SealedStore<Id>,
        keyId: string,
        counts: ResealCounts,
        unreadable: Id[],
        batchSize: number
    ): Promise<void> {

        let afterId = store.start;
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
        webhookSecrets: { total: 0, resealed: 0, alreadyCurrent: 0, unreadable: 0, unreadableEndpointIds: [] },
        oauthSecrets: { total: 0, resealed: 0, alreadyCurrent: 0, unreadable: 0, unreadableIds: [] }
    };
    const clients = internals.byNumber(
        (afterId, limit) => deps.clients.listSealedKeys(afterId, limit),
        (id, expected, next) => deps.clients.replaceSealedKey(id, expected, next)
    );
    await internals.resealAll(deps, clients, keyId, report, report.unreadableClientIds, batchSize);
    const webhooks = deps.webhooks;
    if (webhooks) {
        const secrets = internals.byNumber(
            (afterId, limit) => webhooks.listSealedSecrets(afterId, limit),
            (id, expected, next) => webhooks.replaceSealedSecret(id, expected, next)
        );
        await internals.resealAll(deps, secrets, keyId, report.webhookSecrets, report.webhookSecrets.unreadableEndpointIds, batchSize);
    }

    const oauth = deps.oauthStore;
    if (oauth) {
        const secrets: SealedStore<string> = {
            start: '',
            list: (afterId, limit) => oauth.listSealedServerSecrets(afterId, limit),
            current: (id) => oauth.sealedServerSecret(id),
            replace: (id, expected, next) => oauth.replaceSealedServerSecret(id, expected, next)
        };
        await internals.resealAll(deps, secrets, keyId, report.oauthSecrets, report.oauthSecrets.unreadableIds, batchSize);
    }

    return report;
};
