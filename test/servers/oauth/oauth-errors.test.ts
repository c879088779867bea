import { expect } from 'chai';
import { texts } from '../../../servers/oauth/texts.js';
import { testDatabases } from '../../support/databases.js';
import { authorize, grant, oauthTest, register, startOAuthTestServer, tokenRequest } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';

// The authorization server's errors as a client meets them: the `error` code RFC 6749 names,
// the `error_description` in Spanish (docs/api.md, Errors) — in the token endpoint's JSON, in
// the registration's, and in the redirect that carries an error back to the client.

const internals = {
    english: /\b(is|are|the|must|missing|required|invalid|provided|request|grant|client|failed|not|unsupported|did|match)\b/,

    spanish(description: unknown, what: string): void {

        expect(description, what).to.be.a('string');
        expect(description, what).to.not.match(internals.english);
        expect(description, what).to.match(/[áéíóúñ]|\b(la|el|de|no|que)\b/);
    }
};

describe('OAuth errors in Spanish', function () {

    this.timeout(60_000);

    let server: TestServer;
    let email: string;

    before(async () => {

        ({ server, email } = await startOAuthTestServer(testDatabases()[0]!));
    });

    after(async () => {

        await server.stop();
    });

    it('the token endpoint: each error its RFC 6749 code and a Spanish description', async () => {

        const clientId = await register(server);
        const tokens = await grant(server, clientId, email);
        const mcp = `${server.url}/mcp`;

        for (const [values, error, description] of [
            [{ grant_type: 'authorization_code', code: 'no-es-un-codigo', redirect_uri: oauthTest.redirect, client_id: clientId, code_verifier: 'v'.repeat(43) }, 'invalid_grant', texts.oauthErrors.invalid_grant],
            [{ grant_type: 'refresh_token', refresh_token: `${tokens.refresh_token}x`, client_id: clientId, resource: mcp }, 'invalid_grant', texts.oauthErrors.invalid_grant],
            [{ grant_type: 'authorization_code', code: 'x', client_id: 'no-registrado' }, 'invalid_client', texts.oauthErrors.invalid_client],
            [{ grant_type: 'password', client_id: clientId, username: 'a', password: 'b' }, 'unsupported_grant_type', texts.oauthErrors.unsupported_grant_type],
            [{ grant_type: 'authorization_code', client_id: clientId }, 'invalid_request', /^Faltan? (el parámetro obligatorio|los parámetros obligatorios) .*code/],
            [{ client_id: clientId }, 'invalid_request', /^Falta el parámetro obligatorio '?grant_type'?\.$/]
        ] as const) {
            const answer = await tokenRequest(server, values);
            expect(answer.status, JSON.stringify(values)).to.be.within(400, 401);
            expect(answer.body.error, JSON.stringify(answer.body)).to.equal(error);
            if (typeof description === 'string') {
                expect(answer.body.error_description, JSON.stringify(values)).to.equal(description);
            }
            else {
                expect(answer.body.error_description, JSON.stringify(values)).to.match(description);
            }

            internals.spanish(answer.body.error_description, JSON.stringify(values));
        }
    });

    it('registration: invalid metadata refused in Spanish, with the code the RFC names', async () => {

        for (const [metadata, error] of [
            [{ redirect_uris: [] }, 'invalid_redirect_uri'],
            [{ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none', grant_types: ['implicit'], response_types: ['code'] }, 'invalid_client_metadata']
        ] as const) {
            const res = await server.request('/oauth/register', { method: 'POST', body: { token_endpoint_auth_method: 'none', ...metadata } });
            expect(res.status, res.text).to.equal(400);
            expect(res.body.error, res.text).to.equal(error);
            internals.spanish(res.body.error_description, res.text);
        }
    });

    it('an authorization request without PKCE S256 is refused with a description that says PKCE is required (issue 37, item 9)', async () => {

        const clientId = await register(server, { redirect_uris: ['http://127.0.0.1:54321/callback'] });
        for (const params of [
            { code_challenge: '', code_challenge_method: '' },
            { code_challenge_method: 'plain' },
            { code_challenge: '' },
            { code_challenge_method: '' }
        ] as Record<string, string>[]) {
            const { location } = await authorize(server, clientId, params);
            const back = new URL(location);
            expect(back.searchParams.get('error'), JSON.stringify(params)).to.equal('invalid_request');
            const description = back.searchParams.get('error_description');
            expect(description, JSON.stringify(params)).to.equal(texts.pkceRequired);
            internals.spanish(description, location);
        }

        expect(texts.pkceRequired).to.match(/\bPKCE\b/).and.to.contain('code_challenge').and.to.contain('S256');
        expect(texts.pkceRequired).to.not.equal(texts.oauthErrors.invalid_request);
    });

    it('an authorization error sent back to the client\'s redirect says it in Spanish', async () => {

        const clientId = await register(server, { redirect_uris: ['http://127.0.0.1:54321/callback'] });
        const { location } = await authorize(server, clientId, { code_challenge: '', code_challenge_method: '' });
        const back = new URL(location);
        expect(`${back.origin}${back.pathname}`).to.equal('http://127.0.0.1:54321/callback');
        expect(back.searchParams.get('error')).to.equal('invalid_request');
        internals.spanish(back.searchParams.get('error_description'), location);
    });
});
