import type { Lifecycle, Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Principal } from '../../core/domain/access.js';
import { isDomainError } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import { tokenPrefix } from '../../core/domain/token.js';
import type { Ports } from '../../core/ports/index.js';
import { chargeRequest } from '../../core/use-cases/charge-request.js';
import { findTokenUser } from '../../core/use-cases/find-token-user.js';
import { principalOfUser } from '../../core/use-cases/principal-of-user.js';
import { bearerToken } from '../http/bearer.js';
import type { PublicUrls } from '../http/public-urls.js';
import { forbiddenHost, hostAllowed, loopbackHosts } from '../http/public-urls.js';
import type { OAuthServer } from '../oauth/provider.js';
import { mcpScope } from '../oauth/provider.js';
import type { ProtectedResource } from '../oauth/routes.js';
import type { McpLog } from './tools.js';
import { createMcpServer } from './tools.js';
import { mcpMessages } from './messages.js';

// The MCP endpoint at {base_url}/mcp (docs/api.md, MCP): stateless streamable HTTP, a new transport
// and server per POST, with JSON answers; authenticated by an OAuth access token issued for
// it, or by an API token (docs/api.md, Access) for clients configured by hand.

declare module '@hapi/hapi' {
    interface RequestApplicationState {
        // Who calls POST /mcp, proved from the headers before the body is read.
        mcpPrincipal?: Principal;
    }
}

const internals = {
    cors: {
        origin: ['*'],
        additionalHeaders: ['mcp-protocol-version', 'mcp-session-id', 'last-event-id'],
        additionalExposedHeaders: ['mcp-session-id', 'www-authenticate'],
        credentials: false
    },

    // Host must name this server; a browser's Origin must be this server or a local client.
    originAllowed(request: Request, urls: PublicUrls): boolean {

        if (!hostAllowed(request, urls)) {
            return false;
        }

        const origin = request.headers.origin;
        if (!origin) {
            return true;
        }

        try {
            const parsed = new URL(origin);
            return parsed.origin === new URL(urls.base()).origin || loopbackHosts.has(parsed.hostname);
        }
        catch {
            return false;
        }
    },

    challenge(
        request: Request,
        h: ResponseToolkit,
        resource: ProtectedResource,
        status: 401 | 403,
        error: 'invalid_token' | 'insufficient_scope' | null,
        message: string
    ): ResponseObject {

        const parts = [`resource_metadata="${resource.metadataUrl(request)}"`, `scope="${mcpScope}"`];
        if (error) {
            parts.unshift(`error="${error}"`);
        }

        return h.response({ error: message }).code(status).header('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
    },

    // Who is calling: an API token or an OAuth access token for this resource. The
    // subscription and the rate limits are checked per tool call (chargeRequest).
    async authenticate(deps: Ports, oauth: OAuthServer, token: string): Promise<Principal | 'insufficient_scope' | null> {

        if (token.startsWith(tokenPrefix)) {
            try {
                return await findTokenUser(deps, token);
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

    // Runs before hapi reads the body (onPreAuth): a caller with no valid token is answered from
    // its headers alone, never left holding the connection while a body it announced trickles
    // in (or never comes) until the payload times out.
    gate(deps: Ports, oauth: OAuthServer, urls: PublicUrls, resource: ProtectedResource): Lifecycle.Method {

        return async (request, h) => {

            if (!internals.originAllowed(request, urls)) {
                return forbiddenHost(h).takeover();
            }

            const token = bearerToken(request.headers.authorization);
            const principal = token ? await internals.authenticate(deps, oauth, token) : null;
            if (principal === 'insufficient_scope') {
                return internals.challenge(request, h, resource, 403, 'insufficient_scope', mcpMessages.insufficientScope).takeover();
            }

            if (!principal) {
                return internals.challenge(request, h, resource, 401, token ? 'invalid_token' : null, messages.unauthenticated).takeover();
            }

            request.app.mcpPrincipal = principal;
            return h.continue;
        };
    },

    routes(deps: Ports, oauth: OAuthServer, urls: PublicUrls, resource: ProtectedResource, log: McpLog): ServerRoute[] {

        const notAllowed = (_request: Request, h: ResponseToolkit) => h.response({ error: mcpMessages.postOnly }).code(405).header('Allow', 'POST');
        return [
            {
                method: 'POST',
                path: resource.path,
                options: {
                    auth: false,
                    cors: internals.cors,
                    payload: { parse: false, output: 'data', maxBytes: 1024 * 1024 },
                    ext: { onPreAuth: { method: internals.gate(deps, oauth, urls, resource) } }
                },
                async handler(request, h) {

                    const principal = request.app.mcpPrincipal!;

                    // The request log says who called which tool (servers/http/logging.ts).
                    const caller: { userId: number; accountId: number; tool?: string } = { userId: principal.userId, accountId: principal.accountId };
                    request.app.caller = caller;
                    const server = createMcpServer(deps, () => chargeRequest(deps, principal), log, (tool) => (caller.tool = tool));
                    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
                    try {
                        await server.connect(transport);
                        const headers = new Headers();
                        for (const [name, value] of Object.entries(request.headers)) {
                            headers.set(name, String(value));
                        }

                        const body = request.payload as Buffer | null;
                        const answer = await transport.handleRequest(new Request(resource.url(), {
                            method: 'POST',
                            headers,
                            body: body?.length ? body : null
                        }));
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
            { method: 'GET', path: resource.path, options: { auth: false, cors: internals.cors }, handler: notAllowed },
            { method: 'DELETE', path: resource.path, options: { auth: false, cors: internals.cors }, handler: notAllowed }
        ];
    }
};

export const mcpTransportRoutes = (
    deps: Ports,
    oauth: OAuthServer,
    urls: PublicUrls,
    resource: ProtectedResource,
    log: McpLog
): ServerRoute[] => internals.routes(deps, oauth, urls, resource, log);
