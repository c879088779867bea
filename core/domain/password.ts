import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

// Passwords of people (OAuth sign-in) use scrypt, Node's built-in memory-hard hash. The
// stored form carries its parameters so they can be raised later.

const internals = {
    scrypt: promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: {
        N: number;
        r: number;
        p: number;
        maxmem: number;
    }) => Promise<Buffer>,
    params: { N: 2 ** 15, r: 8, p: 1 },
    keylen: 32
};

export const minPasswordLength = 10;

export const hashPassword = async (password: string): Promise<string> => {

    const salt = randomBytes(16);
    const { N, r, p } = internals.params;
    const key = await internals.scrypt(password, salt, internals.keylen, { N, r, p, maxmem: 128 * N * r * 2 });
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {

    const [scheme, n, r, p, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) {
        return false;
    }

    const expected = Buffer.from(key, 'base64');
    const N = Number(n);
    const actual = await internals.scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
        N,
        r: Number(r),
        p: Number(p),
        maxmem: 128 * N * Number(r) * 2
    });
    return timingSafeEqual(actual, expected);
};

// The hash of a random password nobody knows, with the current parameters: checked against
// when the email is unknown or has no password, so every failed sign-in spends the same work
// and the time of the answer does not tell which emails exist.
export const unknownPasswordHash = 'scrypt$32768$8$1$rbw1/vp9pAZUowfF6+yp+g==$/q1GspR10pp5xFtV6B1JzJNfLjwv1aIpDtFEX5abnGM=';
