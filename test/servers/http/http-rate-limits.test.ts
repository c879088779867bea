import { expect } from 'chai';
import { loadConfig } from '../../../app/config.js';
import { messages } from '../../../core/domain/messages.js';
import { windowsAt } from '../../../core/domain/rate-limit.js';
import { createToken } from '../../../core/use-cases/staff/create-token.js';
import type { ServeProcess } from '../../support/cli.js';
import { startServeProcess } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';
import { readEndpoints } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { TestResponse, TestServer } from '../../support/server.js';
import { startServerOn, startTestServer, testClock } from '../../support/server.js';
import { databaseOf } from '../../support/app.js';

// docs/api.md, Access and Limits: 100 requests per minute and 200000 per calendar month (UTC), per user,
// shared by all of the user's tokens and by every server on the database.

const internals = {
    rateLimited: 'Se superó el límite de solicitudes. Intentá nuevamente más tarde.',
    unix: (iso: string): number => Date.parse(iso) / 1000
};

const expect429 = (res: TestResponse, limit: number, reset: number, retryAfter: number): void => {

    expect(res.status, res.text).to.equal(429);
    expect(res.body).to.deep.equal({ error: internals.rateLimited });
    expect(res.headers.get('x-ratelimit-limit')).to.equal(String(limit));
    expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
    expect(res.headers.get('x-ratelimit-reset')).to.equal(String(reset));
    expect(res.headers.get('retry-after')).to.equal(String(retryAfter));
};

