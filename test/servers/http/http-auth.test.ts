import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { createToken } from '../../../core/use-cases/staff/create-token.js';
import { revokeToken } from '../../../core/use-cases/staff/revoke-token.js';
import { updateAccount } from '../../../core/use-cases/staff/update-account.js';
import { testDatabases } from '../../support/databases.js';
import { readEndpoints } from '../../support/endpoints.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { injectServer, startTestServer } from '../../support/server.js';
import type { MemoryPorts } from '../../support/memory-ports.js';
import { memoryPorts } from '../../support/memory-ports.js';
import { httpMessages } from '../../../servers/http/messages.js';
import { databaseOf } from '../../support/app.js';

// docs/api.md, Endpoints, Access and Errors: the health check, bearer tokens, subscription states, unknown routes
// and internal errors over HTTP. What the database holds (a revoked token, an account's live
// flags, the shared counter) and its failures run on both databases.

// What the transport and the core decide, the same on any database: checked once, on the
// in-memory ports (test/support/memory-ports.ts), requests injected.
describe('HTTP access rules: health check, tokens, subscription, unknown routes (in memory)', () => {

    let memory: MemoryPorts;
    let api: Awaited<ReturnType<typeof injectServer>>;

    before(async () => {

        memory = memoryPorts();
        api = await injectServer(memory.ports);
    });

    after(async () => {

        await api.stop();
    });

    beforeEach(() => {

        // Each test starts a fresh minute: the per-minute limit is not what these test.
        memory.clock.advance(60_000);
    });

    describe('GET /healthcheck', () => {

        it('answers 200 text/plain OK without a token', async () => {

            const res = await api.request('/healthcheck');
            expect(res.status).to.equal(200);
            expect(res.headers.get('content-type')).to.match(/^text\/plain/);
            expect(res.text).to.equal('OK');
        });

        it('never answers 401, 403 or 429 and consumes no quota, whatever token comes with it', async () => {

            const user = await seedAccount(memory.ports);
            const paused = await seedAccount(memory.ports, { subscription: 'paused' });
            for (let i = 0; i < 150; ++i) {
                const token = [user.token, 'garbage', paused.token, null][i % 4];
                const res = await api.request('/healthcheck', { token });
                expect(res.status, `healthcheck #${i + 1}`).to.equal(200);
            }

            // 150 health checks carrying the user's token left its quota untouched.
            const res = await api.request('/v1/cuits/20123456786/sct', { token: user.token });
            expect(res.status).to.equal(404);
            expect([...memory.world.counts].filter(([key]) => key.startsWith(`${user.userId}:`)).map(([, count]) => count)).to.deep.equal([1, 1]);
        });
    });

    describe('401', () => {

        const unauthenticated = { error: 'Token de acceso ausente o inválido.' };

        it('answers the message verbatim when the header is missing', async () => {

            const res = await api.request('/v1/cuits');
            expect(res.status).to.equal(401);
            expect(res.body).to.deep.equal(unauthenticated);
            expect(messages.unauthenticated).to.equal(unauthenticated.error);
        });

        it('answers 401 for a malformed Authorization header', async () => {

            const user = await seedAccount(memory.ports);
            for (const header of [user.token, `Basic ${user.token}`, 'Bearer', 'Bearer ', `Bearer ${user.token} extra`, `Token ${user.token}`]) {
                const res = await api.request('/v1/cuits', { headers: { authorization: header } });
                expect(res.status, header).to.equal(401);
                expect(res.body, header).to.deep.equal(unauthenticated);
            }
        });

        it('answers 401 for an unknown token, even one with the right prefix', async () => {

            const user = await seedAccount(memory.ports);
            for (const token of ['asy_desconocido', `${user.token}x`, user.token.slice(0, -1)]) {
                const res = await api.request('/v1/cuits', { token });
                expect(res.status).to.equal(401);
                expect(res.body).to.deep.equal(unauthenticated);
            }
        });

        it('answers 401 on every read endpoint, before validating the request', async () => {

            for (const path of [...readEndpoints('20123456786'), '/v1/cuits?limit=0', '/v1/cuits/123/sct']) {
                const res = await api.request(path, { token: 'asy_nadie' });
                expect(res.status, path).to.equal(401);
                expect(res.body, path).to.deep.equal(unauthenticated);
            }
        });
    });

    describe('403 subscription', () => {

        const cuit = '20123456786';

        it('answers the paused message on every read endpoint', async () => {

            const user = await seedAccount(memory.ports, { subscription: 'paused' });
            await addClient(memory.ports, user.accountId, { cuit });
            for (const path of readEndpoints(cuit)) {
                const res = await api.request(path, { token: user.token });
                expect(res.status, path).to.equal(403);
                expect(res.body, path).to.deep.equal({ error: messages.subscriptionPaused });
            }
        });

        for (const state of ['ended', 'inactive']) {
            it(`answers the ended-or-never-activated message on every read endpoint (${state})`, async () => {

                const user = await seedAccount(memory.ports, { subscription: state });
                await addClient(memory.ports, user.accountId, { cuit });
                for (const path of readEndpoints(cuit)) {
                    const res = await api.request(path, { token: user.token });
                    expect(res.status, path).to.equal(403);
                    expect(res.body, path).to.deep.equal({ error: messages.subscriptionInactive });
                }
            });
        }

        it('tells the two causes apart, both pointing to the subscription page', () => {

            expect(messages.subscriptionPaused).to.not.equal(messages.subscriptionInactive);
            expect(messages.subscriptionPaused).to.match(/pago/);
            expect(messages.subscriptionPaused).to.match(/suscripción/);
            expect(messages.subscriptionInactive).to.match(/suscripción/);
        });

    });

    describe('errors', () => {

        it('answers a Spanish JSON 404 for unknown routes, with or without a token', async () => {

            const user = await seedAccount(memory.ports);
            for (const [path, token] of [
                ['/v1/nada', null],
                ['/v1/nada', user.token],
                ['/', null],
                ['/v2/cuits', user.token],
                ['/v1/cuits/20123456786/otra-cosa', user.token]
            ] as const) {
                const res = await api.request(path, { token });
                expect(res.status, path).to.equal(404);
                expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
                expect(res.body, path).to.deep.equal({ error: httpMessages.routeNotFound });
            }
        });
        it('answers a Spanish 405 naming the allowed methods for a known path and another method', async () => {

            const user = await seedAccount(memory.ports);
            for (const [method, path, allow] of [
                ['PUT', '/v1/cuits', 'GET, POST'],
                ['DELETE', '/v1/tags', 'GET'],
                ['POST', '/v1/cuits/20123456786/sct', 'GET'],
                ['PUT', '/v1/cuits/20123456786', 'PATCH, DELETE'],
                ['POST', '/healthcheck', 'GET']
            ] as const) {
                for (const token of [null, user.token]) {
                    const res = await api.request(path, { method, token });
                    expect(res.status, `${method} ${path}`).to.equal(405);
                    expect(res.headers.get('allow'), `${method} ${path}`).to.equal(allow);
                    expect(res.body, `${method} ${path}`).to.deep.equal({ error: httpMessages.methodNotAllowed });
                }
            }
        });


        it('answers every error as a JSON object with a single Spanish error key', async () => {

            const user = await seedAccount(memory.ports);
            for (const [path, token, status] of [
                ['/v1/cuits', null, 401],
                ['/v1/cuits?limit=0', user.token, 400],
                ['/v1/cuits/20123456786/sct', user.token, 404]
            ] as const) {
                const res = await api.request(path, { token });
                expect(res.status).to.equal(status);
                expect(res.headers.get('content-type')).to.match(/^application\/json/);
                expect(Object.keys(res.body)).to.deep.equal(['error']);
                expect(res.body.error).to.be.a('string').and.not.empty;
            }
        });
    });
});

