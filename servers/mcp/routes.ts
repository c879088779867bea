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
import type { OAuthServer } from './oauth.js';
import { createOAuthServer, mcpScope, oauthPaths } from './oauth.js';
import { consentPage, errorPage } from './pages.js';
import type { McpLog } from './tools.js';
import { createMcpServer } from './tools.js';

// The MCP endpoint at {base_url}/mcp (SPEC §4.13): stateless streamable HTTP, a new transport
// and server per POST, with JSON answers; authenticated by an OAuth access token issued for
// it, or by an API token (SPEC §5) for clients configured by hand. Around it, the OAuth
// discovery documents, the authorization server and its sign-in and consent page.

export interface McpRouteOptions {
    // {base_url}; by default the address the server listens on, known once started.
    publicUrl?: string | undefined;
    log?: McpLog | undefined;
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

    urls(server: Server, publicUrl: string | undefined): Urls {

        const base = () => (publicUrl ?? server.info.uri).replace(/\/+$/, '');
        return {
            base,
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

    // Host must name this server; a browser's Origin must be this server or a local client.
    originAllowed(request: Request, urls: Urls): boolean {

        const host = request.headers.host;
        if (!host || !urls.allowedHosts().has(String(host).toLowerCase())) {
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
                        return h.response({ error: messages.mcp.forbiddenHost }).code(403);
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

        const handler = () => ({
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

    // oidc-provider answers on the raw request and response; hapi steps aside.
    passthrough(oauth: OAuthServer, rewrite?: string) {

        return async (request: Request, h: ResponseToolkit) => {

            const provider = await oauth.provider();
            const { req, res } = request.raw;
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

    providerRoutes(oauth: OAuthServer): ServerRoute[] {

        const options = { auth: false as const, payload: { parse: false, output: 'stream' as const } };
        return [
            { method: '*', path: '/oauth/{path*}', options, handler: internals.passthrough(oauth) },
            // Browser clients: hapi answers the CORS preflights of the endpoints they call.
            ...[oauthPaths.registration, oauthPaths.token, oauthPaths.revocation].map((path): ServerRoute => ({ method: 'POST', path, options: { ...options, cors: { origin: ['*'] } }, handler: internals.passthrough(oauth) })),
            { method: '*', path: '/.well-known/openid-configuration', options, handler: internals.passthrough(oauth) },
            // RFC 8414: the same document oidc-provider publishes as OpenID discovery.
            { method: '*', path: '/.well-known/oauth-authorization-server', options, handler: internals.passthrough(oauth, '/.well-known/openid-configuration') }
        ];
    },

    page(h: ResponseToolkit, html: string, status = 200): ResponseObject {

        return h.response(html).code(status).type('text/html; charset=utf-8')
            .header('Cache-Control', 'no-store')
            .header('X-Frame-Options', 'DENY')
            .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
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

    consentView(found: FoundInteraction, extra: { email?: string; error?: string } = {}): string {

        const name = found.client.clientName ?? found.client.clientId ?? messages.oauth.unknownClient;
        const redirectUri = typeof found.details.params.redirect_uri === 'string' ? found.details.params.redirect_uri : null;
        return consentPage({ action: `${oauthPaths.interaction}/${found.details.uid}`, clientName: name, redirectUri, ...extra });
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

                    const found = await internals.interaction(oauth, request);
                    return found ? internals.page(h, internals.consentView(found)) : internals.page(h, errorPage(messages.oauth.expired), 400);
                }
            },
            {
                method: 'POST',
                path,
                options: { auth: false, payload: { parse: true, allow: 'application/x-www-form-urlencoded', maxBytes: 16 * 1024 } },
                async handler(request, h) {

                    const found = await internals.interaction(oauth, request);
                    if (!found) {
                        return internals.page(h, errorPage(messages.oauth.expired), 400);
                    }

                    const form = (request.payload ?? {}) as Record<string, unknown>;
                    const { provider, details } = found;
                    let result: Parameters<Provider['interactionResult']>[2];
                    if (form.decision !== 'allow') {
                        result = { error: 'access_denied', error_description: messages.oauth.denied };
                    }
                    else {
                        const email = typeof form.email === 'string' ? form.email : '';
                        const password = typeof form.password === 'string' ? form.password : '';
                        const user = await signIn(deps, { email, password });
                        if (!user) {
                            return internals.page(h, internals.consentView(found, { email, error: messages.oauth.invalidCredentials }), 401);
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
    const urls = internals.urls(server, options.publicUrl);
    const oauth = createOAuthServer(deps, { issuer: urls.base, resource: urls.resource }, log);
    server.route([
        ...internals.mcpRoutes(deps, oauth, urls, log),
        ...internals.metadataRoutes(urls),
        ...internals.providerRoutes(oauth),
        ...internals.interactionRoutes(deps, oauth, urls)
    ]);
};
