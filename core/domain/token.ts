import { createHash, randomBytes } from 'node:crypto';

// API tokens: 32 random bytes behind a recognisable prefix, shown once and stored only as a
// SHA-256 digest (a slow hash adds nothing for 256-bit random secrets and would cost every
// request).

export const tokenPrefix = 'asy_';

export const generateToken = (): string => tokenPrefix + randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

// Enough to recognise a token in a list without revealing it.
export const tokenHint = (token: string): string => token.slice(0, tokenPrefix.length + 4);
