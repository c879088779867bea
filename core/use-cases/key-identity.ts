import { randomBytes } from 'node:crypto';
import type { Cuit } from '../domain/cuit.js';
import { unavailable } from '../domain/errors.js';
import { keyIdentity } from '../domain/key-identity.js';
import { messages } from '../domain/messages.js';
import type { KeyIdentity } from '../ports/key-identity.js';
import type { Ports } from '../ports/index.js';

// The secret behind every key's identity lives with the installation's other shared secrets,
// sealed by the secret box (`secret rotate` re-seals it; it never changes, or every stored
// key would look new). Created on first use; two processes creating it at once agree on the
// first one stored. One sealed under a key this process does not hold (a rotation gone wrong)
// is never replaced: every request that needs it is refused as unavailable (503), with what to
// do for the operator, and `serve` and the workers refuse to start (checkKeyIdentity).

type Deps = Pick<Ports, 'oauthStore' | 'secretBox'>;

const internals = {
    id: 'arca-key-identity',

    async secret(deps: Deps): Promise<Buffer> {

        const existing = await deps.oauthStore.sealedServerSecret(internals.id);
        if (existing === null) {
            await deps.oauthStore.addSealedServerSecret(internals.id, deps.secretBox.seal(JSON.stringify(randomBytes(32).toString('base64'))));
        }

        const sealed = (existing ?? await deps.oauthStore.sealedServerSecret(internals.id))!;
        return Buffer.from(JSON.parse(internals.open(deps, sealed)) as string, 'base64');
    },

    open(deps: Deps, sealed: string): string {

        try {
            return deps.secretBox.open(sealed);
        }
        catch {
            throw unavailable(messages.clientWrite.keyIdentityUnavailable, messages.clientWrite.keyIdentityUnreadable(deps.secretBox.keyIdOf(sealed) ?? '?'));
        }
    }
};

// Before `serve` or a worker starts: the stored secret must open with the keyring (none stored
// yet is fine: the first key stored creates it). Throws the operator's note.
export const checkKeyIdentity = async (deps: Deps): Promise<void> => {

    const sealed = await deps.oauthStore.sealedServerSecret(internals.id);
    try {
        if (sealed !== null) {
            internals.open(deps, sealed);
        }
    }
    catch (err) {
        throw new Error((err as { operatorNote: string }).operatorNote);
    }
};

export const createKeyIdentity = (deps: Deps): KeyIdentity => {

    let secret: Promise<Buffer> | null = null;
    const ready = (): Promise<Buffer> => {

        secret ??= internals.secret(deps).catch((err: unknown) => {

            secret = null;
            throw err;
        });
        return secret;
    };
    return {
        async ready() {

            await ready();
        },

        async of(loginCuit: Cuit, plaintext: string) {

            return keyIdentity(await ready(), loginCuit, plaintext);
        }
    };
};

// Keys stored before identities were kept (migration 014) get theirs, when a process that can
// open them starts; a key that cannot be opened keeps none (the sync refuses it anyway).
export const digestStoredKeys = async (deps: Pick<Ports, 'clients' | 'secretBox' | 'keyIdentity'>): Promise<number> => {

    let afterId = 0;
    let digested = 0;
    for (;;) {
        const rows = await deps.clients.listUndigestedKeys(afterId, 500);
        if (!rows.length) {
            return digested;
        }

        for (const row of rows) {
            afterId = row.id;
            let plaintext: string;
            try {
                plaintext = deps.secretBox.open(row.sealedKey);
            }
            catch {
                continue;
            }

            digested += await deps.clients.setKeyDigest(row.id, row.sealedKey, await deps.keyIdentity.of(row.cuit, plaintext)) ? 1 : 0;
        }
    }
};
