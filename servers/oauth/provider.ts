import { createHmac, generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Configuration, JWK, KoaContextWithOIDC } from 'oidc-provider';
import Provider, { errors } from 'oidc-provider';
import type { Ports } from '../../core/ports/index.js';
import { outboundHttpOptions } from './outbound.js';
import { oauthAdapterFor } from './store.js';
import { errorPage, pageHeaders } from './pages.js';
import { spanishErrors } from './errors.js';
import { texts } from './texts.js';

// The OAuth 2.1 authorization server of the MCP endpoint (docs/api.md, MCP), on panva's
// oidc-provider: dynamic client registration (RFC 7591), authorization code with PKCE S256
// only, resource indicators (RFC 8707) binding every access token to {base_url}/mcp, the
// single scope service:read, short-lived opaque access tokens, rotating refresh tokens and
// revocation (RFC 7009), everything stored in the service's database.

export const mcpScope = 'service:read';

export const oauthPaths = {
    authorization: '/oauth/authorize',
    token: '/oauth/token',
    registration: '/oauth/register',
    revocation: '/oauth/revoke',
    jwks: '/oauth/jwks',
    userinfo: '/oauth/userinfo',
    end_session: '/oauth/logout',
    interaction: '/oauth/interaction'
} as const;

const tokenLifetimes = {
    accessToken: 15 * 60,                   // seconds: short-lived, refreshed with the refresh token
    refreshToken: 30 * 24 * 60 * 60,        // rotated on every use
    authorizationCode: 60,
    interaction: 30 * 60,
    grant: 365 * 24 * 60 * 60,
    session: 30 * 60
};

type AccessCheck =
    | { ok: true; userId: number }
    | { ok: false; reason: 'invalid_token' | 'insufficient_scope' };

export interface OAuthServer {
    provider(): Promise<Provider>;
    // The consent form's CSRF token of an interaction, and its check.
    csrfToken(uid: string): Promise<string>;
    csrfValid(uid: string, token: unknown): Promise<boolean>;
    // An access token presented to /mcp: live, issued for /mcp, carrying service:read.
    verify(token: string): Promise<AccessCheck>;
}

type OAuthLog = (event: Record<string, unknown>) => void;

