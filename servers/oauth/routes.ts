import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, ResponseObject, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import type Provider from 'oidc-provider';
import { isDomainError } from '../../core/domain/errors.js';
import { defaultMaxOAuthClients } from '../../core/domain/throttle.js';
import type { Ports } from '../../core/ports/index.js';
import { admitClientRegistration } from '../../core/use-cases/admit-client-registration.js';
import { signIn } from '../../core/use-cases/sign-in.js';
import { clientAddress } from '../http/client-address.js';
import { toBoom } from '../http/errors.js';
import type { PublicUrls } from '../http/public-urls.js';
import { forbiddenHost, hostAllowed } from '../http/public-urls.js';
import { consentPage, errorPage, pageHeaders } from './pages.js';
import type { OAuthServer } from './provider.js';
import { createOAuthServer, mcpScope, oauthPaths } from './provider.js';
import { readBody, registrationLimits, registrationRefusal, replayed } from './registration.js';
import { texts } from './texts.js';

// The OAuth 2.1 authorization server of a protected resource (the MCP endpoint) on this HTTP
// server: its discovery documents (RFC 9728 for the resource, RFC 8414 for the server), the
// oidc-provider endpoints under /oauth with open registration within limits, and the Spanish
// sign-in and consent page.

// What the tokens are for: a path of this server, published as {base_url}{path}; told to a
// request as it named the server when that is a loopback alias (PublicUrls.baseFor).
export interface ProtectedResource {
    path: string;
    name: string;
    url(request?: Request): string;
    metadataPath: string;
    metadataUrl(request?: Request): string;
    // A resource indicator (RFC 8707) naming this resource, by {base_url} or a loopback alias.
    accepts(indicator: unknown): boolean;
}

export interface OAuthRouteOptions {
    log: (event: Record<string, unknown>) => void;
    // At most this many registered clients (OAUTH_MAX_CLIENTS).
    maxClients?: number | undefined;
    // Private-use redirect schemes accepted at registration (OAUTH_REDIRECT_SCHEMES).
    redirectSchemes?: readonly string[] | undefined;
}

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

interface FoundInteraction {
    provider: Provider;
    details: InteractionDetails;
    client: InstanceType<Provider['Client']>;
}

