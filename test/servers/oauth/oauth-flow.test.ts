import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { texts } from '../../../servers/oauth/texts.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import { authorize, followToClient, form, grant, listTools, mcpStatus, oauthTest, register, submit, tokenRequest } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';
import { mcpMessages } from '../../../servers/mcp/messages.js';
import { databaseOf } from '../../support/app.js';

// The OAuth 2.1 authorization server of the MCP endpoint, driven with plain HTTP as a native
// client would (the browser consent is in oauth-browser.test.ts): discovery, dynamic
// registration, PKCE S256, the sign-in and consent form, code exchange, refresh rotation,
// revocation, resource binding and scope.

for (const database of testDatabases()) {

    describe(`OAuth 2.1 for the MCP endpoint (${database.name})`, () => {

        let server: TestServer;
        let user: SeededUser;
        let email: string;
        let clientId: string;

        before(async () => {

            server = await startTestServer(database, { env: writeServerEnv });
            user = await seedAccount(server.app.ports);
            await addClient(server.app.ports, user.accountId, { cuit: '20-12345678-6' });
            await setPassword(server.app.ports, { userId: user.userId, password: oauthTest.password });
            email = (await server.app.ports.users.findById(user.userId))!.email;
            clientId = await register(server);
        });

        after(async () => {

            await server.stop();
        });

        it('publishes the authorization-server metadata (RFC 8414) with CORS', async () => {

            const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`, { headers: { origin: 'http://localhost:6274' } });
            expect(res.status).to.equal(200);
            expect(res.headers.get('access-control-allow-origin')).to.be.oneOf(['*', 'http://localhost:6274']);
            const metadata = await res.json() as Record<string, any>;
            expect(metadata.issuer).to.equal(server.url);
            expect(metadata.code_challenge_methods_supported).to.deep.equal(['S256']);
            expect(metadata.response_types_supported).to.deep.equal(['code']);
            expect(metadata.grant_types_supported).to.include.members(['authorization_code', 'refresh_token']);
            expect(metadata.scopes_supported).to.include('service:read');
            expect(metadata.authorization_endpoint).to.equal(`${server.url}/oauth/authorize`);
            expect(metadata.token_endpoint).to.equal(`${server.url}/oauth/token`);
            expect(metadata.registration_endpoint).to.equal(`${server.url}/oauth/register`);
            expect(metadata.revocation_endpoint).to.equal(`${server.url}/oauth/revoke`);
        });

        it('answers CORS preflights on the registration and token endpoints', async () => {

            for (const path of ['/oauth/register', '/oauth/token']) {
                const res = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
                expect(res.status, path).to.be.within(200, 204);
                expect(res.headers.get('access-control-allow-origin'), path).to.be.oneOf(['*', 'http://localhost:6274']);
            }
        });

        it('registers a native client with a loopback redirect URI and accepts it on any port', async () => {

            const res = await server.request('/oauth/register', { method: 'POST', body: { redirect_uris: ['http://localhost/cb'], token_endpoint_auth_method: 'none' } });
            expect(res.status).to.equal(201);
            expect(res.body.application_type).to.equal('native');
            expect(res.body.grant_types).to.include('refresh_token');
            const { location } = await authorize(server, res.body.client_id, { redirect_uri: 'http://localhost:61234/cb' });
            expect(location).to.match(/^\/oauth\/interaction\//);

            const plainHttp = await server.request('/oauth/register', { method: 'POST', body: { redirect_uris: ['http://example.com/cb'], token_endpoint_auth_method: 'none' } });
            expect(plainHttp.status).to.equal(400);
        });

        it('issues tokens bound to /mcp after sign-in and consent; they work there and nowhere else', async () => {

            const tokens = await grant(server, clientId, email);
            expect(tokens.token_type).to.equal('Bearer');
            expect(tokens.scope).to.contain('service:read');
            expect(tokens.expires_in).to.be.within(60, 3600);
            expect(tokens.refresh_token).to.be.a('string');

            expect(await listTools(server, tokens.access_token)).to.have.length(5);
            const rest = await server.request('/v1/cuits', { token: tokens.access_token });
            expect(rest.status).to.equal(401);
            expect(rest.body).to.deep.equal({ error: messages.unauthenticated });
        });

        it('requires PKCE with S256', async () => {

            for (const params of [{ code_challenge: '', code_challenge_method: '' }, { code_challenge_method: 'plain' }] as Record<string, string>[]) {
                const { location, response } = await authorize(server, clientId, params);
                const target = new URL(location || 'http://x/', server.url);
                expect(response.status).to.be.within(300, 399);
                expect(target.searchParams.get('error'), JSON.stringify(params)).to.equal('invalid_request');
            }

            // A verifier that does not match the challenge is refused at the token endpoint.
            const { flow, location } = await authorize(server, clientId);
            const consent = await submit(flow, location, { email, password: oauthTest.password, decision: 'allow' });
            const back = await followToClient(flow, consent.headers.get('location')!);
            const wrong = await tokenRequest(server, {
                grant_type: 'authorization_code',
                code: back.searchParams.get('code')!,
                redirect_uri: flow.redirectUri,
                client_id: clientId,
                code_verifier: randomBytes(32).toString('base64url')
            });
            expect(wrong.status).to.equal(400);
            expect(wrong.body.error).to.equal('invalid_grant');
        });

        it('shows the sign-in and consent page in Spanish and refuses a wrong password', async () => {

            const { flow, location } = await authorize(server, clientId);
            const page = await fetch(new URL(location, server.url), { headers: { cookie: flow.jar.header() } });
            expect(page.status).to.equal(200);
            const html = await page.text();
            expect(html).to.contain('Cliente de prueba');
            expect(html).to.contain(texts.scopeNoWrite);
            expect(html).to.not.contain('<script');

            const refused = await submit(flow, location, { email, password: 'otra-clave-cualquiera', decision: 'allow' });
            expect(refused.status).to.equal(401);
            expect(await refused.text()).to.contain(texts.invalidCredentials);
        });

        it('returns access_denied to the client when the user denies', async () => {

            const { flow, location } = await authorize(server, clientId);
            const denied = await submit(flow, location, { decision: 'deny' });
            expect(denied.status).to.equal(303);
            const back = await followToClient(flow, denied.headers.get('location')!);
            expect(`${back.origin}${back.pathname}`).to.equal(flow.redirectUri);
            expect(back.searchParams.get('error')).to.equal('access_denied');
            expect(back.searchParams.get('state')).to.equal('estado-123');
        });

        it('rotates refresh tokens: the new pair works, the used refresh token does not', async () => {

            const first = await grant(server, clientId, email);
            const refreshed = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId });
            expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
            expect(refreshed.body.refresh_token).to.be.a('string').and.not.equal(first.refresh_token);
            expect(await listTools(server, refreshed.body.access_token)).to.have.length(5);

            const reused = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: clientId });
            expect(reused.status).to.equal(400);
            expect(reused.body.error).to.equal('invalid_grant');
        });

        it('refuses revoked tokens', async () => {

            const tokens = await grant(server, clientId, email);
            const revoke = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ token: tokens.access_token, client_id: clientId }) });
            expect(revoke.status).to.equal(200);
            const refused = await mcpStatus(server, tokens.access_token);
            expect(refused.status).to.equal(401);
            expect(refused.challenge).to.match(/^Bearer error="invalid_token"/);

            const revokeRefresh = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ token: tokens.refresh_token, client_id: clientId }) });
            expect(revokeRefresh.status).to.equal(200);
            const refresh = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
            expect(refresh.body.error).to.equal('invalid_grant');
        });

        it('refuses an expired access token', async () => {

            const tokens = await grant(server, clientId, email);
            expect((await mcpStatus(server, tokens.access_token)).status).to.equal(200);
            await databaseOf(server.app)('oauth_entries').where({ kind: 'AccessToken' }).update({ expires_at: Date.now() - 1000 });
            const refused = await mcpStatus(server, tokens.access_token);
            expect(refused.status).to.equal(401);
            expect(refused.body).to.deep.equal({ error: messages.unauthenticated });
        });

        it('refuses a token without service:read with 403 insufficient_scope', async () => {

            const tokens = await grant(server, clientId, email, { scope: 'openid' });
            expect(tokens.scope ?? '').to.not.contain('service:read');
            const refused = await mcpStatus(server, tokens.access_token);
            expect(refused.status).to.equal(403);
            expect(refused.challenge).to.match(/^Bearer error="insufficient_scope", resource_metadata=".+", scope="service:read"$/);
            expect(refused.body).to.deep.equal({ error: mcpMessages.insufficientScope });
        });

        it('issues no token for another resource', async () => {

            const { location } = await authorize(server, clientId, { resource: 'https://otro.example/mcp' });
            const target = new URL(location, server.url);
            expect(target.searchParams.get('error')).to.equal('invalid_target');

            const tokens = await grant(server, clientId, email);
            const other = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, resource: 'https://otro.example/mcp' });
            expect(other.status).to.equal(400);
            expect(other.body.error).to.equal('invalid_target');
        });

        it('keeps the per-user rules for OAuth tokens: subscription 403 and the shared rate limits', async () => {

            const tokens = await grant(server, clientId, email);
            const client = new Client({ name: 'prueba', version: '1.0.0' });
            await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
            try {
                const ok = await client.callTool({ name: 'listar_cuits', arguments: {} });
                expect(ok.isError).to.not.equal(true);
                const foreign = await client.callTool({ name: 'consultar_sct', arguments: { cuit: '30-71234567-1' } });
                expect(foreign.isError).to.equal(true);
                expect((foreign.content as { text: string }[])[0]!.text).to.equal(messages.notFound);

                await server.app.ports.accounts.update(user.accountId, { subscription: 'paused' });
                const paused = await client.callTool({ name: 'listar_cuits', arguments: {} });
                expect(paused.isError).to.equal(true);
                expect((paused.content as { text: string }[])[0]!.text).to.equal(messages.subscriptionPaused);
            }
            finally {
                await server.app.ports.accounts.update(user.accountId, { subscription: 'active' });
                await client.close();
            }

            // The same counter as the user's API tokens: one REST request, one tool call.
            const windowStart = await databaseOf(server.app)('rate_limits').where({ user_id: user.userId }).first();
            expect(Number(windowStart.minute_count)).to.be.at.least(2);
        });
    });
}