const internals = {

    // Keys every server process shares (cookie signing, the JSON Web Key Set, the consent
    // form's CSRF key), created once and kept in the OAuth store sealed with the secret box
    // that seals clave_arca: a database dump alone cannot sign a cookie or a token.
    // `arcasync secret rotate` re-seals them with the credentials. One that cannot be opened
    // (its key left the keyring) is never replaced: a new one would end every session and
    // token issued. The server refuses to start instead (unreadableServerSecrets, checked by
    // app/server.ts; docs/operations.md, Key rotation).
    async sharedSecret<T>(deps: Pick<Ports, 'oauthStore' | 'secretBox'>, id: string, create: () => T, log: OAuthLog): Promise<T> {

        const open = (sealed: string): T => {

            try {
                return JSON.parse(deps.secretBox.open(sealed)) as T;
            }
            catch (err) {
                log({ level: 'error', msg: 'oauth server key unreadable', key: id, keyId: deps.secretBox.keyIdOf(sealed), cause: (err as Error).message });
                throw new Error(texts.serverSecretUnreadable([deps.secretBox.keyIdOf(sealed) ?? '?']));
            }
        };

        const existing = await deps.oauthStore.sealedServerSecret(id);
        if (existing !== null) {
            return open(existing);
        }

        await deps.oauthStore.addSealedServerSecret(id, deps.secretBox.seal(JSON.stringify(create())));
        return open((await deps.oauthStore.sealedServerSecret(id))!);
    },

    signingKey(): JWK {

        const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
        return { ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256', kid: randomBytes(8).toString('hex') } as JWK;
    },

    // Redirect URIs with a private-use scheme (RFC 8252 §7.1), as real MCP clients register
    // them (cursor://anysphere.cursor-retrieval/…, vscode://…): only the schemes of the
    // allowlist (OAUTH_REDIRECT_SCHEMES). Any other scheme may start a local handler or fetch
    // a remote file (ms-word:, search-ms:, smb:, ldap:, jar:…). oidc-provider wants a reverse
    // domain name (a dot) there; it keeps checking every other redirect URI (http only on
    // loopback).
    privateUse(uri: string, allowed: ReadonlySet<string>): 'accept' | 'refuse' | 'provider' {

        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
        if (!scheme || scheme === 'http' || scheme === 'https') {
            return 'provider';
        }

        if (!allowed.has(scheme)) {
            return 'refuse';
        }

        try {
            return new URL(uri).hash ? 'refuse' : 'accept';
        }
        catch {
            return 'refuse';
        }
    },

    allowPrivateUseRedirects(instance: Provider, allowed: ReadonlySet<string>): void {

        interface ClientSchema {
            redirect_uris: string[];
            invalidate(message: string): never;
            redirectUris(this: ClientSchema, uris?: string[], label?: string): void;
        }

        const schema = (instance.Client as unknown as { Schema: { prototype: ClientSchema } }).Schema.prototype;
        const check = schema.redirectUris;
        schema.redirectUris = function (this: ClientSchema, uris = this.redirect_uris, label = 'redirect_uris') {

            if (uris.some((uri) => internals.privateUse(uri, allowed) === 'refuse')) {
                this.invalidate(`${label}: ${texts.schemeRefused} (http en loopback, https, ${[...allowed].join(', ')})`);
            }

            check.call(this, uris.filter((uri) => internals.privateUse(uri, allowed) === 'provider'), label);
        };
    },

    configuration(deps: Ports, resource: OAuthResource, keys: { cookies: string[]; jwk: JWK }): Configuration {

        return {
            adapter: oauthAdapterFor(deps.oauthStore),
            clients: [],
            clientDefaults: {
                // Loopback redirect URIs (http://127.0.0.1, http://localhost) match on any port
                // for native clients (RFC 8252 §7.3), and https redirect URIs stay allowed.
                application_type: 'native',
                grant_types: ['authorization_code', 'refresh_token'],
                response_types: ['code'],
                token_endpoint_auth_method: 'none',
                id_token_signed_response_alg: 'ES256'
            },
            cookies: { keys: keys.cookies, long: { signed: true }, short: { signed: true } },
            jwks: { keys: [keys.jwk] },
            enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
            // Public clients only (PKCE): no client authentication that has the server fetch
            // a key set; and whatever it would fetch, never from inside (outbound.ts).
            clientAuthMethods: ['none'],
            httpOptions: outboundHttpOptions,
            findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
            claims: { openid: ['sub'] },
            scopes: ['openid', 'offline_access', mcpScope],
            responseTypes: ['code'],
            pkce: { required: () => true, methods: ['S256'] },
            routes: {
                authorization: oauthPaths.authorization,
                token: oauthPaths.token,
                registration: oauthPaths.registration,
                revocation: oauthPaths.revocation,
                jwks: oauthPaths.jwks,
                userinfo: oauthPaths.userinfo,
                end_session: oauthPaths.end_session
            },
            features: {
                devInteractions: { enabled: false },
                registration: { enabled: true, initialAccessToken: false },
                revocation: { enabled: true },
                introspection: { enabled: false },
                // Not served (only /oauth/* reaches the provider): not advertised either.
                pushedAuthorizationRequests: { enabled: false },
                userinfo: { enabled: false },
                rpInitiatedLogout: { enabled: false },
                resourceIndicators: {
                    enabled: true,
                    defaultResource: () => resource.url(),
                    useGrantedResource: () => true,
                    // The resource by {base_url} or by a loopback alias the client reached it
                    // by; the token's audience is always {base_url}'s.
                    getResourceServerInfo: (_ctx, indicator) => {

                        if (!resource.accepts(indicator)) {
                            throw new errors.InvalidTarget(texts.invalidTarget);
                        }

                        return { scope: mcpScope, audience: resource.url(), accessTokenTTL: tokenLifetimes.accessToken, accessTokenFormat: 'opaque' };
                    }
                }
            },
            // Consent is asked every time: only the grant the user just gave on the consent
            // page is used, never one remembered by the session.
            loadExistingGrant: async (ctx) => {

                const grantId = ctx.oidc.result?.consent?.grantId;
                return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
            },
            issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
            rotateRefreshToken: true,
            clientBasedCORS: () => true,
            ttl: {
                AccessToken: tokenLifetimes.accessToken,
                AuthorizationCode: tokenLifetimes.authorizationCode,
                RefreshToken: tokenLifetimes.refreshToken,
                Interaction: tokenLifetimes.interaction,
                Grant: tokenLifetimes.grant,
                Session: tokenLifetimes.session,
                IdToken: tokenLifetimes.accessToken
            },
            interactions: { url: (_ctx, interaction) => `${oauthPaths.interaction}/${interaction.uid}` },
            renderError: async (ctx: KoaContextWithOIDC, out) => {

                ctx.type = 'html';
                ctx.set(pageHeaders);
                ctx.body = errorPage(texts.authorizationErrors[out.error] ?? texts.invalidAuthorizationRequest);
            }
        };
    }
};

// The protected resource tokens are issued for (see routes.ts).
export interface OAuthResource {
    url(): string;
    accepts(indicator: unknown): boolean;
}

// Private-use redirect schemes of the MCP clients people use; OAUTH_REDIRECT_SCHEMES replaces them.
const defaultRedirectSchemes: readonly string[] = ['cursor', 'vscode', 'vscode-insiders', 'windsurf', 'claude'];

// Before a server starts: every OAuth server key stored must open with the keyring, or the
// process refuses to start, naming the keys (ids only) to put back (docs/operations.md, Key
// rotation). Keys not created yet are fine: the first request creates them.
export const checkServerSecrets = async (deps: Pick<Ports, 'oauthStore' | 'secretBox'>): Promise<void> => {

    const unreadable = new Set<string>();
    let afterId = '';
    for (;;) {
        const rows = await deps.oauthStore.listSealedServerSecrets(afterId, 100);
        if (!rows.length) {
            break;
        }

        for (const row of rows) {
            afterId = row.id;
            try {
                deps.secretBox.open(row.sealedKey);
            }
            catch {
                unreadable.add(deps.secretBox.keyIdOf(row.sealedKey) ?? '?');
            }
        }
    }

    if (unreadable.size) {
        throw new Error(texts.serverSecretUnreadable([...unreadable]));
    }
};

export const createOAuthServer = (
    deps: Ports,
    urls: { issuer: () => string; resource: OAuthResource },
    log: OAuthLog,
    redirectSchemes: readonly string[] = defaultRedirectSchemes
): OAuthServer => {

    let built: Promise<Provider> | null = null;

    const provider = () => {

        built ??= (async () => {

            const cookies = await internals.sharedSecret(deps, 'cookies', () => [randomBytes(32).toString('base64url')], log);
            const jwk = await internals.sharedSecret(deps, 'jwk', internals.signingKey, log);
            const instance = new Provider(urls.issuer(), internals.configuration(deps, urls.resource, { cookies, jwk }));
            internals.allowPrivateUseRedirects(instance, new Set(redirectSchemes.map((scheme) => scheme.toLowerCase())));
            instance.use(spanishErrors);
            // Koa reads the scheme and host from X-Forwarded-Proto and -Host, which the routes
            // always set from PUBLIC_URL (never from the client): see routes.ts.
            instance.proxy = true;
            instance.on('server_error', (_ctx: unknown, err: Error) => log({ level: 'error', msg: 'oauth server error', err: err.stack ?? err.message }));
            return instance;
        })();

        built.catch(() => {

            built = null;
        });

        return built;
    };

    const csrfToken = async (uid: string) => {

        const key = await internals.sharedSecret(deps, 'csrf', () => randomBytes(32).toString('base64url'), log);
        return createHmac('sha256', key).update(`consent:${uid}`).digest('base64url');
    };

    return {
        provider,
        csrfToken,
        async csrfValid(uid, token) {

            const expected = Buffer.from(await csrfToken(uid));
            const given = Buffer.from(typeof token === 'string' ? token : '');
            return given.length === expected.length && timingSafeEqual(given, expected);
        },
        async verify(value) {

            const oidc = await provider();
            const token = await oidc.AccessToken.find(value);
            if (!token || token.isExpired || !token.accountId) {
                return { ok: false, reason: 'invalid_token' };
            }

            const audiences = Array.isArray(token.aud) ? token.aud : [token.aud];
            if (!audiences.includes(urls.resource.url())) {
                return { ok: false, reason: 'invalid_token' };
            }

            // A revoked grant takes every token issued under it along.
            if (!token.grantId || !await oidc.Grant.find(token.grantId)) {
                return { ok: false, reason: 'invalid_token' };
            }

            if (!String(token.scope ?? '').split(' ').includes(mcpScope)) {
                return { ok: false, reason: 'insufficient_scope' };
            }

            const userId = Number(token.accountId);
            return Number.isInteger(userId) ? { ok: true, userId } : { ok: false, reason: 'invalid_token' };
        }
    };
};
