import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { testDatabases } from '../../support/databases.js';
import { authorize, consentTo, followToClient, listTools, MemoryOAuthProvider, oauthTest, rawRequest, register, startOAuthTestServer, submit, tokenRequest } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// What real MCP clients do that the authorization server must go along with (compatibility
// issue, items 2-5): reaching the server by another loopback name, custom-scheme redirect
// URIs, authorization requests without a scope, and CORS preflights of discovery.

for (const database of testDatabases()) {

    describe(`MCP clients as they are (${database.name})`, () => {

        let server: TestServer;
        let email: string;

        before(async () => {

            ({ server, email } = await startOAuthTestServer(database));
        });

        after(async () => {

            await server.stop();
        });

        it('lets the SDK client in through localhost when the server is 127.0.0.1, and never through a foreign name (item 2)', async () => {

            const port = new URL(server.url).port;
            const mcpUrl = new URL(`http://localhost:${port}/mcp`);
            const provider = new MemoryOAuthProvider('http://127.0.0.1:54321/callback');
            expect(await auth(provider, { serverUrl: mcpUrl })).to.equal('REDIRECT');
            const back = await consentTo(server, provider.authorizationUrl!, { email, password: oauthTest.password, decision: 'allow' });
            expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: back.searchParams.get('code')! })).to.equal('AUTHORIZED');

            const client = new Client({ name: 'prueba', version: '1.0.0' });
            await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
            try {
                expect((await client.listTools()).tools).to.have.length(5);
            }
            finally {
                await client.close();
            }

            const challenge = await rawRequest(server, '/mcp', { method: 'POST', headers: { host: `localhost:${port}`, 'content-type': 'application/json' }, body: '{}' });
            expect(challenge.headers['www-authenticate']).to.contain(`resource_metadata="http://localhost:${port}/.well-known/oauth-protected-resource/mcp"`);
            expect((await rawRequest(server, '/.well-known/oauth-protected-resource/mcp', { headers: { host: 'evil.example' } })).status).to.equal(403);

            // With a PUBLIC_URL that is no loopback address, a loopback name gets PUBLIC_URL's.
            const published = await startTestServer(database, { env: { ...writeServerEnv, PUBLIC_URL: 'https://arcasync.example' } });
            try {
                const local = await rawRequest(published, '/.well-known/oauth-protected-resource/mcp', { headers: { host: `localhost:${new URL(published.url).port}` } });
                expect(local.body.resource).to.equal('https://arcasync.example/mcp');
            }
            finally {
                await published.stop();
            }
        });

        it('accepts private-use URI scheme redirects and refuses dangerous ones (item 3)', async () => {

            const cursor = 'cursor://anysphere.cursor-retrieval/oauth/user-arcasync/callback';
            const clientId = await register(server, { redirect_uris: [cursor] });
            const { flow, location } = await authorize(server, clientId, { redirect_uri: cursor });
            const consent = await submit(flow, location, { email, password: oauthTest.password, decision: 'allow' });
            const back = await followToClient(flow, consent.headers.get('location')!);
            expect(`${back.protocol}//${back.host}${back.pathname}`).to.equal(cursor);
            expect(back.searchParams.get('code')).to.be.a('string');

            for (const uri of ['javascript:alert(1)//', 'data:text/html,hola', 'file:///etc/passwd', 'http://example.com/callback', 'vbscript:msgbox(1)']) {
                const res = await server.request('/oauth/register', { method: 'POST', body: { redirect_uris: [uri], token_endpoint_auth_method: 'none' } });
                expect(res.status, uri).to.equal(400);
                expect(res.body.error, uri).to.equal('invalid_redirect_uri');
            }
        });

        it('grants service:read when the authorization request names no scope (item 4)', async () => {

            const clientId = await register(server);
            const { flow, location } = await authorize(server, clientId, { scope: '' });
            const consent = await submit(flow, location, { email, password: oauthTest.password, decision: 'allow' });
            const back = await followToClient(flow, consent.headers.get('location')!);
            expect(back.searchParams.get('error'), back.toString()).to.equal(null);
            const tokens = await tokenRequest(server, { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: flow.redirectUri, client_id: clientId, code_verifier: flow.verifier, resource: `${server.url}/mcp` });
            expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
            expect(tokens.body.scope).to.equal('service:read');
            expect(await listTools(server, tokens.body.access_token)).to.have.length(5);
        });

        it('answers the CORS preflights of discovery asking for mcp-protocol-version (item 5)', async () => {

            for (const path of [
                '/.well-known/oauth-protected-resource/mcp',
                '/.well-known/oauth-protected-resource',
                '/.well-known/oauth-authorization-server'
            ]) {
                const preflight = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' } });
                expect(preflight.status, `${path}: ${await preflight.clone().text()}`).to.be.within(200, 204);
                expect(preflight.headers.get('access-control-allow-headers'), path).to.match(/mcp-protocol-version/i);

                const get = await fetch(`${server.url}${path}`, { headers: { origin: 'http://localhost:6274', 'mcp-protocol-version': '2025-06-18' } });
                expect(get.status, path).to.equal(200);
                expect(get.headers.get('access-control-allow-origin'), path).to.be.oneOf(['*', 'http://localhost:6274']);
            }
        });
    });
}
