import { createHmac, timingSafeEqual } from 'node:crypto';

// A clave fiscal's identity (docs/architecture.md, Keys, sessions and the ledger): a keyed hash
// (HMAC-SHA256) of the login CUIT and the plaintext, under a secret of the installation that
// `secret rotate` re-seals but never changes. The same plaintext stored twice, or by two
// accounts, is one identity; a changed key is another. Never the sealed form's digest: sealing
// is randomized, so the same wrong password stored again would look new.

export const keyIdentity = (secret: Buffer, loginCuit: string, plaintext: string): string => createHmac('sha256', secret)
    .update(loginCuit)
    .update('\u0000')
    .update(plaintext, 'utf8')
    .digest('hex');

// Two identities compared in constant time.
export const sameKey = (a: string | null, b: string | null): boolean => {

    if (a === null || b === null || a.length !== b.length) {
        return false;
    }

    return timingSafeEqual(Buffer.from(a), Buffer.from(b));
};
