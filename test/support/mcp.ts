import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import type { TestServer } from './server.js';

// An MCP client on a started test server's /mcp with a bearer token, and a tool call that must
// succeed: its text (every text item) and its structuredContent.

export const connectMcp = async (server: TestServer, token: string): Promise<Client> => {

    const client = new Client({ name: 'prueba', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } }
    }));
    return client;
};

export const callTool = async (
    client: Client,
    name: string,
    args: Record<string, unknown>
): Promise<{ text: string; structured: Record<string, unknown> }> => {

    const result = await client.callTool({ name, arguments: args }) as CallToolResult;
    const text = result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
    expect(result.isError, text).to.not.equal(true);
    return { text, structured: result.structuredContent as Record<string, unknown> };
};
