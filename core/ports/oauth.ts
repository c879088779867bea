import type { Timestamp } from '../domain/time.js';
import type { SealedKeyRow } from './repositories.js';

// What the OAuth 2.1 authorization server of the MCP endpoint keeps: registered clients,
// grants, authorization codes, access and refresh tokens, sessions and interactions, each an
// opaque payload of the authorization server, stored by kind and id so every server process
// shares them.

export interface OAuthEntry {
    payload: Record<string, unknown>;
    consumedAt: Timestamp | null;
}

interface OAuthEntryIndex {
    grantId?: string | undefined;
    userCode?: string | undefined;
    uid?: string | undefined;
    // The user it was issued to (grants, codes, tokens, sessions).
    accountId?: string | undefined;
}

export interface OAuthStore {
    upsert(kind: string, id: string, payload: Record<string, unknown>, expiresAt: Timestamp | null, index: OAuthEntryIndex): Promise<void>;
    // null when absent or past its expiry.
    find(kind: string, id: string, now: Timestamp): Promise<OAuthEntry | null>;
    findByUid(kind: string, uid: string, now: Timestamp): Promise<OAuthEntry | null>;
    findByUserCode(kind: string, userCode: string, now: Timestamp): Promise<OAuthEntry | null>;
    consume(kind: string, id: string, at: Timestamp): Promise<void>;
    destroy(kind: string, id: string): Promise<void>;
    // Everything issued under a grant (codes, access and refresh tokens), at once.
    revokeByGrantId(grantId: string): Promise<void>;
    // The live entries of a kind issued to a user (their grants), each with its stored id.
    listByAccount(kind: string, accountId: string, now: Timestamp): Promise<(OAuthEntry & { id: string })[]>;
    // Everything issued to a user (grants, codes, tokens, sessions); how many entries went.
    revokeAccount(accountId: string): Promise<number>;
    // How many live entries of a kind there are (registered clients, to cap them).
    count(kind: string, now: Timestamp): Promise<number>;
    // The entry no longer expires.
    keep(kind: string, id: string): Promise<void>;
    // Deletes the live entry of a kind that expires soonest; false when every live one is kept.
    dropSoonestExpiring(kind: string, now: Timestamp): Promise<boolean>;

    // The authorization server's own keys (cookie keys, the token signing key set, the consent
    // form's CSRF key: servers/oauth/provider.ts), shared by every server process and stored
    // sealed with the secret box, each under a name ('cookies', 'jwk', 'csrf').
    // The sealed value of one; null when it was never created.
    sealedServerSecret(id: string): Promise<string | null>;
    // Stores a new one unless one is stored already (then that one stays: read it back).
    addSealedServerSecret(id: string, sealed: string): Promise<void>;
    // In name order after `afterId`, for re-sealing under a new key and counting per key.
    listSealedServerSecrets(afterId: string, limit: number): Promise<SealedKeyRow<string>[]>;
    // Compare-and-set: false when the stored value changed (or went) meanwhile.
    replaceSealedServerSecret(id: string, expected: string, next: string): Promise<boolean>;
}

// The password people sign in with on the authorization page (never shown, only its hash).
export interface UserCredentialRepository {
    passwordHash(userId: number): Promise<string | null>;
    // 'address-taken': another user signs in with this user's address (two invitees of one
    // address accepting at once; one address is one sign-in).
    setPasswordHash(userId: number, hash: string): Promise<'set' | 'no-user' | 'address-taken'>;
}
