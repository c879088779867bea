import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../../app/logger.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import { grant, listTools, oauthTest, register, tokenRequest } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// What an operator alerts on: every request (REST, MCP, OAuth, docs, health) leaves exactly
// one request line under its request id; error-level lines come only from real failures; each
// line is one JSON object with one `level`. Driven over every route family, the OAuth flow
// included, with no unhandled rejection on the way.

for (const database of testDatabases()) {

    describe(`the log contract over every route family (${database.name})`, function () {

        this.timeout(60_000);
        const raw: string[] = [];
        const requests: { id: string; method: string; path: string }[] = [];
        const rejections: unknown[] = [];
        const onRejection = (reason: unknown) => rejections.push(reason);
        let server: TestServer;

        before(async () => {

            process.on('unhandledRejection', onRejection);
            const sink = new Writable({
                write(chunk: Buffer, _encoding, done) {

                    raw.push(...chunk.toString().split('\n').filter(Boolean));
                    done();
                }
            });
            server = await startTestServer(database, { env: writeServerEnv, logger: createLogger({ level: 'debug', destination: sink }) });
            // After the logging's own onRequest, which gives the request its id.
            server.server.ext('onRequest', (request, h) => {

                requests.push({ id: request.info.id, method: request.method.toUpperCase(), path: request.path });
                return h.continue;
            });
        });

        after(async () => {

            process.off('unhandledRejection', onRejection);
            await server.stop();
        });

        const lines = () => raw.map((text) => JSON.parse(text) as Record<string, unknown>);
        const requestLines = () => lines().filter((line) => line.req);

        it('one line per request, no error line, no unhandled rejection', async () => {

            const user = await seedAccount(server.app.ports, { writing: true });
            await addClient(server.app.ports, user.accountId, { cuit: '20-12345678-6' });
            await setPassword(server.app.ports, { userId: user.userId, password: oauthTest.password });
            const email = (await server.app.ports.users.findById(user.userId))!.email;

            // REST: answers and refusals.
            await server.request('/v1/cuits', { token: user.token });
            await server.request('/v1/cuits/20123456786/sct', { token: user.token });
            await server.request('/v1/cuits/1/sct', { token: user.token });
            await server.request('/v1/tags');
            await server.request('/v1/cuits', { token: user.token, method: 'POST', body: { tipo: 'persona-fisica' } });
            await server.request('/no-existe');
            // Health and docs.
            await server.request('/healthcheck');
            await server.request('/docs');
            await server.request('/openapi.json');
            // OAuth: discovery, keys, registration, the whole grant, refresh, a refused token request.
            await server.request('/.well-known/oauth-authorization-server');
            await server.request('/.well-known/openid-configuration');
            await server.request('/.well-known/oauth-protected-resource/mcp');
            await server.request('/oauth/jwks');
            const clientId = await register(server);
            const tokens = await grant(server, clientId, email);
            expect((await tokenRequest(server, {
                grant_type: 'refresh_token',
                refresh_token: tokens.refresh_token,
                client_id: clientId
            })).status).to.equal(200);
            expect((await tokenRequest(server, {
                grant_type: 'authorization_code',
                code: 'no-existe',
                client_id: clientId,
                redirect_uri: oauthTest.redirect,
                code_verifier: 'x'.repeat(43)
            })).status).to.equal(400);
            // MCP with the OAuth token and with the API token.
            expect(await listTools(server, tokens.access_token)).to.include('listar_cuits');
            expect(await listTools(server, user.token)).to.include('listar_cuits');
            await server.request('/mcp', { method: 'GET' });

            expect(rejections).to.deep.equal([]);
            const families = new Set(requests.map((request) => request.path.split('/')[1]));
            expect([...families]).to.include.members(['v1', 'healthcheck', 'docs', 'openapi.json', '.well-known', 'oauth', 'mcp', 'no-existe']);
            for (const request of requests) {
                const matching = requestLines().filter((line) => line.requestId === request.id);
                expect(matching, `${request.method} ${request.path}`).to.have.length(1);
                expect(matching[0]!.req).to.deep.equal({ method: request.method, path: request.path });
            }

            expect(requestLines()).to.have.length(requests.length);
            const oauthLines = requestLines().filter((line) => String((line.req as { path: string }).path).startsWith('/oauth/'));
            expect(oauthLines.map((line) => (line.res as { statusCode: number }).statusCode)).to.include.members([201, 303, 200, 400]);
            expect(lines().filter((line) => Number(line.level) >= 50), 'error lines').to.deep.equal([]);
            expect(lines().find((line) => (line.req as { path: string }).path === '/healthcheck')).to.include({ level: 20 });
        });

        it('a real failure is an error line, once per key: one level, one msg', async () => {

            const user = await seedAccount(server.app.ports);
            const tags = server.app.ports.tags;
            const list = tags.list;
            tags.list = () => Promise.reject(new Error('fallo de prueba'));
            try {
                const res = await server.request('/v1/tags', { token: user.token, headers: { 'x-request-id': 'falla-1' } });
                expect(res.status).to.equal(500);
            }
            finally {
                tags.list = list;
            }

            const failing = raw.filter((text) => text.includes('"falla-1"'));
            expect(failing.length).to.equal(2);
            for (const text of raw) {
                expect(text.match(/"level":/g), text).to.have.length(1);
                expect(text.match(/"msg":/g), text).to.have.length(1);
            }

            const errors = failing.map((text) => JSON.parse(text) as Record<string, unknown>).filter((line) => line.level === 50);
            expect(errors.map((line) => line.msg)).to.have.members(
                ['GET /v1/tags 500 (' + String(errors.find((line) => line.req)!.responseTime) + 'ms)', 'request failed']
            );
        });
    });
}
