import type { Ports, SealedKeyRow } from '../ports/index.js';

// Key rotation: every stored credential not sealed with the box's current key is opened
// (with whichever keyring key sealed it) and sealed again with the current one. Servers keep
// running meanwhile: each value is replaced only if it is still the one read (an edit that
// came in between wins and is looked at again), and nothing is ever decrypted to the output.

export interface ResealReport {
    keyId: string;                     // the key every readable value is now sealed with
    total: number;
    resealed: number;
    alreadyCurrent: number;
    unreadable: number;                // altered, or sealed with a key not in the keyring
    unreadableClientIds: number[];
}

const internals = {
    batchSize: 500,
    retries: 3,

    async reseal(deps: Pick<Ports, 'clients' | 'secretBox'>, row: SealedKeyRow, report: ResealReport): Promise<void> {

        let sealed: string | null = row.sealedKey;
        for (let attempt = 0; sealed !== null && attempt <= internals.retries; attempt++) {
            if (deps.secretBox.keyIdOf(sealed) === report.keyId) {
                report.alreadyCurrent++;
                return;
            }

            let plaintext: string;
            try {
                plaintext = deps.secretBox.open(sealed);
            }
            catch {
                report.unreadable++;
                report.unreadableClientIds.push(row.id);
                return;
            }

            if (await deps.clients.replaceSealedKey(row.id, sealed, deps.secretBox.seal(plaintext))) {
                report.resealed++;
                return;
            }

            // Changed (or deleted) meanwhile: look at the value now stored.
            const [fresh] = await deps.clients.listSealedKeys(row.id - 1, 1);
            sealed = fresh?.id === row.id ? fresh.sealedKey : null;
        }
    }
};

export const resealStoredKeys = async (deps: Pick<Ports, 'clients' | 'secretBox'>, options: { batchSize?: number } = {}): Promise<ResealReport> => {

    const report: ResealReport = { keyId: deps.secretBox.keyId, total: 0, resealed: 0, alreadyCurrent: 0, unreadable: 0, unreadableClientIds: [] };
    let afterId = 0;
    for (;;) {
        const rows = await deps.clients.listSealedKeys(afterId, options.batchSize ?? internals.batchSize);
        if (!rows.length) {
            return report;
        }

        for (const row of rows) {
            afterId = row.id;
            report.total++;
            await internals.reseal(deps, row, report);
        }
    }
};
