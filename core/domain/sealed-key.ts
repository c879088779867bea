import { createHash } from 'node:crypto';

// A refused key is not tried again until it changes: it is remembered by a digest of its
// sealed form, which changes whenever a new key is stored (the sync and the repository that
// replaces a key agree on it here).
export const keyFingerprint = (sealedKey: string): string => createHash('sha256').update(sealedKey).digest('hex');
