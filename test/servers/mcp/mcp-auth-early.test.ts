import { expect } from 'chai';
import { testDatabases } from '../../support/databases.js';
import { seedAccount } from '../../support/fixtures.js';
import { rawExchange, rawRequest } from '../../support/raw-http.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// POST /mcp proves who calls before it reads the body (issue 37, item 9): a request without a
// valid token is answered 401 from its headers alone, so a stranger cannot hold a connection
// open by announcing a body it never sends. Here the body never comes: the answer must arrive
// all the same, and be the 401 with its challenge (not a 408 once the payload times out).

const internals = {
    // How long to wait for the answer: far longer than answering takes, and shorter than the
    // payload's timeout, so a server that waits for the body shows here as no answer at all.
    wait: 8_000,

    headers: (port: number, extra: [string, string][] = []): [string, string][] => [
        ['Host', `127.0.0.1:${port}`],
        ['Content-Type', 'application/json'],
        ['Accept', 'application/json, text/event-stream'],
        ['Content-Length', '1000'],
        ...extra
    ]
};

for (const database of testDatabases()) {

    describe(`POST /mcp refuses an unauthenticated request before reading its body (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let port: number;

        before(async () => {

            server = await startTestServer(database, { env: writeServerEnv });
            port = Number(new URL(server.url).port);
        });

        after(async () => {

            await server?.stop();
        });

        it('answers 401 with the Bearer challenge to a request with no token, its body never sent', async () => {

            const exchange = await rawExchange(port, rawRequest('POST', '/mcp', internals.headers(port)), { timeoutMs: internals.wait, answers: 1 });
            expect(exchange.responses.map((response) => response.status), 'an answer without the body').to.deep.equal([401]);
            const [answer] = exchange.responses;
            expect(answer!.headers['www-authenticate']).to.match(/^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
            expect(JSON.parse(answer!.body.toString('utf8'))).to.have.property('error').that.is.a('string');
        });

        it('answers 401 invalid_token to an unknown API token or OAuth token, its body never sent', async () => {

            for (const token of ['asy_no-es-un-token-valido', 'eyJhbGciOiJub25lIn0.e30.']) {
                const request = rawRequest('POST', '/mcp', internals.headers(port, [['Authorization', `Bearer ${token}`]]));
                const exchange = await rawExchange(port, request, { timeoutMs: internals.wait, answers: 1 });
                expect(exchange.responses.map((response) => response.status), token).to.deep.equal([401]);
                expect(exchange.responses[0]!.headers['www-authenticate'], token).to.match(/^Bearer error="invalid_token"/);
            }
        });

        it('still reads the body of an authenticated request and answers it', async () => {

            const { token } = await seedAccount(server.app.ports);
            const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
            const headers = internals.headers(port, [['Authorization', `Bearer ${token}`]]).filter(([name]) => name !== 'Content-Length');
            const request = rawRequest('POST', '/mcp', [...headers, ['Content-Length', String(Buffer.byteLength(body))]], body);
            const exchange = await rawExchange(port, request, { timeoutMs: 30_000, answers: 1 });
            expect(exchange.responses.map((response) => response.status)).to.deep.equal([200]);
            expect(JSON.parse(exchange.responses[0]!.body.toString('utf8')).result.tools).to.have.length(5);
        });
    });
}
