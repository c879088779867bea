import { createHook } from 'node:async_hooks';
import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { texts } from '../../../servers/oauth/texts.js';
import { testDatabases } from '../../support/databases.js';
import { authorize, csrfOf, form, grant, listTools, oauthTest, rawRequest, register, startOAuthTestServer, submit } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';
import { httpMessages } from '../../../servers/http/messages.js';
import { databaseOf } from '../../support/app.js';

// The OAuth surface under attack (security issue, items 3-8): every URL it publishes comes
// from PUBLIC_URL and answers only for this server's names; sign-in is throttled and does not
// tell which emails exist; a database dump holds no usable token or key; the consent form is
// protected against cross-site posts; registration is throttled and capped; the metadata
// advertises only endpoints that answer.

const internals = {
    registration: { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' },

    // The scrypt computations Node starts while `run` runs (async resources of that type): work
    // counted, not timed.
    async scryptRuns(run: () => Promise<unknown>): Promise<number> {

        let count = 0;
        const hook = createHook({ init: (_id, type) => {

            if (type === 'SCRYPTREQUEST') {
                count++;
            }
        } });
        hook.enable();
        try {
            await run();
        }
        finally {
            hook.disable();
        }

        return count;
    }
};

for (const database of testDatabases()) {

    describe(`OAuth surface hardening (${database.name})`, () => {

        let server: TestServer;
        let email: string;

        before(async () => {

            ({ server, email } = await startOAuthTestServer(database));
        });

        after(async () => {

            await server.stop();
        });

        it('publishes URLs from PUBLIC_URL only, ignores forwarded headers unless trusted, and answers no foreign Host (item 3)', async () => {

            for (const path of [
                '/.well-known/oauth-authorization-server',
                '/.well-known/openid-configuration',
                '/.well-known/oauth-protected-resource/mcp',
                '/oauth/jwks'
            ]) {
                const foreign = await rawRequest(server, path, { headers: { host: 'evil.example' } });
                expect(foreign.status, path).to.equal(403);
                expect(foreign.body, path).to.deep.equal({ error: httpMessages.forbiddenHost });
            }

            const registration = await rawRequest(server, '/oauth/register', {
                method: 'POST',
                headers: { host: 'evil.example', 'content-type': 'application/json' },
                body: JSON.stringify(internals.registration)
            });
            expect(registration.status).to.equal(403);

            const behind = await startTestServer(database, { env: { ...writeServerEnv, PUBLIC_URL: 'https://arcasync.example' } });
            try {
                const forged = { host: 'arcasync.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
                const metadata = await rawRequest(behind, '/.well-known/oauth-authorization-server', { headers: forged });
                expect(metadata.status, metadata.text).to.equal(200);
                const urls = Object.entries(metadata.body as Record<string, unknown>).filter(
                    ([name]) => name === 'issuer' || name.endsWith('_endpoint') || name === 'jwks_uri'
                );
                expect(urls.length).to.be.at.least(5);
                for (const [name, url] of urls) {
                    expect(url, name).to.match(/^https:\/\/arcasync\.example(\/|$)/);
                }

                const resource = await rawRequest(behind, '/.well-known/oauth-protected-resource/mcp', { headers: forged });
                expect(resource.body).to.deep.include({ resource: 'https://arcasync.example/mcp', authorization_servers: ['https://arcasync.example'] });

                // The name the proxy was asked for counts only when the operator trusts it.
                const viaProxy = await rawRequest(behind, '/.well-known/oauth-authorization-server', {
                    headers: { host: '127.0.0.1', 'x-forwarded-host': 'arcasync.example' }
                });
                expect(viaProxy.status).to.equal(403);
            }
            finally {
                await behind.stop();
            }

            const trusting = await startTestServer(database, { env: { ...writeServerEnv, PUBLIC_URL: 'https://arcasync.example', TRUST_PROXY: '1' } });
            try {
                const viaProxy = await rawRequest(trusting, '/.well-known/oauth-authorization-server', {
                    headers: { host: '10.0.0.5:8080', 'x-forwarded-host': 'arcasync.example', 'x-forwarded-proto': 'https' }
                });
                expect(viaProxy.status, viaProxy.text).to.equal(200);
                expect(viaProxy.body.authorization_endpoint).to.equal('https://arcasync.example/oauth/authorize');
                const foreign = await rawRequest(trusting, '/.well-known/oauth-authorization-server', {
                    headers: { host: 'arcasync.example', 'x-forwarded-host': 'evil.example' }
                });
                expect(foreign.status).to.equal(403);
            }
            finally {
                await trusting.stop();
            }
        });

        it('throttles failed sign-ins per email and per address, right password included, and spends the same work on unknown emails (item 4)', async function () {

            // Some thirty sign-ins, each one scrypt at the production cost: beside other test
            // files on a busy machine they need more than the default time.
            this.timeout(90_000);
            const clientId = await register(server);
            const { flow, location } = await authorize(server, clientId);

            // An unknown email costs one scrypt, as a known one with a wrong password does.
            const unknownRuns = await internals.scryptRuns(async () => expect((await submit(flow, location, {
                email: 'nadie@example.com',
                password: 'una-clave-cualquiera',
                decision: 'allow'
            })).status).to.equal(401));
            const knownRuns = await internals.scryptRuns(
                async () => expect((await submit(flow, location, { email, password: 'una-clave-cualquiera', decision: 'allow' })).status).to.equal(401)
            );
            expect(knownRuns).to.equal(1);
            expect(unknownRuns).to.equal(knownRuns);

            // Five failures of one email (one above), then every attempt waits, the right one too.
            for (let i = 0; i < 4; i++) {
                expect((await submit(flow, location, { email, password: `equivocada-${i}-larga`, decision: 'allow' })).status).to.equal(401);
            }

            for (const password of ['otra-equivocada-larga', oauthTest.password]) {
                const throttled = await submit(flow, location, { email, password, decision: 'allow' });
                expect(throttled.status).to.equal(429);
                expect(Number(throttled.headers.get('retry-after'))).to.be.within(1, 15 * 60);
                expect(await throttled.text()).to.contain(messages.signInThrottled);
            }

            server.clock.advance(15 * 60 * 1000);
            expect((await submit(flow, location, { email, password: oauthTest.password, decision: 'allow' })).status).to.equal(303);

            // Twenty failures from one address, over any emails: then nobody signs in from it.
            server.clock.advance(15 * 60 * 1000);
            const next = await authorize(server, clientId);
            for (let i = 0; i < 20; i++) {
                expect((await submit(next.flow, next.location, { email: `persona-${i}@example.com`, password: 'una-clave-cualquiera', decision: 'allow' })).status).to.equal(401);
            }

            const fromAddress = await submit(next.flow, next.location, { email, password: oauthTest.password, decision: 'allow' });
            expect(fromAddress.status).to.equal(429);
            expect(await fromAddress.text()).to.contain(messages.signInThrottled);

            // Meanwhile new emails from that address leave nothing behind in the counters.
            const counters = async () => Number((await databaseOf(server.app)('throttles').count({ count: '*' }).first())!.count);
            const before = await counters();
            expect((await submit(next.flow, next.location, {
                email: 'otra-persona@example.com',
                password: 'una-clave-cualquiera',
                decision: 'allow'
            })).status).to.equal(429);
            expect(await counters()).to.equal(before);
            server.clock.advance(15 * 60 * 1000);
        });

        it('keeps no usable token or key in the database (item 5)', async () => {

            const clientId = await register(server);
            const tokens = await grant(server, clientId, email);
            expect(await listTools(server, tokens.access_token)).to.have.length(5);

            const rows = await databaseOf(server.app)('oauth_entries').select('*');
            const dump = JSON.stringify(rows);
            for (const secret of [tokens.access_token, tokens.refresh_token]) {
                expect(dump).to.not.contain(secret);
            }

            const secrets = rows.filter((row) => row.kind === 'ServerSecret');
            expect(secrets.map((row) => String(row.id)).sort()).to.include.members(['cookies', 'jwk']);
            for (const row of secrets) {
                expect(Object.keys(JSON.parse(String(row.payload)))).to.deep.equal(['sealed']);
                expect(String(row.payload)).to.match(/"v1\.[0-9a-f]{8}\./);
            }

            // What the dump holds for the tokens is refused where the tokens work.
            for (const row of rows.filter((entry) => entry.kind === 'AccessToken')) {
                const res = await server.request('/mcp', {
                    method: 'POST',
                    token: String(row.id),
                    headers: { accept: 'application/json, text/event-stream' },
                    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
                });
                expect(res.status).to.equal(401);
            }

            for (const row of rows.filter((entry) => entry.kind === 'RefreshToken')) {
                const res = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ grant_type: 'refresh_token', refresh_token: String(row.id), client_id: clientId }) });
                expect(res.status).to.equal(400);
            }

            const refreshed = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }) });
            expect(refreshed.status).to.equal(200);
        });

        it('refuses a consent form without its CSRF token or from another origin, and sends the page security headers (item 6)', async () => {

            const clientId = await register(server);
            const { flow, location } = await authorize(server, clientId);
            const page = await fetch(new URL(location, server.url), { headers: { cookie: flow.jar.header() } });
            expect(page.status).to.equal(200);
            expect(page.headers.get('referrer-policy')).to.equal('same-origin');
            expect(page.headers.get('x-content-type-options')).to.equal('nosniff');

            const post = (values: Record<string, string>, headers: Record<string, string> = {}) => fetch(new URL(location, server.url), {
                method: 'POST',
                redirect: 'manual',
                headers: { cookie: flow.jar.header(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
                body: form(values)
            });
            const allow = { email, password: oauthTest.password, decision: 'allow' };
            const csrf = await csrfOf(flow, location);

            for (const [values, headers] of [[allow, {}], [{ ...allow, csrf: 'x'.repeat(csrf.length) }, {}], [{ ...allow, csrf }, { origin: 'http://evil.example' }]] as [Record<string, string>, Record<string, string>][]) {
                const refused = await post(values, headers);
                expect(refused.status, JSON.stringify(headers)).to.equal(403);
                expect(refused.headers.get('referrer-policy')).to.equal('same-origin');
                expect(await refused.text()).to.contain(texts.forbiddenForm);
            }

            expect((await post({ ...allow, csrf }, { origin: server.url })).status).to.equal(303);

            // The authorization server's own error pages carry them too.
            const error = await fetch(`${server.url}/oauth/authorize?client_id=desconocido&response_type=code`);
            expect(error.status).to.equal(400);
            expect(error.headers.get('referrer-policy')).to.equal('same-origin');
            expect(error.headers.get('x-content-type-options')).to.equal('nosniff');
        });

        it('throttles registration per client address and caps the registered clients (item 7)', async () => {

            const body = JSON.stringify(internals.registration);
            const headers = { 'content-type': 'application/json' };
            server.clock.advance(60 * 60 * 1000);
            for (let i = 0; i < 20; i++) {
                const res = await server.request('/oauth/register', { method: 'POST', body, headers });
                expect(res.status, res.text).to.equal(201);
            }

            // Another X-Forwarded-For does not make another address unless a proxy is trusted.
            const refused = await server.request('/oauth/register', { method: 'POST', body, headers: { ...headers, 'x-forwarded-for': '203.0.113.9' } });
            expect(refused.status).to.equal(429);
            expect(refused.body).to.deep.equal({ error: texts.registrationThrottled });
            expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60 * 60);

            const capped = await startOAuthTestServer(database, { OAUTH_MAX_CLIENTS: '3', TRUST_PROXY: '1' });
            try {
                // Three clients people authorized fill the cap for good.
                for (let i = 0; i < 3; i++) {
                    await grant(capped.server, await register(capped.server), capped.email);
                }

                const full = await capped.server.request('/oauth/register', {
                    method: 'POST',
                    body,
                    headers: { ...headers, 'x-forwarded-for': '203.0.113.9' }
                });
                expect(full.status).to.equal(403);
                expect(full.body).to.deep.equal({ error: texts.registrationFull });

                // Behind a trusted proxy each client address has its own count.
                for (let i = 0; i < 17; i++) {
                    await capped.server.request('/oauth/register', { method: 'POST', body, headers });
                }

                expect((await capped.server.request('/oauth/register', { method: 'POST', body, headers })).status).to.equal(429);
                expect((await capped.server.request('/oauth/register', {
                    method: 'POST',
                    body,
                    headers: { ...headers, 'x-forwarded-for': '203.0.113.10' }
                })).status).to.equal(403);
            }
            finally {
                await capped.server.stop();
            }
        });

        it('makes room at the cap by dropping the oldest registration nobody authorized, never an authorized client (item 7)', async () => {

            const capped = await startOAuthTestServer(database, { OAUTH_MAX_CLIENTS: '3', TRUST_PROXY: '1' });
            try {
                const used = await register(capped.server);
                await grant(capped.server, used, capped.email);
                const unused = [await register(capped.server), await register(capped.server)];

                // A flood of registrations from many addresses: each one is let in, in the place
                // of the oldest registration nobody authorized.
                const flood: string[] = [];
                for (let i = 0; i < 5; i++) {
                    const res = await capped.server.request('/oauth/register', { method: 'POST', body: internals.registration, headers: { 'x-forwarded-for': `198.51.100.${i}` } });
                    expect(res.status, res.text).to.equal(201);
                    flood.push(res.body.client_id as string);
                }

                // The authorized client still signs in; the dropped registrations are unknown.
                await grant(capped.server, used, capped.email);
                for (const clientId of [...unused, ...flood.slice(0, 3)]) {
                    const { response, location } = await authorize(capped.server, clientId);
                    expect(location, clientId).to.not.match(/^\/oauth\/interaction\//);
                    expect(response.status, clientId).to.equal(400);
                    // Told in Spanish, as every page of the authorization server.
                    expect(await response.text(), clientId).to.include(texts.authorizationErrors.invalid_client);
                }

                expect((await authorize(capped.server, flood.at(-1)!)).location).to.match(/^\/oauth\/interaction\//);
            }
            finally {
                await capped.server.stop();
            }
        });

        it('advertises only endpoints that answer (item 8)', async () => {

            const metadata = (await server.request('/.well-known/oauth-authorization-server')).body as Record<string, unknown>;
            expect(metadata).to.not.have.property('pushed_authorization_request_endpoint');
            const endpoints = Object.entries(metadata).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri');
            expect(endpoints.map(([name]) => name)).to.include.members(
                ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'jwks_uri']
            );
            // Each answers one of GET (a page, the key set) or POST (a form, JSON) with anything but 404.
            for (const [name, url] of endpoints) {
                const statuses: number[] = [];
                for (const method of ['GET', 'POST']) {
                    const res = await fetch(String(url), {
                        method,
                        redirect: 'manual',
                        ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' } : {})
                    });
                    statuses.push(res.status);
                }

                expect(statuses, `${name} ${String(url)}`).to.satisfy((found: number[]) => found.some((status) => status !== 404));
            }
        });
    });
}
