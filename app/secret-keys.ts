import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Keyring } from '../adapters/crypto/secret-box.js';
import { aesGcmSecretBox, generateKey, keyIdOf, missingSecretBox, parseKey, parseKeys } from '../adapters/crypto/secret-box.js';
import { messages } from '../core/domain/messages.js';
import type { SecretBox } from '../core/ports/secret-box.js';
import type { Config } from './config.js';
import { operatorMessages } from './messages.js';

// Where the key of the stored credentials comes from (docs/operations.md):
// - ARCASYNC_SECRET_KEY (base64, 32 bytes) seals; ARCASYNC_SECRET_KEYS lists previous keys
//   that still open what they sealed, so keys rotate without downtime.
// - On the embedded default database and without those variables, ./data/secret.key holds
//   the keyring (one base64 key per line, the current one first), generated once, mode 0600.
// - Otherwise the key is required, and the first use of the box says so.

const internals = {

    isMissing: (err: unknown): boolean => (err as { code?: unknown }).code === 'ENOENT',

    // What changes when the key file is replaced (writeKeyFile renames a new file over it).
    stamp(path: string): string {

        try {
            const stat = statSync(path);
            return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
        }
        catch {
            return '';
        }
    },

    serialize: (keyring: Keyring): string => `${[keyring.current, ...keyring.previous].map((key) => key.toString('base64')).join('\n')}\n`
};

const keyFilePath = (config: Pick<Config, 'dataDir'>): string => join(config.dataDir, 'secret.key');

export const readKeyFile = (path: string): Keyring | null => {

    let text: string;
    try {
        text = readFileSync(path, 'utf8');
    }
    catch (err) {
        if (internals.isMissing(err)) {
            return null;
        }

        throw err;
    }

    const [current, ...previous] = parseKeys(text, path);
    if (!current) {
        throw new Error(messages.clientWrite.secretKeyInvalid(path));
    }

    return { current, previous };
};

// Replaces the key file in one step (a reader sees the old file or the new one, never half).
export const writeKeyFile = (path: string, keyring: Keyring): void => {

    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, internals.serialize(keyring), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
};

// The file's keyring, created with a fresh key if there is none; two processes starting at
// once agree on one key (exclusive create).
export const ensureKeyFile = (path: string): Keyring => {

    const existing = readKeyFile(path);
    if (existing) {
        return existing;
    }

    mkdirSync(dirname(path), { recursive: true });
    const keyring = { current: generateKey(), previous: [] };
    try {
        writeFileSync(path, internals.serialize(keyring), { mode: 0o600, flag: 'wx' });
        return keyring;
    }
    catch (err) {
        if ((err as { code?: unknown }).code === 'EEXIST') {
            return readKeyFile(path)!;
        }

        throw err;
    }
};

export type KeyringSource =
    | { kind: 'env'; keyring: Keyring }
    | { kind: 'file'; path: string; keyring: Keyring }
    | { kind: 'missing' };

export const loadKeyring = (config: Pick<Config, 'secretKey' | 'previousSecretKeys' | 'embedded' | 'dataDir'>): KeyringSource => {

    if (config.secretKey) {
        return {
            kind: 'env',
            keyring: {
                current: parseKey(config.secretKey, 'ARCASYNC_SECRET_KEY'),
                previous: parseKeys(config.previousSecretKeys ?? '', 'ARCASYNC_SECRET_KEYS')
            }
        };
    }

    if (config.embedded) {
        const path = keyFilePath(config);
        return { kind: 'file', path, keyring: ensureKeyFile(path) };
    }

    return { kind: 'missing' };
};

export const secretBoxFor = (source: KeyringSource): SecretBox => {

    if (source.kind === 'missing') {
        return missingSecretBox(operatorMessages.secretKeyMissing);
    }

    if (source.kind === 'file') {
        // `secret rotate` in another process rewrites the file: a value under a key not yet
        // known rereads it, and so does a seal once the file changed (one stat per seal; seals
        // are rare: a client created or its key changed).
        const { path } = source;
        let seen = internals.stamp(path);
        const reload = () => readKeyFile(path) ?? source.keyring;
        return aesGcmSecretBox(source.keyring, {
            reload,
            changed: () => {

                const stamp = internals.stamp(path);
                if (stamp === seen) {
                    return null;
                }

                seen = stamp;
                return reload();
            }
        });
    }

    return aesGcmSecretBox(source.keyring);
};

// `arcasync secret rotate`: the keyring that re-seals everything. The new key is
// ARCASYNC_NEW_SECRET_KEY when given; otherwise, on the key file, a fresh one (written to the
// file, the old keys kept after it so every process can still open what they sealed), and
// with ARCASYNC_SECRET_KEY the current key (finishing a rotation already deployed: current =
// new key, ARCASYNC_SECRET_KEYS = the old ones).
export interface RotationPlan {
    keyring: Keyring;
    source: 'env' | 'file';
    path: string | null;
    generated: boolean;
    previousKeyIds: string[];
}

export const planRotation = (
    config: Pick<Config, 'secretKey' | 'previousSecretKeys' | 'embedded' | 'dataDir'>,
    newKeyText: string | undefined
): RotationPlan => {

    const source = loadKeyring(config);
    if (source.kind === 'missing') {
        throw new Error(operatorMessages.secretKeyMissing);
    }

    const given = newKeyText ? parseKey(newKeyText, 'ARCASYNC_NEW_SECRET_KEY') : null;
    const generated = !given && source.kind === 'file';
    const target = given ?? (generated ? generateKey() : source.keyring.current);
    const previous = new Map<string, Buffer>();
    for (const key of [source.keyring.current, ...source.keyring.previous]) {
        if (keyIdOf(key) !== keyIdOf(target)) {
            previous.set(keyIdOf(key), key);
        }
    }

    return {
        keyring: { current: target, previous: [...previous.values()] },
        source: source.kind,
        path: source.kind === 'file' ? source.path : null,
        generated,
        previousKeyIds: [...previous.keys()]
    };
};

// Long-running processes check at start what a first seal or open would find out late: off
// the embedded default there is no key unless the operator gives one.
export const assertSecretKeyConfigured = (config: Pick<Config, 'secretKey' | 'embedded'>): void => {

    if (!config.embedded && !config.secretKey) {
        throw new Error(operatorMessages.secretKeyMissing);
    }
};
