import { dirname } from 'node:path';
import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { builtCli } from '../../support/build.js';
import type { ServeProcess } from '../../support/cli.js';
import { runProcess, startServeProcess } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { seedAccount } from '../../support/fixtures.js';
import type { RawExchange } from '../../support/raw-http.js';
import { rawExchange, rawRequest } from '../../support/raw-http.js';
import { logLeaks } from '../../support/run-log.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';
import { httpMessages } from '../../../servers/http/messages.js';

// The HTTP edge as an attacker meets it: bytes on a raw socket to `arcasync serve` in its own
// process. Whatever arrives, the process keeps serving, every answer is the service's JSON
// (docs/api.md, Errors), and nothing of the request reaches the log.

const internals = {
    port: (url: string): number => Number(new URL(url).port),

    // The one answer of an exchange, as `{ error }` with its Spanish message.
    expectError(exchange: RawExchange, status: number, message: string): void {

        expect(exchange.responses.map((response) => response.status), exchange.rest.toString()).to.deep.equal([status]);
        const [response] = exchange.responses;
        expect(response!.headers['content-type']).to.match(/^application\/json/);
        expect(JSON.parse(response!.body.toString())).to.deep.equal({ error: message });
    }
};

for (const database of testDatabases()) {

    describe(`HTTP edge over raw sockets (${database.name})`, () => {

        let server: TestServer;
        let serve: ServeProcess;
        let port: number;
        let owner: SeededUser;

        before(async function () {

            this.timeout(60_000);
            server = await startTestServer(database, { env: writeServerEnv });
            owner = await seedAccount(server.app.ports, { writing: true });
            // One installation, one secret key: both processes open what the other sealed (keys and
            // the identity secret of every key).
            serve = await startServeProcess(server.app.config.databaseUrl, { LOG_LEVEL: 'debug', ...writeServerEnv });
            port = internals.port(serve.url);
        });

        after(async () => {

            await serve?.stop();
            await server?.stop();
        });

        const alive = async () => {

            expect(serve.child.exitCode, serve.log().slice(-2000)).to.equal(null);
            expect((await fetch(`${serve.url}/healthcheck`)).status).to.equal(200);
        };

        it('survives a body that is cut short and followed by more bytes, on routes without auth that take no body (finding 1)', async () => {

            // The reproduction of the review: one byte of JSON declared, then another after it.
            const broken = (path: string) => rawRequest(
                'POST',
                path,
                [['Host', 'x'], ['Content-Type', 'application/json'], ['Content-Length', '1'], ['Connection', 'close']],
                '{X'
            );
            for (let round = 0; round < 5; round++) {
                const [health, other] = await Promise.all([rawExchange(port, broken('/healthcheck')), rawExchange(port, broken('/no-existe'))]);
                internals.expectError(health, 405, httpMessages.methodNotAllowed);
                expect(health.responses[0]!.headers.allow).to.equal('GET');
                internals.expectError(other, 404, httpMessages.routeNotFound);
            }

            await alive();
        });

        it('never logs a request\'s bytes: a token and a key sent with one byte too many stay out of the log (finding 2)', async () => {

            const clave = 'Clave-Fuzz-Secreta-77';
            const body = JSON.stringify({ tipo: 'persona-fisica', cuit: '20304050607', nombre: 'Ana', apellido: 'Paz', clave_arca: clave });
            const request = rawRequest('POST', '/v1/cuits', [
                ['Host', 'x'], ['Authorization', `Bearer ${owner.token}`], ['Content-Type', 'application/json'],
                ['Content-Length', String(Buffer.byteLength(body))], ['Connection', 'close']
            ], `${body}!`);

            const exchange = await rawExchange(port, request);
            expect(exchange.responses.map((response) => response.status)).to.deep.equal([201]);
            await alive();
            expect(logLeaks(serve.log(), [owner.token, clave])).to.deep.equal([]);
            expect(serve.log()).to.include('malformed HTTP request');
        });

        it('answers what Node\'s parser refuses with a Spanish JSON 400, 431 for oversized headers (finding 10)', async () => {

            internals.expectError(await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n'), 400, messages.invalidRequest);
            internals.expectError(await rawExchange(port, 'GET /healthcheck HTTP/1.1\r\nHost x\r\n\r\n'), 400, messages.invalidRequest);
            internals.expectError(
                await rawExchange(port, 'GET /healthcheck HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'),
                400,
                messages.invalidRequest
            );
            internals.expectError(await rawExchange(port, `GET /healthcheck HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431, httpMessages.headersTooLarge);
            // A broken chunk inside a body the route is reading.
            const chunked = rawRequest('POST', '/v1/cuits', [['Host', 'x'], ['Authorization', `Bearer ${owner.token}`], ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], '2\r\n{}\r\nZZ\r\n');
            internals.expectError(await rawExchange(port, chunked), 400, messages.invalidRequest);
            // A request answered whole, then bytes that are no request: both answered, in order.
            const pipelined = await rawExchange(port, 'GET /healthcheck HTTP/1.1\r\nHost: x\r\n\r\n\x01\x02 HTTP/1.1\r\n\r\n');
            expect(pipelined.responses.map((response) => response.status)).to.deep.equal([200, 400]);
            expect(JSON.parse(pipelined.responses[1]!.body.toString())).to.deep.equal({ error: messages.invalidRequest });
            // CONNECT is no proxy here; a request without Host is served like any other.
            internals.expectError(
                await rawExchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
                405,
                httpMessages.methodNotAllowed
            );
            internals.expectError(await rawExchange(port, 'GET /v1/cuits HTTP/1.1\r\nConnection: close\r\n\r\n'), 401, messages.unauthenticated);
            await alive();
        });

        it('answers an unsupported Expect with a Spanish 417 (finding 10)', async () => {

            const exchange = await rawExchange(port, rawRequest('GET', '/v1/cuits', [['Host', 'x'], ['Authorization', `Bearer ${owner.token}`], ['Expect', 'foo']]));
            internals.expectError(exchange, 417, httpMessages.expectationFailed);
        });

        it('answers a CORS preflight on the REST API as a method the path lacks, in Spanish (finding 10)', async () => {

            const preflight = (path: string) => rawExchange(port, rawRequest('OPTIONS', path, [['Host', 'x'], ['Origin', 'https://example.com'], ['Access-Control-Request-Method', 'GET'], ['Connection', 'close']]));
            const cuits = await preflight('/v1/cuits');
            internals.expectError(cuits, 405, httpMessages.methodNotAllowed);
            expect(cuits.responses[0]!.headers.allow).to.equal('GET, POST');
            internals.expectError(await preflight('/v1'), 404, httpMessages.routeNotFound);
            // A path the router cannot decode (found by the fuzz suite: it was a 500).
            internals.expectError(await preflight('/v1/%FF'), 404, httpMessages.routeNotFound);
            internals.expectError(await rawExchange(port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 404, httpMessages.routeNotFound);
            // The MCP endpoint keeps its CORS preflight.
            const mcp = await rawExchange(port, rawRequest('OPTIONS', '/mcp', [['Host', 'x'], ['Origin', 'https://example.com'], ['Access-Control-Request-Method', 'POST'], ['Connection', 'close']]));
            expect(mcp.responses[0]!.status).to.equal(200);
            expect(mcp.responses[0]!.headers['access-control-allow-origin']).to.equal('https://example.com');
        });

        it('ignores Range: the whole JSON document, never a slice (finding 10)', async () => {

            const exchange = await rawExchange(port, rawRequest('GET', '/v1/cuits', [['Host', 'x'], ['Authorization', `Bearer ${owner.token}`], ['Range', 'bytes=0-5'], ['Connection', 'close']]));
            expect(exchange.responses.map((response) => response.status)).to.deep.equal([200]);
            expect(exchange.responses[0]!.headers['content-range']).to.equal(undefined);
            expect(JSON.parse(exchange.responses[0]!.body.toString())).to.have.keys('data', 'pagination', 'filters');
        });

        it('refuses text that is not UTF-8, holds a lone surrogate or a control character, naming the field, and stores nothing (finding 11)', async () => {

            const post = (body: Buffer | string) => fetch(`${server.url}/v1/cuits`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body });
            const person = (cuit: string, extra: Record<string, string>) => JSON.stringify({
                tipo: 'persona-fisica',
                cuit,
                nombre: 'Ana',
                apellido: 'Paz',
                clave_arca: 'Clave-1',
                ...extra
            });
            const refused = async (body: Buffer | string, message: string) => {

                const res = await post(body);
                expect(res.status).to.equal(400);
                expect(await res.json()).to.deep.equal({ error: message });
            };

            // Bytes that are no UTF-8 (0xFF) inside a value, then inside a key.
            const notUtf8 = Buffer.from(person('20111222331', { nombre: 'An#' }));
            notUtf8[notUtf8.indexOf('#')] = 0xff;
            await refused(notUtf8, messages.clientWrite.characters('nombre'));
            const badKey = Buffer.from(person('20111222332', { 'x#': 'a' }));
            badKey[badKey.indexOf('#')] = 0xc3;
            await refused(badKey, httpMessages.invalidUtf8);
            await refused(person('20111222333', {}).replace('"Paz"', '"Pa\\ud800z"'), messages.clientWrite.characters('apellido'));
            await refused(person('20111222334', { nombre: 'A\u0000na' }), messages.clientWrite.characters('nombre'));
            await refused(person('20111222335', { clave_arca: 'Clave\u0000' }), messages.clientWrite.characters('clave_arca'));

            const created = await post(person('20111222336', {}));
            expect(created.status).to.equal(201);
            const patch = await fetch(`${server.url}/v1/cuits/20111222336`, { method: 'PATCH', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ apellido: 'Paz\u0007' }) });
            expect(patch.status).to.equal(400);
            expect(await patch.json()).to.deep.equal({ error: messages.clientWrite.characters('apellido') });

            const listed = (await server.ok('/v1/cuits?limit=100', owner.token)).data as { cuit: string; nombre: string }[];
            expect(listed.filter((client) => client.cuit.replace(/-/g, '').startsWith('20111222')).map((client) => client.nombre)).to.deep.equal(['Paz, Ana']);
        });

        it('takes limit and offset only as digits, naming the parameter otherwise (finding 11)', async () => {

            for (const value of [' 1', '1e2', '+1', '50.0', '-0', '0x10', '1 ', '']) {
                const limit = await server.request(`/v1/cuits?limit=${encodeURIComponent(value)}`, { token: owner.token });
                expect(limit.status, `limit=${value}`).to.equal(400);
                expect(limit.body).to.deep.equal({ error: messages.field.limit });
                const offset = await server.request(`/v1/tags?offset=${encodeURIComponent(value)}`, { token: owner.token });
                expect(offset.status, `offset=${value}`).to.equal(400);
                expect(offset.body).to.deep.equal({ error: messages.field.offset });
            }

            expect((await server.ok('/v1/cuits?limit=007&offset=0', owner.token)).pagination).to.include({ limit: 7, offset: 0 });
        });

        it('refuses tag names in the query that are not UTF-8 or hold control characters, naming the parameter (finding 11)', async () => {

            for (const value of ['%FF', 'a%00b', '%ED%A0%80', 'Mensual%0A']) {
                const res = await server.request(`/v1/cuits?etiquetas=${value}`, { token: owner.token });
                expect(res.status, value).to.equal(400);
                expect(res.body).to.deep.equal({ error: messages.field.etiquetas });
            }

            expect((await server.ok('/v1/cuits?etiquetas=%C3%91and%C3%BA', owner.token)).filters.etiquetas).to.deep.equal(['Ñandú']);
        });
    });
}

describe('the serving process\'s last line of defence', () => {

    it('logs an error that nothing caught and keeps serving instead of exiting (finding 1)', async function () {

        this.timeout(30_000);
        // What `serve` installs, in a process that then fails outside any request handling.
        const script = [
            "import { createLogger } from './app/logger.js';",
            "import { guardProcess } from './app/process-guard.js';",
            "guardProcess(createLogger({ level: 'info' }));",
            "Promise.reject(new Error('rechazo sin atender'));",
            "setTimeout(() => { throw new Error('excepción sin atender'); }, 10);",
            "setTimeout(() => process.stdout.write('sigue'), 200);"
        ].join('\n');
        // In the built app (dist/), as `serve` runs.
        const result = await runProcess(['--input-type=module', '-e', script], { cwd: dirname(dirname(builtCli())), env: process.env });
        expect(result.stdout, result.stderr).to.equal('sigue');
        expect(result.code).to.equal(0);
        expect(result.stderr).to.include('unhandled rejection').and.include('uncaught exception');
    });
});
