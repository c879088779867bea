import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { OAuthStore } from '../../core/ports/index.js';

// oidc-provider's storage contract over the service's database (the OAuthStore port): every
// model (Client, Grant, AuthorizationCode, AccessToken, RefreshToken, Session, Interaction…)
// by name and id, expiring with the lifetime the authorization server gives it.

export const oauthAdapterFor = (store: OAuthStore) => class KnexOAuthAdapter implements Adapter {

    readonly name: string;

    constructor(name: string) {

        this.name = name;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {

        const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : null;
        await store.upsert(this.name, id, payload as Record<string, unknown>, expiresAt, { grantId: payload.grantId, userCode: payload.userCode, uid: payload.uid });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {

        return KnexOAuthAdapter.payloadOf(await store.find(this.name, id, Date.now()));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {

        return KnexOAuthAdapter.payloadOf(await store.findByUserCode(this.name, userCode, Date.now()));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {

        return KnexOAuthAdapter.payloadOf(await store.findByUid(this.name, uid, Date.now()));
    }

    async consume(id: string): Promise<void> {

        await store.consume(this.name, id, Date.now());
    }

    async destroy(id: string): Promise<void> {

        await store.destroy(this.name, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {

        await store.revokeByGrantId(grantId);
    }

    static payloadOf(entry: Awaited<ReturnType<OAuthStore['find']>>): AdapterPayload | undefined {

        if (!entry) {
            return undefined;
        }

        return entry.consumedAt === null ? entry.payload as AdapterPayload : { ...entry.payload, consumed: Math.floor(entry.consumedAt / 1000) } as AdapterPayload;
    }
};
