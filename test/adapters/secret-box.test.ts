import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { aesGcmSecretBox, generateKey, keyIdOf, parseKey } from '../../adapters/crypto/secret-box.js';
import { loadConfig } from '../../app/config.js';
import { ensureKeyFile, loadKeyring, readKeyFile, secretBoxFor, writeKeyFile } from '../../app/secret-keys.js';

describe('SecretBox (AES-256-GCM)', () => {

    const key = generateKey();
    const box = aesGcmSecretBox({ current: key, previous: [] });

    it('seals and opens, with a fresh nonce each time and no plaintext in the sealed text', () => {

        const first = box.seal('mi-clave-secreta');
        const second = box.seal('mi-clave-secreta');
        expect(first).to.not.equal(second);
        expect(first).to.not.contain('mi-clave-secreta');
        expect(Buffer.from(first.split('.')[3]!, 'base64url').toString('utf8')).to.not.contain('mi-clave');
        expect(box.open(first)).to.equal('mi-clave-secreta');
        expect(box.open(second)).to.equal('mi-clave-secreta');
        expect(box.open(box.seal('ñandú €'))).to.equal('ñandú €');
    });

    it('names its key by the first 8 hex digits of sha256 of the key, beside the ciphertext', () => {

        const expected = createHash('sha256').update(key).digest('hex').slice(0, 8);
        expect(box.keyId).to.equal(expected);
        expect(keyIdOf(key)).to.equal(expected);
        const sealed = box.seal('x');
        expect(sealed.startsWith(`v1.${expected}.`)).to.equal(true);
        expect(box.keyIdOf(sealed)).to.equal(expected);
        expect(box.keyIdOf('texto plano')).to.equal(null);
    });

    it('detects tampering of the ciphertext, the tag, the nonce and the key id', () => {

        const sealed = box.seal('clave-original');
        const parts = sealed.split('.');
        const flip = (text: string): string => {

            const bytes = Buffer.from(text, 'base64url');
            bytes[0] = bytes[0]! ^ 1;
            return bytes.toString('base64url');
        };

        for (const index of [2, 3, 4]) {
            const altered = [...parts];
            altered[index] = flip(altered[index]!);
            expect(() => box.open(altered.join('.')), `part ${index}`).to.throw(/no se pudo descifrar/i);
        }

        // Another key id in the header: unknown key, never a silent open.
        const relabeled = [...parts];
        relabeled[1] = 'ffffffff';
        expect(() => box.open(relabeled.join('.'))).to.throw(/ffffffff/);
        expect(() => box.open('basura')).to.throw(/no se pudo descifrar/i);
    });

    it('refuses to open with a wrong key, and the error never shows the plaintext', () => {

        const sealed = box.seal('clave-de-otro');
        const other = aesGcmSecretBox({ current: generateKey(), previous: [] });
        expect(() => other.open(sealed)).to.throw(Error).that.satisfies((err: Error) => !err.message.includes('clave-de-otro'));

        // A different key forged under the same key id still fails authentication.
        const forged = aesGcmSecretBox({ current: generateKey(), previous: [] });
        const withId = sealed.replace(`.${box.keyId}.`, `.${forged.keyId}.`);
        expect(() => forged.open(withId)).to.throw(/no se pudo descifrar/i);
    });

    it('opens values of previous keys of the keyring and seals with the current one', () => {

        const next = generateKey();
        const rotated = aesGcmSecretBox({ current: next, previous: [key] });
        const old = box.seal('clave-vieja');
        expect(rotated.open(old)).to.equal('clave-vieja');
        expect(rotated.keyIdOf(rotated.seal('x'))).to.equal(keyIdOf(next));
        expect(() => box.open(rotated.seal('x'))).to.throw(new RegExp(keyIdOf(next)));
    });

    it('accepts only base64 keys of 32 bytes', () => {

        expect(parseKey(key.toString('base64'), 'X').equals(key)).to.equal(true);
        expect(() => parseKey(Buffer.alloc(16).toString('base64'), 'ARCASYNC_SECRET_KEY')).to.throw(/ARCASYNC_SECRET_KEY debe contener claves de 32 bytes/);
        expect(() => parseKey('no es base64!', 'ARCASYNC_SECRET_KEY')).to.throw(/32 bytes/);
    });
});

describe('Secret key configuration', () => {

    let dir: string;

    beforeEach(() => {

        dir = mkdtempSync(join(tmpdir(), 'arcasync-keys-'));
    });

    afterEach(() => {

        rmSync(dir, { recursive: true, force: true });
    });

    it('generates ./data/secret.key once, mode 0600, on the embedded default', () => {

        const config = { ...loadConfig({}), dataDir: dir };
        expect(config.embedded).to.equal(true);
        const first = loadKeyring(config);
        expect(first.kind).to.equal('file');
        const path = join(dir, 'secret.key');
        expect(statSync(path).mode & 0o777).to.equal(0o600);
        const second = loadKeyring(config);
        expect(second.kind === 'file' && first.kind === 'file' && second.keyring.current.equals(first.keyring.current)).to.equal(true);
    });

    it('requires ARCASYNC_SECRET_KEY on any other database, with a Spanish error on first use', () => {

        const config = { ...loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'x.sqlite')}` }), dataDir: dir };
        const source = loadKeyring(config);
        expect(source.kind).to.equal('missing');
        expect(() => secretBoxFor(source).seal('x')).to.throw(/Falta ARCASYNC_SECRET_KEY/);
        expect(readKeyFile(join(dir, 'secret.key'))).to.equal(null);
    });

    it('reads the current key and the previous ones from the environment', () => {

        const current = generateKey();
        const previous = generateKey();
        const old = aesGcmSecretBox({ current: previous, previous: [] }).seal('vieja');
        const config = loadConfig({ DATABASE_URL: 'mysql://root@127.0.0.1/x', ARCASYNC_SECRET_KEY: current.toString('base64'), ARCASYNC_SECRET_KEYS: `${generateKey().toString('base64')},${previous.toString('base64')}` });
        const box = secretBoxFor(loadKeyring(config));
        expect(box.keyId).to.equal(keyIdOf(current));
        expect(box.open(old)).to.equal('vieja');
        expect(() => loadKeyring({ ...config, secretKey: 'corta' })).to.throw(/ARCASYNC_SECRET_KEY/);
    });

    it('a box over the key file picks up a key rotated by another process', () => {

        const path = join(dir, 'secret.key');
        const first = ensureKeyFile(path);
        const box = secretBoxFor({ kind: 'file', path, keyring: first });
        const next = generateKey();
        writeKeyFile(path, { current: next, previous: [first.current] });
        expect(statSync(path).mode & 0o777).to.equal(0o600);
        const sealedElsewhere = aesGcmSecretBox({ current: next, previous: [] }).seal('rotada');
        expect(box.open(sealedElsewhere)).to.equal('rotada');
    });
});
