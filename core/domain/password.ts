import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

// Passwords of people (OAuth sign-in) use scrypt, Node's built-in memory-hard hash. The
// stored form carries its parameters so they can be raised later.

const internals = {
    scrypt: promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>,
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
    const actual = await internals.scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N, r: Number(r), p: Number(p), maxmem: 128 * N * Number(r) * 2 });
    return timingSafeEqual(actual, expected);
};
