import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, ResponseObject, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type Provider from 'oidc-provider';
import type { Principal } from '../../core/domain/access.js';
import { isDomainError } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import { tokenPrefix } from '../../core/domain/token.js';
import type { Ports } from '../../core/ports/index.js';
import { admitRequest } from '../../core/use-cases/admit-request.js';
import { authenticateToken } from '../../core/use-cases/authorize-request.js';
import { principalOfUser } from '../../core/use-cases/principal-of-user.js';
import { signIn } from '../../core/use-cases/sign-in.js';
import { countAttempt } from '../../core/use-cases/count-attempt.js';
import { defaultMaxOAuthClients, throttleRules } from '../../core/domain/throttle.js';
import { clientAddress, requestedHost } from '../http/client-address.js';
import type { OAuthServer } from './oauth.js';
import { createOAuthServer, mcpScope, oauthPaths } from './oauth.js';
import { consentPage, errorPage, pageHeaders } from './pages.js';
import type { McpLog } from './tools.js';
import { createMcpServer } from './tools.js';

// The MCP endpoint at {base_url}/mcp (SPEC §4.13): stateless streamable HTTP, a new transport
// and server per POST, with JSON answers; authenticated by an OAuth access token issued for
// it, or by an API token (SPEC §5) for clients configured by hand. Around it, the OAuth
// discovery documents, the authorization server and its sign-in and consent page.

export interface McpRouteOptions {
    // {base_url}; by default the address the server listens on, known once started. Every
    // URL the service publishes comes from it, never from the request.
    publicUrl?: string | undefined;
    log?: McpLog | undefined;
    // How many reverse proxies stand in front (TRUST_PROXY): only then are forwarded headers
    // believed, for the client address and the host asked for.
    trustProxy?: number | undefined;
    // At most this many registered clients (OAUTH_MAX_CLIENTS).
    maxClients?: number | undefined;
}

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

interface FoundInteraction {
    provider: Provider;
    details: InteractionDetails;
    client: InstanceType<Provider['Client']>;
}

interface Urls {
    base(): string;
    resource(): string;
    resourceMetadata(): string;
    allowedHosts(): Set<string>;
    trustProxy: number;
}

