import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Ports } from '../../core/ports/index.js';
import { chargeRequest } from '../../core/use-cases/charge-request.js';
import { findTokenUser } from '../../core/use-cases/find-token-user.js';
import type { McpLog } from './tools.js';
import { createMcpServer } from './tools.js';

// The same tools over stdio for local clients, acting as the user of an API token. The token
// is checked once at start (a clear failure instead of a silent server) and again on every
// tool call, so a revoked token or a paused subscription takes effect at once.
export const serveStdio = async (deps: Ports, token: string, log: McpLog): Promise<Server> => {

    await findTokenUser(deps, token);
    const server = createMcpServer(deps, async () => chargeRequest(deps, await findTokenUser(deps, token)), log);
    await server.connect(new StdioServerTransport());
    return server;
};
