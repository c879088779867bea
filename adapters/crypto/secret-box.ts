import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { messages } from '../../core/domain/messages.js';
import type { SecretBox } from '../../core/ports/secret-box.js';

// AES-256-GCM with a random 96-bit nonce per value. The sealed text is
//   v1.<keyId>.<nonce>.<ciphertext>.<tag>      (base64url parts)
// where keyId is the first 8 hex digits of sha256(key); the header "v1.<keyId>" is bound as
// additional data, so neither the ciphertext nor the key id can be altered unnoticed.

export interface Keyring {
    current: Buffer;
    previous: Buffer[];
}

const internals = {
    version: 'v1',
    nonceBytes: 12,
    keyBytes: 32,
    pattern: /^v1\.([0-9a-f]{8})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22})$/,

    index(keyring: Keyring): Map<string, Buffer> {

        const keys = new Map<string, Buffer>();
        for (const key of [keyring.current, ...keyring.previous]) {
            keys.set(keyIdOf(key), key);
        }

        return keys;
    }
};

export const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

export const generateKey = (): Buffer => randomBytes(internals.keyBytes);

// A base64 key of exactly 32 bytes; `name` is the variable or file it came from.
export const parseKey = (text: string, name: string): Buffer => {

    const trimmed = text.trim();
    const key = Buffer.from(trimmed, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== internals.keyBytes) {
        throw new Error(messages.clientWrite.secretKeyInvalid(name));
    }

    return key;
};

// Several keys separated by commas, spaces or new lines (previous keys of a keyring).
export const parseKeys = (text: string, name: string): Buffer[] => text.split(/[\s,]+/).filter(Boolean).map((part) => parseKey(part, name));

// `reload` is asked for a fresh keyring when a value names a key this one does not hold
// (another process rotated the key file meanwhile); `changed`, before each seal, for the
// keyring when its source changed since it was read (null otherwise), so that a running
// process seals with the key a rotation made current, not with the one it started with.
export const aesGcmSecretBox = (initial: Keyring, options: { reload?: () => Keyring; changed?: () => Keyring | null } = {}): SecretBox => {

    let keyring = initial;
    let keys = internals.index(keyring);
    let currentId = keyIdOf(keyring.current);

    const use = (next: Keyring) => {

        keyring = next;
        keys = internals.index(keyring);
        currentId = keyIdOf(keyring.current);
    };

    const refresh = () => {

        const next = options.changed?.();
        if (next) {
            use(next);
        }
    };

    const keyFor = (keyId: string): Buffer => {

        let key = keys.get(keyId);
        if (!key && options.reload) {
            use(options.reload());
            key = keys.get(keyId);
        }

        if (!key) {
            throw new Error(messages.clientWrite.secretKeyUnknown(keyId));
        }

        return key;
    };

    return {
        get keyId() {

            refresh();
            return currentId;
        },

        seal(plaintext) {

            refresh();
            const header = `${internals.version}.${currentId}`;
            const nonce = randomBytes(internals.nonceBytes);
            const cipher = createCipheriv('aes-256-gcm', keyring.current, nonce);
            cipher.setAAD(Buffer.from(header));
            const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
            return [header, nonce.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
        },

        open(sealed) {

            const match = internals.pattern.exec(sealed);
            if (!match) {
                throw new Error(messages.clientWrite.secretCorrupt);
            }

            const [, keyId, nonce, ciphertext, tag] = match as unknown as [string, string, string, string, string];
            const decipher = createDecipheriv('aes-256-gcm', keyFor(keyId), Buffer.from(nonce, 'base64url'));
            decipher.setAAD(Buffer.from(`${internals.version}.${keyId}`));
            decipher.setAuthTag(Buffer.from(tag, 'base64url'));
            try {
                return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
            }
            catch {
                throw new Error(messages.clientWrite.secretCorrupt);
            }
        },

        keyIdOf(sealed) {

            return internals.pattern.exec(sealed)?.[1] ?? null;
        }
    };
};

// Stands in when no key is configured: nothing can be sealed or opened, and the first attempt
// says why (the service still starts, so commands that never touch credentials keep working).
export const missingSecretBox = (message: string): SecretBox => {

    const fail = (): never => {

        throw new Error(message);
    };

    return {
        get keyId() {

            return fail();
        },
        seal: fail,
        open: fail,
        keyIdOf: () => null
    };
};