for (const database of testDatabases()) {

    describe(`HTTP access rules (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database);
        });

        after(async () => {

            await server.stop();
        });

        beforeEach(() => {

            // Each test starts a fresh minute: the per-minute limit is not what these test.
            server.clock.advance(60_000);
        });

        describe('tokens and subscriptions as the database holds them', () => {

            const cuit = '20123456786';

            it('answers 401 on the next request after the token is revoked, and only for that token', async () => {

                const user = await seedAccount(server.app.ports);
                const second = await createToken(server.app.ports, { userId: user.userId, name: 'otra integración' });
                expect((await server.request('/v1/cuits', { token: second.token })).status).to.equal(200);

                await revokeToken(server.app.ports, { id: second.id });
                const res = await server.request('/v1/cuits', { token: second.token });
                expect(res.status).to.equal(401);
                expect(res.body).to.deep.equal({ error: messages.unauthenticated });
                expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(200);
            });

            it('gives access back on the next request once the subscription is active, with the same token', async () => {

                const user = await seedAccount(server.app.ports, { subscription: 'paused' });
                await addClient(server.app.ports, user.accountId, { cuit });
                expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(403);

                await updateAccount(server.app.ports, { id: user.accountId, subscription: 'active' });
                for (const path of readEndpoints(cuit)) {
                    const res = await server.request(path, { token: user.token });
                    expect(res.status, path).to.equal(200);
                }

                await updateAccount(server.app.ports, { id: user.accountId, subscription: 'ended' });
                const res = await server.request('/v1/cuits', { token: user.token });
                expect(res.status).to.equal(403);
                expect(res.body).to.deep.equal({ error: messages.subscriptionInactive });
            });

            it('does not count refused requests against the rate limit', async () => {

                const user = await seedAccount(server.app.ports, { subscription: 'paused' });
                for (let i = 0; i < 3; ++i) {
                    expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(403);
                }

                expect(await databaseOf(server.app)('rate_limits').where({ user_id: user.userId }).first()).to.equal(undefined);
            });
        });
    });

    describe(`HTTP internal errors (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database);
        });

        after(async () => {

            await server.stop();
        });

        it('answers 500 "Error interno del servidor." without leaking what failed', async () => {

            const user = await seedAccount(server.app.ports);
            await databaseOf(server.app).schema.renameTable('tags', 'tags_gone');
            const res = await server.request('/v1/tags', { token: user.token });
            expect(res.status).to.equal(500);
            expect(res.body).to.deep.equal({ error: 'Error interno del servidor.' });
            expect(res.text).to.not.match(/tags|select|sql|stack|at /i);
        });

        it('answers 500 when the database pool is gone, even on the token check; the health check says so', async () => {

            const user = await seedAccount(server.app.ports);
            await databaseOf(server.app).destroy();
            const res = await server.request('/v1/cuits', { token: user.token });
            expect(res.status).to.be.oneOf([500, 503]);
            expect(res.body).to.have.keys(['error']);
            expect(res.text).to.not.match(/select|sql|stack|at /i);

            // The health check asks the database (database-outage.test.ts has outages proper).
            expect((await server.request('/healthcheck')).status).to.equal(503);
        });
    });
}