const internals = {
    log: (event: Record<string, unknown>) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`),

    loopbackHosts: new Set(['localhost', '127.0.0.1', '[::1]']),

    cors: {
        origin: ['*'],
        additionalHeaders: ['mcp-protocol-version', 'mcp-session-id', 'last-event-id'],
        additionalExposedHeaders: ['mcp-session-id', 'www-authenticate'],
        credentials: false
    },

    bearer(header: unknown): string | null {

        const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
        return match ? match[1]! : null;
    },

    urls(server: Server, publicUrl: string | undefined, trustProxy: number): Urls {

        const base = () => (publicUrl ?? server.info.uri).replace(/\/+$/, '');
        return {
            base,
            trustProxy,
            resource: () => `${base()}/mcp`,
            resourceMetadata: () => `${base()}/.well-known/oauth-protected-resource/mcp`,
            allowedHosts() {

                // DNS rebinding: only the names this server is reached by.
                const hosts = new Set([new URL(base()).host]);
                const port = server.info.port;
                hosts.add(`${server.info.host}:${port}`);
                if (internals.loopbackHosts.has(server.info.host) || server.info.host === '::1') {
                    for (const host of internals.loopbackHosts) {
                        hosts.add(`${host}:${port}`);
                    }
                }

                return hosts;
            }
        };
    },

    // Host must name this server (DNS rebinding, and no answer built for a foreign name).
    hostAllowed: (request: Request, urls: Urls): boolean => urls.allowedHosts().has(requestedHost(request, urls.trustProxy)),

    forbiddenHost: (h: ResponseToolkit): ResponseObject => h.response({ error: messages.mcp.forbiddenHost }).code(403),

    // Host must name this server; a browser's Origin must be this server or a local client.
    originAllowed(request: Request, urls: Urls): boolean {

        if (!internals.hostAllowed(request, urls)) {
            return false;
        }

        const origin = request.headers.origin;
        if (!origin) {
            return true;
        }

        try {
            const parsed = new URL(origin);
            return parsed.origin === new URL(urls.base()).origin || internals.loopbackHosts.has(parsed.hostname);
        }
        catch {
            return false;
        }
    },

    challenge(h: ResponseToolkit, urls: Urls, status: 401 | 403, error: 'invalid_token' | 'insufficient_scope' | null, message: string): ResponseObject {

        const parts = [`resource_metadata="${urls.resourceMetadata()}"`, `scope="${mcpScope}"`];
        if (error) {
            parts.unshift(`error="${error}"`);
        }

        return h.response({ error: message }).code(status).header('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
    },

    // Who is calling: an API token or an OAuth access token for this resource. The
    // subscription and the rate limits are checked per tool call (admitRequest).
    async authenticate(deps: Ports, oauth: OAuthServer, token: string): Promise<Principal | 'insufficient_scope' | null> {

        if (token.startsWith(tokenPrefix)) {
            try {
                return await authenticateToken(deps, token);
            }
            catch (err) {
                if (isDomainError(err)) {
                    return null;
                }

                throw err;
            }
        }

        const check = await oauth.verify(token);
        if (!check.ok) {
            return check.reason === 'insufficient_scope' ? 'insufficient_scope' : null;
        }

        return principalOfUser(deps, check.userId);
    },

    mcpRoutes(deps: Ports, oauth: OAuthServer, urls: Urls, log: McpLog): ServerRoute[] {

        const notAllowed = (_request: Request, h: ResponseToolkit) => h.response({ error: messages.mcp.postOnly }).code(405).header('Allow', 'POST');
        return [
            {
                method: 'POST',
                path: '/mcp',
                options: {
                    auth: false,
                    cors: internals.cors,
                    payload: { parse: false, output: 'data', maxBytes: 1024 * 1024 }
                },
                async handler(request, h) {

                    if (!internals.originAllowed(request, urls)) {
                        return internals.forbiddenHost(h);
                    }

                    const token = internals.bearer(request.headers.authorization);
                    const principal = token ? await internals.authenticate(deps, oauth, token) : null;
                    if (principal === 'insufficient_scope') {
                        return internals.challenge(h, urls, 403, 'insufficient_scope', messages.mcp.insufficientScope);
                    }

                    if (!principal) {
                        return internals.challenge(h, urls, 401, token ? 'invalid_token' : null, messages.unauthenticated);
                    }

                    const server = createMcpServer(deps, () => admitRequest(deps, principal), log);
                    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
                    try {
                        await server.connect(transport);
                        const headers = new Headers();
                        for (const [name, value] of Object.entries(request.headers)) {
                            headers.set(name, String(value));
                        }

                        const body = request.payload as Buffer | null;
                        const answer = await transport.handleRequest(new Request(urls.resource(), { method: 'POST', headers, body: body?.length ? body : null }));
                        const text = await answer.text();
                        const response = h.response(text || undefined).code(answer.status);
                        const type = answer.headers.get('content-type');
                        if (type) {
                            response.type(type);
                        }

                        return response;
                    }
                    finally {
                        await server.close();
                    }
                }
            },
            { method: 'GET', path: '/mcp', options: { auth: false, cors: internals.cors }, handler: notAllowed },
            { method: 'DELETE', path: '/mcp', options: { auth: false, cors: internals.cors }, handler: notAllowed }
        ];
    },

    // RFC 9728, at the root and at the path-suffixed location of the /mcp resource.
    metadataRoutes(urls: Urls): ServerRoute[] {

        const handler = (request: Request, h: ResponseToolkit) => (!internals.hostAllowed(request, urls) ? internals.forbiddenHost(h) : {
            resource: urls.resource(),
            authorization_servers: [urls.base()],
            scopes_supported: [mcpScope],
            bearer_methods_supported: ['header'],
            resource_name: 'arcasync MCP'
        });

        return ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'].map((path) => ({
            method: 'GET',
            path,
            options: { auth: false, cors: { origin: ['*'] } },
            handler
        }));
    },

    // Open registration stays (MCP clients register themselves) within limits: so many per
    // client address and hour, so many clients in all. null when the registration may go on.
    async registrationRefused(deps: Ports, urls: Urls, request: Request, h: ResponseToolkit, maxClients: number): Promise<ResponseObject | null> {

        try {
            await countAttempt(deps, throttleRules.registrationPerAddress, `register:address:${clientAddress(request, urls.trustProxy)}`, messages.oauth.registrationThrottled);
        }
        catch (err) {
            if (isDomainError(err) && err.rateLimit) {
                return h.response({ error: err.message }).code(429).header('Retry-After', String(err.rateLimit.retryAfterSeconds));
            }

            throw err;
        }

        if (await deps.oauthStore.count('Client', Date.now()) >= maxClients) {
            return h.response({ error: messages.oauth.registrationFull }).code(403);
        }

        return null;
    },

    // oidc-provider answers on the raw request and response; hapi steps aside. It builds every
    // URL it publishes from the scheme and host it is given: always {base_url}'s.
    passthrough(deps: Ports, oauth: OAuthServer, urls: Urls, maxClients: number, rewrite?: string) {

        return async (request: Request, h: ResponseToolkit) => {

            if (!internals.hostAllowed(request, urls)) {
                return internals.forbiddenHost(h);
            }

            if (request.path === oauthPaths.registration && request.method === 'post') {
                const refused = await internals.registrationRefused(deps, urls, request, h, maxClients);
                if (refused) {
                    return refused.header('Access-Control-Allow-Origin', '*');
                }
            }

            const provider = await oauth.provider();
            const { req, res } = request.raw;
            const base = new URL(urls.base());
            delete req.headers.forwarded;
            req.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
            req.headers['x-forwarded-host'] = base.host;
            req.headers['x-forwarded-for'] = clientAddress(request, urls.trustProxy);
            if (request.path === oauthPaths.registration) {
                // oidc-provider leaves registration without CORS; browser clients register too
                // (hapi answers the preflight from the route's cors settings).
                res.setHeader('Access-Control-Allow-Origin', '*');
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

    providerRoutes(deps: Ports, oauth: OAuthServer, urls: Urls, maxClients: number): ServerRoute[] {

        const options = { auth: false as const, payload: { parse: false, output: 'stream' as const } };
        const handler = internals.passthrough(deps, oauth, urls, maxClients);
        return [
            { method: '*', path: '/oauth/{path*}', options, handler },
            // Browser clients: hapi answers the CORS preflights of the endpoints they call.
            ...[oauthPaths.registration, oauthPaths.token, oauthPaths.revocation].map((path): ServerRoute => ({ method: 'POST', path, options: { ...options, cors: { origin: ['*'] } }, handler })),
            { method: '*', path: '/.well-known/openid-configuration', options, handler },
            // RFC 8414: the same document oidc-provider publishes as OpenID discovery.
            { method: '*', path: '/.well-known/oauth-authorization-server', options, handler: internals.passthrough(deps, oauth, urls, maxClients, '/.well-known/openid-configuration') }
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
    async formAllowed(oauth: OAuthServer, urls: Urls, request: Request, form: Record<string, unknown>): Promise<boolean> {

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

        const name = found.client.clientName ?? found.client.clientId ?? messages.oauth.unknownClient;
        const redirectUri = typeof found.details.params.redirect_uri === 'string' ? found.details.params.redirect_uri : null;
        const csrfToken = await oauth.csrfToken(found.details.uid);
        return consentPage({ action: `${oauthPaths.interaction}/${found.details.uid}`, csrfToken, clientName: name, redirectUri, ...extra });
    },

    // What the user consents to: the scopes the client asked for among those this server
    // knows, service:read only for the /mcp resource (the provider refuses any other).
    async grant(provider: Provider, details: InteractionDetails, accountId: string, resource: string): Promise<string> {

        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        const requested = new Set(String(details.params.scope ?? '').split(' ').filter(Boolean));
        const oidc = ['openid', 'offline_access', mcpScope].filter((scope) => requested.has(scope));
        if (oidc.length) {
            grant.addOIDCScope(oidc.join(' '));
        }

        if (requested.has(mcpScope)) {
            grant.addResourceScope(resource, mcpScope);
        }

        return grant.save();
    },

    interactionRoutes(deps: Ports, oauth: OAuthServer, urls: Urls): ServerRoute[] {

        const path = `${oauthPaths.interaction}/{uid}`;
        return [
            {
                method: 'GET',
                path,
                options: { auth: false },
                async handler(request, h) {

                    if (!internals.hostAllowed(request, urls)) {
                        return internals.forbiddenHost(h);
                    }

                    const found = await internals.interaction(oauth, request);
                    return found ? internals.page(h, await internals.consentView(oauth, found)) : internals.page(h, errorPage(messages.oauth.expired), 400);
                }
            },
            {
                method: 'POST',
                path,
                options: { auth: false, payload: { parse: true, allow: 'application/x-www-form-urlencoded', maxBytes: 16 * 1024 } },
                async handler(request, h) {

                    if (!internals.hostAllowed(request, urls)) {
                        return internals.forbiddenHost(h);
                    }

                    const found = await internals.interaction(oauth, request);
                    if (!found) {
                        return internals.page(h, errorPage(messages.oauth.expired), 400);
                    }

                    const form = (request.payload ?? {}) as Record<string, unknown>;
                    if (!await internals.formAllowed(oauth, urls, request, form)) {
                        return internals.page(h, errorPage(messages.oauth.forbiddenForm), 403);
                    }

                    const { provider, details } = found;
                    let result: Parameters<Provider['interactionResult']>[2];
                    if (form.decision !== 'allow') {
                        result = { error: 'access_denied', error_description: messages.oauth.denied };
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
                            return internals.page(h, await internals.consentView(oauth, found, { email, error: messages.oauth.invalidCredentials }), 401);
                        }

                        const accountId = String(user.id);
                        result = { login: { accountId }, consent: { grantId: await internals.grant(provider, details, accountId, urls.resource()) } };
                    }

                    const returnTo = await provider.interactionResult(request.raw.req, request.raw.res, result, { mergeWithLastSubmission: false });
                    return h.redirect(returnTo).code(303);
                }
            }
        ];
    }
};

export const registerMcp = (server: Server, deps: Ports, options: McpRouteOptions): void => {

    const log = options.log ?? internals.log;
    const urls = internals.urls(server, options.publicUrl, options.trustProxy ?? 0);
    const oauth = createOAuthServer(deps, { issuer: urls.base, resource: urls.resource }, log);
    server.route([
        ...internals.mcpRoutes(deps, oauth, urls, log),
        ...internals.metadataRoutes(urls),
        ...internals.providerRoutes(deps, oauth, urls, options.maxClients ?? defaultMaxOAuthClients),
        ...internals.interactionRoutes(deps, oauth, urls)
    ]);
};
