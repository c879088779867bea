import { createHash, randomBytes } from 'node:crypto';
import type { Timestamp } from './time.js';

// API tokens: 32 random bytes behind a recognisable prefix, shown once and stored only as a
// SHA-256 digest (a slow hash adds nothing for 256-bit random secrets and would cost every
// request).

export const tokenPrefix = 'asy_';

export const generateToken = (): string => tokenPrefix + randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

// Enough to recognise a token in a list without revealing it.
export const tokenHint = (token: string): string => token.slice(0, tokenPrefix.length + 4);

// "Last used" (the panel's token list, `token list`) is written at most once per token every
// 5 minutes: it answers "is this token still in use?", which a few minutes do not change, and
// it costs a busy integration (thousands of requests an hour on one token) one write each 5
// minutes instead of one per request. A reading from the future (another process's clock
// ahead) waits for it.
export const tokenUseInterval = 5 * 60_000;

export const tokenUseDue = (lastUsedAt: Timestamp | null, now: Timestamp): boolean => lastUsedAt === null || now - lastUsedAt >= tokenUseInterval;