const internals = {
    metadataPath: '/.well-known/oauth-protected-resource',

    // Discovery is read from browsers too (the MCP Inspector), which send the MCP protocol
    // version header along and ask first.
    discoveryCors: { origin: ['*'], additionalHeaders: ['mcp-protocol-version'] },

    // RFC 9728, at the root and at the path-suffixed location of the protected resource.
    metadataRoutes(urls: PublicUrls, resource: ProtectedResource): ServerRoute[] {

        const handler = (request: Request, h: ResponseToolkit) => (!hostAllowed(request, urls) ? forbiddenHost(h) : {
            resource: resource.url(request),
            authorization_servers: [urls.base()],
            scopes_supported: [mcpScope],
            bearer_methods_supported: ['header'],
            resource_name: resource.name
        });

        return [internals.metadataPath, resource.metadataPath].map((path) => ({
            method: 'GET',
            path,
            options: { auth: false, cors: internals.discoveryCors },
            handler
        }));
    },

    // oidc-provider answers on the raw request and response; hapi steps aside. It builds every
    // URL it publishes from the scheme and host it is given: always {base_url}'s.
    passthrough(deps: Ports, oauth: OAuthServer, urls: PublicUrls, maxClients: number, rewrite?: string) {

        return async (request: Request, h: ResponseToolkit) => {

            if (!hostAllowed(request, urls)) {
                return forbiddenHost(h);
            }

            if (request.path === oauthPaths.registration && request.method === 'post') {
                try {
                    await admitClientRegistration(deps, {
                        address: clientAddress(request, urls.trustProxy),
                        maxClients,
                        messages: { throttled: texts.registrationThrottled, full: texts.registrationFull }
                    });
                }
                catch (err) {
                    throw toBoom(err);
                }
            }

            const provider = await oauth.provider();
            const { res } = request.raw;
            let { req } = request.raw;
            // hapi's onPreResponse does not run for an answer it abandons.
            res.setHeader('X-Request-Id', request.info.id);
            const base = new URL(urls.base());
            delete req.headers.forwarded;
            req.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
            req.headers['x-forwarded-host'] = base.host;
            req.headers['x-forwarded-for'] = clientAddress(request, urls.trustProxy);
            if (request.path === oauthPaths.registration) {
                // oidc-provider leaves registration without CORS; browser clients register too
                // (hapi answers the preflight from the route's cors settings).
                res.setHeader('Access-Control-Allow-Origin', '*');
                if (request.method === 'post') {
                    const body = await readBody(req);
                    const refusal = body === null ? `el cuerpo supera ${registrationLimits.bodyBytes / 1024} KB` : registrationRefusal(body);
                    if (refusal !== null || body === null) {
                        return h.response({
                            error: 'invalid_client_metadata',
                            error_description: refusal
                        }).code(400).header('Access-Control-Allow-Origin', '*').header('Cache-Control', 'no-store');
                    }

                    req = replayed(req, body);
                }
            }

            // Clients that ask for no scope (the MCP SDK when the metadata names one) mean the
            // only one there is; without it the consent would grant nothing.
            if (request.path === oauthPaths.authorization && request.method === 'get' && !request.query.scope) {
                const url = new URL(req.url ?? '', 'http://x');
                url.searchParams.set('scope', mcpScope);
                req.url = `${url.pathname}${url.search}`;
            }

            if (rewrite) {
                req.url = rewrite + (req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '');
            }

            await new Promise<void>((resolve) => {

                res.once('finish', resolve);
                res.once('close', resolve);
                void provider.callback()(req as IncomingMessage, res as ServerResponse);
            });

            return h.abandon;
        };
    },

    providerRoutes(deps: Ports, oauth: OAuthServer, urls: PublicUrls, maxClients: number): ServerRoute[] {

        const options = { auth: false as const, payload: { parse: false, output: 'stream' as const } };
        const handler = internals.passthrough(deps, oauth, urls, maxClients);
        return [
            { method: '*', path: '/oauth/{path*}', options, handler },
            // Browser clients: hapi answers the CORS preflights of the endpoints they call.
            ...[oauthPaths.registration, oauthPaths.token, oauthPaths.revocation].map((path): ServerRoute => ({
                method: 'POST',
                path,
                options: { ...options, cors: { origin: ['*'] } },
                handler
            })),
            { method: 'GET', path: '/.well-known/openid-configuration', options: { auth: false, cors: internals.discoveryCors }, handler },
            // RFC 8414: the same document oidc-provider publishes as OpenID discovery.
            {
                method: 'GET',
                path: '/.well-known/oauth-authorization-server',
                options: { auth: false, cors: internals.discoveryCors },
                handler: internals.passthrough(deps, oauth, urls, maxClients, '/.well-known/openid-configuration')
            }
        ];
    },

    page(h: ResponseToolkit, html: string, status = 200): ResponseObject {

        const response = h.response(html).code(status).type('text/html; charset=utf-8');
        for (const [name, value] of Object.entries(pageHeaders)) {
            response.header(name, value);
        }

        return response;
    },

    // The consent form is posted from its own page: a browser's Origin must be this server's,
    // and the form must carry the interaction's CSRF token.
    async formAllowed(oauth: OAuthServer, urls: PublicUrls, request: Request, form: Record<string, unknown>): Promise<boolean> {

        const origin = request.headers.origin;
        if (origin !== undefined) {
            let host: string;
            try {
                host = new URL(String(origin)).host;
            }
            catch {
                return false;
            }

            if (!urls.allowedHosts().has(host)) {
                return false;
            }
        }

        return oauth.csrfValid(String(request.params.uid), form.csrf);
    },

    async interaction(oauth: OAuthServer, request: Request): Promise<FoundInteraction | null> {

        const provider = await oauth.provider();
        try {
            const details = await provider.interactionDetails(request.raw.req, request.raw.res);
            if (details.uid !== request.params.uid) {
                return null;
            }

            const client = await provider.Client.find(String(details.params.client_id));
            return client ? { provider, details, client } : null;
        }
        catch {
            return null;
        }
    },

    async consentView(oauth: OAuthServer, found: FoundInteraction, extra: { email?: string; error?: string } = {}): Promise<string> {

        const name = found.client.clientName ?? found.client.clientId ?? texts.unknownClient;
        const redirectUri = typeof found.details.params.redirect_uri === 'string' ? found.details.params.redirect_uri : null;
        const csrfToken = await oauth.csrfToken(found.details.uid);
        return consentPage({ action: `${oauthPaths.interaction}/${found.details.uid}`, csrfToken, clientName: name, redirectUri, ...extra });
    },

    // What the user consents to: the scopes the client asked for among those this server
    // knows, service:read only for the protected resource (the provider refuses any other),
    // under the name the client gave it (a loopback alias) or its own.
    async grant(provider: Provider, details: InteractionDetails, accountId: string, resource: ProtectedResource): Promise<string> {

        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        const requested = new Set(String(details.params.scope ?? '').split(' ').filter(Boolean));
        const indicators = [details.params.resource].flat().filter((indicator) => resource.accepts(indicator)) as string[];
        const oidc = ['openid', 'offline_access', mcpScope].filter((scope) => requested.has(scope));
        if (oidc.length) {
            grant.addOIDCScope(oidc.join(' '));
        }

        if (requested.has(mcpScope)) {
            for (const indicator of new Set([resource.url(), ...indicators])) {
                grant.addResourceScope(indicator, mcpScope);
            }
        }

        return grant.save();
    },

    interactionRoutes(deps: Ports, oauth: OAuthServer, urls: PublicUrls, resource: ProtectedResource): ServerRoute[] {

        const path = `${oauthPaths.interaction}/{uid}`;
        return [
            {
                method: 'GET',
                path,
                options: { auth: false },
                async handler(request, h) {

                    if (!hostAllowed(request, urls)) {
                        return forbiddenHost(h);
                    }

                    const found = await internals.interaction(oauth, request);
                    return found ? internals.page(h, await internals.consentView(oauth, found)) : internals.page(h, errorPage(texts.expired), 400);
                }
            },
            {
                method: 'POST',
                path,
                options: { auth: false, payload: { parse: true, allow: 'application/x-www-form-urlencoded', maxBytes: 16 * 1024 } },
                async handler(request, h) {

                    if (!hostAllowed(request, urls)) {
                        return forbiddenHost(h);
                    }

                    const found = await internals.interaction(oauth, request);
                    if (!found) {
                        return internals.page(h, errorPage(texts.expired), 400);
                    }

                    const form = (request.payload ?? {}) as Record<string, unknown>;
                    if (!await internals.formAllowed(oauth, urls, request, form)) {
                        return internals.page(h, errorPage(texts.forbiddenForm), 403);
                    }

                    const { provider, details } = found;
                    let result: Parameters<Provider['interactionResult']>[2];
                    if (form.decision !== 'allow') {
                        result = { error: 'access_denied', error_description: texts.denied };
                    }
                    else {
                        const email = typeof form.email === 'string' ? form.email : '';
                        const password = typeof form.password === 'string' ? form.password : '';
                        let user: Awaited<ReturnType<typeof signIn>>;
                        try {
                            user = await signIn(deps, { email, password, address: clientAddress(request, urls.trustProxy) });
                        }
                        catch (err) {
                            if (isDomainError(err) && err.rateLimit) {
                                return internals.page(h, await internals.consentView(oauth, found, { email, error: err.message }), 429)
                                    .header('Retry-After', String(err.rateLimit.retryAfterSeconds));
                            }

                            throw err;
                        }

                        if (!user) {
                            return internals.page(h, await internals.consentView(oauth, found, { email, error: texts.invalidCredentials }), 401);
                        }

                        const accountId = String(user.id);
                        result = { login: { accountId }, consent: { grantId: await internals.grant(provider, details, accountId, resource) } };
                    }

                    const returnTo = await provider.interactionResult(request.raw.req, request.raw.res, result, { mergeWithLastSubmission: false });
                    return h.redirect(returnTo).code(303);
                }
            }
        ];
    }
};

