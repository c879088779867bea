import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { testDatabases } from '../../support/databases.js';
import { authorize, followToClient, oauthTest, register, startOAuthTestServer, submit } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';

// Open client registration limited to what MCP clients use (issue 29, items 2 and 9): public
// clients only, nothing that makes the server fetch an address the registrant chose, redirect
// schemes from an allowlist, bounded counts and sizes, malformed JSON of any depth a 400.

const internals = {
    registration: { redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' },

    // An HTTP server on loopback that counts what reaches it: the "internal" address an
    // attacker points the server at.
    async target(): Promise<{ server: Server; url: string; hits: () => number }> {

        let hits = 0;
        const server = createServer((_req, res) => {

            hits++;
            res.setHeader('content-type', 'application/json');
            res.end(JSON.stringify({ keys: [] }));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
    },

    // A client_assertion as private_key_jwt sends it (its signature is never checked: the
    // server would fetch the key set to check it, which is what must not happen).
    assertion(clientId: string, audience: string): string {

        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        const unsigned = `${encode({ alg: 'ES256', typ: 'JWT' })}.${encode({ iss: clientId, sub: clientId, aud: audience, jti: randomUUID(), iat: now, exp: now + 60 })}`;
        return `${unsigned}.${Buffer.alloc(64).toString('base64url')}`;
    }
};

const database = testDatabases()[0]!;

describe('OAuth client registration limits', function () {

    this.timeout(60_000);

    let server: TestServer;
    let email: string;

    before(async () => {

        ({ server, email } = await startOAuthTestServer(database, { OAUTH_REDIRECT_SCHEMES: 'cursor,com.example.app' }));
    });

    after(async () => {

        await server.stop();
    });

    it('never fetches a URL a registrant gives: private_key_jwt and jwks_uri refused, nothing reaches loopback (item 2)', async () => {

        const target = await internals.target();
        try {
            const attempts = [
                { ...internals.registration, token_endpoint_auth_method: 'private_key_jwt', jwks_uri: `${target.url}/jwks` },
                { ...internals.registration, token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'http://169.254.169.254/latest/meta-data/' },
                { ...internals.registration, jwks_uri: `${target.url}/jwks` },
                { ...internals.registration, sector_identifier_uri: `${target.url}/sector` },
                { ...internals.registration, request_uris: [`${target.url}/request`] },
                { ...internals.registration, token_endpoint_auth_method: 'client_secret_basic' }
            ];
            for (const body of attempts) {
                const res = await server.request('/oauth/register', { method: 'POST', body });
                expect(res.status, JSON.stringify(body)).to.equal(400);
                expect(res.body.error).to.equal('invalid_client_metadata');
                expect(res.body.error_description).to.be.a('string');
                const clientId = res.body.client_id as string | undefined;
                if (clientId) {
                    await fetch(`${server.url}/oauth/token`, {
                        method: 'POST',
                        headers: { 'content-type': 'application/x-www-form-urlencoded' },
                        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: internals.assertion(clientId, `${server.url}/oauth/token`) })
                    });
                }
            }

            expect(target.hits(), 'requests that reached the loopback server').to.equal(0);
            const metadata = await server.request('/.well-known/oauth-authorization-server');
            expect(metadata.body.token_endpoint_auth_methods_supported).to.deep.equal(['none']);
        }
        finally {
            target.server.close();
        }
    });

    // Refused registrations count against the address's hourly allowance too: each case
    // starts an hour later.
    beforeEach(() => server.clock.advance(60 * 60 * 1000));

    it('accepts redirect schemes from the allowlist only (item 9)', async () => {

        for (const uri of ['ms-word:ofe|u|http://example.com/a.docx', 'search-ms:query=x&crumb=location:\\\\evil\\share', 'smb://evil.example/share', 'shell:startup', 'ldap://evil.example/o=x', 'gopher://evil.example/', 'jar:http://evil.example/x.jar!/', 'mhtml:http://evil.example/x.mht', 'ms-settings:display', 'chrome://settings', 'vscode://any/callback']) {
            const res = await server.request('/oauth/register', { method: 'POST', body: { ...internals.registration, redirect_uris: [uri] } });
            expect(res.status, uri).to.equal(400);
            expect(res.body.error, uri).to.equal('invalid_redirect_uri');
        }

        server.clock.advance(60 * 60 * 1000);
        for (const uri of ['cursor://anysphere.cursor-retrieval/oauth/callback', 'com.example.app:/callback', 'https://app.example.com/callback', 'http://localhost/callback']) {
            const clientId = await register(server, { redirect_uris: [uri] });
            expect(clientId, uri).to.be.a('string');
        }

        const uri = 'com.example.app:/callback';
        const clientId = await register(server, { redirect_uris: [uri] });
        const { flow, location } = await authorize(server, clientId, { redirect_uri: uri });
        const consent = await submit(flow, location, { email, password: oauthTest.password, decision: 'allow' });
        const back = await followToClient(flow, consent.headers.get('location')!);
        expect(back.searchParams.get('code')).to.be.a('string');
    });

    it('bounds counts and sizes, and answers malformed or deeply nested JSON with a 400 (item 9)', async () => {

        const many = Array.from({ length: 1000 }, (_, i) => `http://127.0.0.1/callback/${i}`);
        const deep = `{"redirect_uris":["http://127.0.0.1/cb"],"client_name":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
        const deepObject = `{"redirect_uris":["http://127.0.0.1/cb"],"x":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`;
        const bodies: [string, string | object][] = [
            ['1,000 redirect URIs', { ...internals.registration, redirect_uris: many }],
            ['a 50 KB name', { ...internals.registration, client_name: 'x'.repeat(50 * 1024) }],
            ['a 300-character name', { ...internals.registration, client_name: 'x'.repeat(300) }],
            ['nested arrays', deep],
            ['nested objects', deepObject],
            ['broken JSON', '{"redirect_uris": ['],
            ['a JSON array', '[]']
        ];
        for (const [name, body] of bodies) {
            const res = await server.request('/oauth/register', { method: 'POST', body });
            expect(res.status, name).to.equal(400);
            expect(res.body?.error, name).to.be.oneOf(['invalid_client_metadata', 'invalid_request', 'invalid_redirect_uri']);
        }

        server.clock.advance(60 * 60 * 1000);
        const ten = await register(server, { redirect_uris: many.slice(0, 10), client_name: 'Cliente con nombre de 200 '.padEnd(200, '.') });
        expect(ten).to.be.a('string');
    });
});
