import type { Adapter, AdapterPayload } from 'oidc-provider';
import { credentialKinds, storedEntryId } from '../../core/domain/oauth-entry.js';
import { unauthorizedClientLifetimeMs } from '../../core/domain/throttle.js';
import type { OAuthStore } from '../../core/ports/index.js';

// oidc-provider's storage contract over the service's database (the OAuthStore port): every
// model (Client, Grant, AuthorizationCode, AccessToken, RefreshToken, Session, Interaction…)
// by name and id, expiring with the lifetime the authorization server gives it. Ids are
// stored as digests, and tokens without their own id (core/domain/oauth-entry.ts). A client
// registers with no lifetime of its own: it gets the one of a registration nobody authorized,
// and its first grant keeps it (core/domain/throttle.ts).

export const oauthAdapterFor = (store: OAuthStore) => class KnexOAuthAdapter implements Adapter {

    readonly name: string;
    readonly credential: boolean;

    constructor(name: string) {

        this.name = name;
        this.credential = credentialKinds.has(name);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {

        const lifetimeMs = expiresIn ? expiresIn * 1000 : this.name === 'Client' ? unauthorizedClientLifetimeMs : null;
        const kept: Record<string, unknown> = { ...payload };
        if (this.credential) {
            delete kept.jti;
        }

        await store.upsert(this.name, storedEntryId(id), kept, lifetimeMs === null ? null : Date.now() + lifetimeMs, {
            grantId: payload.grantId,
            userCode: payload.userCode,
            uid: payload.uid,
            accountId: payload.accountId
        });
        if (this.name === 'Grant' && typeof payload.clientId === 'string') {
            await store.keep('Client', storedEntryId(payload.clientId));
        }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {

        const payload = KnexOAuthAdapter.payloadOf(await store.find(this.name, storedEntryId(id), Date.now()));
        return payload && this.credential ? { ...payload, jti: id } : payload;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {

        return KnexOAuthAdapter.payloadOf(await store.findByUserCode(this.name, userCode, Date.now()));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {

        return KnexOAuthAdapter.payloadOf(await store.findByUid(this.name, uid, Date.now()));
    }

    async consume(id: string): Promise<void> {

        await store.consume(this.name, storedEntryId(id), Date.now());
    }

    async destroy(id: string): Promise<void> {

        await store.destroy(this.name, storedEntryId(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {

        await store.revokeByGrantId(grantId);
    }

    static payloadOf(entry: Awaited<ReturnType<OAuthStore['find']>>): AdapterPayload | undefined {

        if (!entry) {
            return undefined;
        }

        return entry.consumedAt === null ? entry.payload as AdapterPayload : {
            ...entry.payload,
            consumed: Math.floor(entry.consumedAt / 1000)
        } as AdapterPayload;
    }
};