for (const database of testDatabases()) {

    describe(`rate limits over HTTP (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database, { inject: true });
        });

        after(async () => {

            await server.stop();
        });

        const burn = async (token: string, count: number, path = '/v1/cuits'): Promise<void> => {

            for (let i = 0; i < count; ++i) {
                const res = await server.request(path, { token });
                expect(res.status, `request #${i + 1}: ${res.text}`).to.equal(200);
            }
        };

        const setMonthCount = async (user: SeededUser, count: number, at: Date): Promise<void> => {

            const windows = windowsAt(at);
            const row = { minute_start: 0, minute_count: 0, month_start: windows.monthStart, month_count: count };
            const updated = await databaseOf(server.app)('rate_limits').where({ user_id: user.userId }).update(row);
            if (!updated) {
                await databaseOf(server.app)('rate_limits').insert({ user_id: user.userId, ...row });
            }
        };

        it('uses the spec\'s limits by default', () => {

            expect(messages.rateLimited).to.equal(internals.rateLimited);
            expect(loadConfig({}).rateLimits).to.deep.equal({ perMinute: 100, perMonth: 200000 });
            expect(server.app.ports.rateLimits).to.deep.equal({ perMinute: 100, perMonth: 200000 });
        });

        it('answers the 101st request of a minute with 429, the message and the headers', async () => {

            server.clock.set('2026-03-15T12:00:30Z');
            const user = await seedAccount(server.app.ports);
            await burn(user.token, 100);

            const res = await server.request('/v1/cuits', { token: user.token });
            expect429(res, 100, internals.unix('2026-03-15T12:01:00Z'), 30);

            server.clock.set('2026-03-15T12:00:59.200Z');
            expect429(await server.request('/v1/tags', { token: user.token }), 100, internals.unix('2026-03-15T12:01:00Z'), 1);
        });

        it('tells on every authenticated answer, 2xx or 4xx, the limit closest to running out, what is left and when it resets', async () => {

            server.clock.set('2026-03-16T12:00:30Z');
            const user = await seedAccount(server.app.ports);
            const usage = (res: { headers: Headers }) => [
                'x-ratelimit-limit',
                'x-ratelimit-remaining',
                'x-ratelimit-reset',
                'retry-after'
            ].map((name) => res.headers.get(name));
            const minuteReset = String(internals.unix('2026-03-16T12:01:00Z'));

            expect(usage(await server.request('/v1/cuits', { token: user.token }))).to.deep.equal(['100', '99', minuteReset, null]);
            await burn(user.token, 8);
            expect(usage(await server.request('/v1/tags', { token: user.token }))).to.deep.equal(['100', '90', minuteReset, null]);
            // Answers refused after counting tell it too.
            const missing = await server.request('/v1/cuits/20999999990/sct', { token: user.token });
            expect(missing.status).to.equal(404);
            expect(usage(missing)).to.deep.equal(['100', '89', minuteReset, null]);
            const invalid = await server.request('/v1/cuits?limit=0', { token: user.token });
            expect(invalid.status).to.equal(400);
            expect(usage(invalid)).to.deep.equal(['100', '88', minuteReset, null]);

            // Near the end of the month, the monthly limit is the one closest to running out.
            await setMonthCount(user, 199_990, server.clock.now());
            expect(usage(await server.request('/v1/cuits', { token: user.token }))).to.deep.equal(
                ['200000', '9', String(internals.unix('2026-04-01T00:00:00Z')), null]
            );

            // No quota, no headers: the health check and a refused token.
            expect(usage(await server.request('/healthcheck'))).to.deep.equal([null, null, null, null]);
            expect(usage(await server.request('/v1/cuits', { token: 'asy_no-existe' }))).to.deep.equal([null, null, null, null]);
        });

        it('refuses every authenticated endpoint once the limit is reached, but not the health check', async () => {

            server.clock.set('2026-03-15T13:00:00Z');
            const user = await seedAccount(server.app.ports);
            await addClient(server.app.ports, user.accountId, { cuit: '20123456786' });
            await burn(user.token, 100, '/v1/cuits/20123456786/sct');
            for (const path of readEndpoints('20123456786')) {
                expect429(await server.request(path, { token: user.token }), 100, internals.unix('2026-03-15T13:01:00Z'), 60);
            }

            expect((await server.request('/healthcheck', { token: user.token })).status).to.equal(200);
        });

        it('counts every request, also those answered 400 or 404', async () => {

            server.clock.set('2026-03-15T13:10:00Z');
            const user = await seedAccount(server.app.ports);
            await burn(user.token, 60);
            for (let i = 0; i < 20; ++i) {
                expect((await server.request('/v1/cuits?limit=0', { token: user.token })).status).to.equal(400);
                expect((await server.request('/v1/cuits/20999999999/ccma', { token: user.token })).status).to.equal(404);
            }

            expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(429);
        });

        it('shares the count among all the tokens of a user; a new token does not reset it', async () => {

            server.clock.set('2026-03-15T14:00:10Z');
            const user = await seedAccount(server.app.ports);
            const second = await createToken(server.app.ports, { userId: user.userId });
            await burn(user.token, 50);
            await burn(second.token, 50);

            expect429(await server.request('/v1/cuits', { token: second.token }), 100, internals.unix('2026-03-15T14:01:00Z'), 50);
            const third = await createToken(server.app.ports, { userId: user.userId });
            expect429(await server.request('/v1/cuits', { token: third.token }), 100, internals.unix('2026-03-15T14:01:00Z'), 50);
            expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(429);
        });

        it('leaves other users unaffected, in the same account or another', async () => {

            server.clock.set('2026-03-15T15:00:00Z');
            const user = await seedAccount(server.app.ports);
            const colleague = await seedUser(server.app.ports, user.accountId, 'owner');
            const stranger = await seedAccount(server.app.ports);
            await burn(user.token, 100);
            expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(429);

            await burn(colleague.token, 100);
            await burn(stranger.token, 100);
        });

        it('lets requests through again in the next minute; refused requests were not counted', async () => {

            server.clock.set('2026-03-15T16:00:00Z');
            const user = await seedAccount(server.app.ports);
            await burn(user.token, 100);
            for (let i = 0; i < 5; ++i) {
                expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(429);
            }

            server.clock.set('2026-03-15T16:01:00Z');
            await burn(user.token, 100);
            expect429(await server.request('/v1/cuits', { token: user.token }), 100, internals.unix('2026-03-15T16:02:00Z'), 60);

            const row = await databaseOf(server.app)('rate_limits').where({ user_id: user.userId }).first();
            expect(Number(row.month_count)).to.equal(200);
        });

        it('never lets more than the limit through, even for concurrent requests', async () => {

            server.clock.set('2026-03-15T17:00:00Z');
            const user = await seedAccount(server.app.ports);
            const responses = await Promise.all(Array.from({ length: 130 }, () => server.request('/v1/cuits', { token: user.token })));
            const statuses = responses.map((res) => res.status);
            expect(statuses.filter((status) => status === 200)).to.have.length(100);
            expect(statuses.filter((status) => status === 429)).to.have.length(30);
        });

        it('answers 429 with X-RateLimit-Limit 200000 and the first instant of next month at the monthly limit', async () => {

            server.clock.set('2026-03-31T22:59:30Z');
            const user = await seedAccount(server.app.ports);
            await setMonthCount(user, 199_999, server.clock.now());

            expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(200);
            const nextMonth = internals.unix('2026-04-01T00:00:00Z');
            expect429(await server.request('/v1/cuits', { token: user.token }), 200000, nextMonth, nextMonth - internals.unix('2026-03-31T22:59:30Z'));

            // Waiting a minute does not help.
            server.clock.set('2026-03-31T23:59:59Z');
            expect429(await server.request('/v1/tags', { token: user.token }), 200000, nextMonth, 1);

            // Day 1 at 00:00 UTC the counter starts again.
            server.clock.set('2026-04-01T00:00:00Z');
            await burn(user.token, 3);
            const row = await databaseOf(server.app)('rate_limits').where({ user_id: user.userId }).first();
            expect(Number(row.month_count)).to.equal(3);
        });

        it('reports the monthly limit when both are exceeded', async () => {

            server.clock.set('2026-03-20T10:00:00Z');
            const user = await seedAccount(server.app.ports);
            await setMonthCount(user, 199_950, server.clock.now());
            await burn(user.token, 50);
            expect429(
                await server.request('/v1/cuits', { token: user.token }),
                200000,
                internals.unix('2026-04-01T00:00:00Z'),
                internals.unix('2026-04-01T00:00:00Z') - internals.unix('2026-03-20T10:00:00Z')
            );

            const row = await databaseOf(server.app)('rate_limits').where({ user_id: user.userId }).first();
            expect(Number(row.month_count)).to.equal(200_000);
            expect(Number(row.minute_count)).to.equal(50);
        });

        it('shares the limits between two servers on the same database', async () => {

            server.clock.set('2026-03-15T18:00:00Z');
            const other = await startServerOn(server, { clock: server.clock });
            try {
                const user = await seedAccount(server.app.ports);
                for (let i = 0; i < 100; ++i) {
                    const res = await (i % 2 ? other : server).request('/v1/cuits', { token: user.token });
                    expect(res.status).to.equal(200);
                }

                expect429(await other.request('/v1/cuits', { token: user.token }), 100, internals.unix('2026-03-15T18:01:00Z'), 60);
                expect429(await server.request('/v1/cuits', { token: user.token }), 100, internals.unix('2026-03-15T18:01:00Z'), 60);
            }
            finally {
                await other.stop();
            }
        });

        it('lets operators raise the limits through configuration', async () => {

            expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '150', RATE_LIMIT_PER_MONTH: '500000' }).rateLimits).to.deep.equal({ perMinute: 150, perMonth: 500000 });
            for (const bad of ['0', '-5', 'abc', '1.5']) {
                expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: bad }), bad).to.throw(/RATE_LIMIT_PER_MINUTE/);
            }

            const raised = await startServerOn(server, {
                clock: testClock('2026-03-15T19:00:00Z'),
                env: { RATE_LIMIT_PER_MINUTE: '150', RATE_LIMIT_PER_MONTH: '500000' }
            });
            try {
                const user = await seedAccount(server.app.ports);
                for (let i = 0; i < 150; ++i) {
                    expect((await raised.request('/v1/cuits', { token: user.token })).status).to.equal(200);
                }

                expect429(await raised.request('/v1/cuits', { token: user.token }), 150, internals.unix('2026-03-15T19:01:00Z'), 60);
            }
            finally {
                await raised.stop();
            }
        });
    });

    describe(`rate limits across processes (${database.name})`, () => {

        let server: TestServer;
        let child: ServeProcess;

        before(async function () {

            this.timeout(60_000);
            // The child process runs on the real clock; this server is frozen at the same
            // instant, so both count in the same calendar month.
            server = await startTestServer(database, { clock: testClock(new Date()) });
            child = await startServeProcess(server.app.config.databaseUrl);
        });

        after(async () => {

            await child?.stop();
            await server?.stop();
        });

        it('shares the monthly count with a server in another process', async () => {

            const user = await seedAccount(server.app.ports);
            const windows = windowsAt(server.clock.now());
            await databaseOf(server.app)('rate_limits').insert({
                user_id: user.userId,
                minute_start: 0,
                minute_count: 0,
                month_start: windows.monthStart,
                month_count: 199_998
            });

            const viaChild = () => fetch(`${child.url}/v1/cuits`, { headers: { authorization: `Bearer ${user.token}` } });
            expect((await viaChild()).status).to.equal(200);
            expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(200);

            const refused = await viaChild();
            expect(refused.status).to.equal(429);
            expect(refused.headers.get('x-ratelimit-limit')).to.equal('200000');
            expect(refused.headers.get('x-ratelimit-reset')).to.equal(String(windows.monthReset));
            expect(await refused.json()).to.deep.equal({ error: internals.rateLimited });
            expect((await server.request('/v1/cuits', { token: user.token })).status).to.equal(429);

            const row = await databaseOf(server.app)('rate_limits').where({ user_id: user.userId }).first();
            expect(Number(row.month_count)).to.equal(200_000);
        });
    });
}
