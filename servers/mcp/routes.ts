import type { Server } from '@hapi/hapi';
import type { Ports } from '../../core/ports/index.js';
import { publicUrls } from '../http/public-urls.js';
import { protectedResource, registerOAuth } from '../oauth/routes.js';
import type { McpLog } from './tools.js';
import { mcpTransportRoutes } from './transport.js';

// The MCP endpoint over HTTP and the OAuth 2.1 authorization server that issues its tokens.

export interface McpRouteOptions {
    // {base_url}; by default the address the server listens on, known once started. Every
    // URL the service publishes comes from it, never from the request.
    publicUrl?: string | undefined;
    // Where unexpected errors go: the server's logger, so its redaction applies.
    log: McpLog;
    // How many reverse proxies stand in front (TRUST_PROXY): only then are forwarded headers
    // believed, for the client address and the host asked for.
    trustProxy?: number | undefined;
    // At most this many registered clients (OAUTH_MAX_CLIENTS).
    maxClients?: number | undefined;
    // Private-use redirect schemes accepted at registration (OAUTH_REDIRECT_SCHEMES).
    redirectSchemes?: readonly string[] | undefined;
}

export const registerMcp = (server: Server, deps: Ports, options: McpRouteOptions): void => {

    const { log } = options;
    const urls = publicUrls(server, options.publicUrl, options.trustProxy ?? 0);
    const resource = protectedResource(urls, '/mcp', 'arcasync MCP');
    const oauth = registerOAuth(server, deps, urls, resource, { log, maxClients: options.maxClients, redirectSchemes: options.redirectSchemes });
    server.route(mcpTransportRoutes(deps, oauth, urls, resource, log));
};