export const protectedResource = (urls: PublicUrls, path: string, name: string): ProtectedResource => {

    const baseOf = (request?: Request) => (request ? urls.baseFor(request) : urls.base());
    return {
        path,
        name,
        url: (request) => `${baseOf(request)}${path}`,
        metadataPath: `${internals.metadataPath}${path}`,
        metadataUrl: (request) => `${baseOf(request)}${internals.metadataPath}${path}`,
        accepts(indicator) {

            if (typeof indicator !== 'string' || !urls.sameOrigin(indicator)) {
                return false;
            }

            const parsed = new URL(indicator);
            return `${new URL(urls.base()).pathname.replace(/\/+$/, '')}${path}` === parsed.pathname && !parsed.search && !parsed.hash;
        }
    };
};

// The routes of the authorization server for `resource`; the server that checks its tokens.
export const registerOAuth = (server: Server, deps: Ports, urls: PublicUrls, resource: ProtectedResource, options: OAuthRouteOptions): OAuthServer => {

    const oauth = createOAuthServer(deps, { issuer: urls.base, resource }, options.log, options.redirectSchemes);
    const maxClients = options.maxClients ?? defaultMaxOAuthClients;
    server.route([
        ...internals.metadataRoutes(urls, resource),
        ...internals.providerRoutes(deps, oauth, urls, maxClients),
        ...internals.interactionRoutes(deps, oauth, urls, resource)
    ]);
    return oauth;
};
