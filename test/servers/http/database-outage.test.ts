import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as connectTcp } from 'node:net';
import type { Server as NetServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import { createLogger } from '../../../app/logger.js';
import { messages } from '../../../core/domain/messages.js';
import { createHttpServer } from '../../../servers/http/server.js';
import { closedPort, testDatabases } from '../../support/databases.js';
import { readEndpoints } from '../../support/endpoints.js';
import { seedAccount } from '../../support/fixtures.js';
import { writeServerEnv } from '../../support/server.js';

// While the database cannot be reached, every endpoint says the service is unavailable (503,
// Retry-After, the Spanish message), MCP included, and /healthcheck answers 503 instead of OK;
// when it comes back, so does the service. SQLite is made unreachable by a path that cannot be
// opened; MariaDB by a connection to a closed port (the shared server is never stopped), and,
// for the recovery, through a proxy this test closes and opens again.

const internals = {
    token: `asy_${'x'.repeat(43)}`,

    async serve(app: App) {

        const lines: Record<string, unknown>[] = [];
        const sink = new Writable({
            write(chunk: Buffer, _encoding, done) {

                lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>));
                done();
            }
        });
        const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, logger: createLogger({ level: 'info', destination: sink }) });
        await server.start();
        return { url: server.info.uri, lines, stop: () => server.stop() };
    },

    // Every route family, as a client would call it.
    async everyEndpoint(url: string, token: string): Promise<{ name: string; response: Response }[]> {

        const auth = { authorization: `Bearer ${token}` };
        const json = { ...auth, 'content-type': 'application/json' };
        const calls: [string, string, RequestInit][] = [
            ...readEndpoints('20123456786').map((path): [string, string, RequestInit] => [`GET ${path}`, path, { headers: auth }]),
            ['POST /v1/cuits', '/v1/cuits', {
                method: 'POST',
                headers: json,
                body: JSON.stringify({ tipo: 'persona-fisica', cuit: '20-12345678-6', nombre: 'Ana', apellido: 'Paz', clave_arca: 'x' })
            }],
            ['PATCH /v1/cuits/{cuit}', '/v1/cuits/20123456786', { method: 'PATCH', headers: json, body: JSON.stringify({ email: null }) }],
            ['DELETE /v1/cuits/{cuit}', '/v1/cuits/20123456786', { method: 'DELETE', headers: auth }],
            ['POST /mcp', '/mcp', {
                method: 'POST',
                headers: { ...json, accept: 'application/json, text/event-stream' },
                body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listar_cuits', arguments: {} } })
            }],
            ['POST /oauth/register', '/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' }) }]
        ];
        const answers = [];
        for (const [name, path, init] of calls) {
            answers.push({ name, response: await fetch(`${url}${path}`, init) });
        }

        return answers;
    },

    async expectUnavailable(url: string, token: string): Promise<void> {

        for (const { name, response } of await internals.everyEndpoint(url, token)) {
            expect(response.status, name).to.equal(503);
            expect(Number(response.headers.get('retry-after')), name).to.be.greaterThan(0);
            expect(await response.json(), name).to.deep.equal({ error: messages.unavailable });
        }

        const health = await fetch(`${url}/healthcheck`);
        expect(health.status).to.equal(503);
        expect(health.headers.get('retry-after')).to.match(/^\d+$/);
        expect(await health.text()).to.equal(messages.unavailable);
    }
};

for (const database of testDatabases()) {

    describe(`a database that cannot be reached (${database.name})`, function () {

        this.timeout(60_000);
        let dir: string;

        before(() => {

            dir = mkdtempSync(join(tmpdir(), 'arcasync-outage-'));
        });

        after(() => {

            rmSync(dir, { recursive: true, force: true });
        });

        it('answers 503 with Retry-After and the Spanish message on every endpoint, and /healthcheck 503', async () => {

            let url: string;
            if (database.name === 'sqlite') {
                // A path that cannot be opened as a file.
                url = `sqlite:${join(dir, 'arcasync.sqlite')}`;
                mkdirSync(join(dir, 'arcasync.sqlite'));
            }
            else {
                const given = new URL(process.env.TEST_MYSQL_URL!);
                given.port = String(await closedPort());
                url = given.toString();
            }

            const app = await composeApp(loadConfig({ DATABASE_URL: url, ...writeServerEnv }), { migrate: false });
            const served = await internals.serve(app);
            try {
                await internals.expectUnavailable(served.url, internals.token);
                const errors = served.lines.filter((line) => Number(line.level) >= 50);
                expect(errors, 'no error line for an outage: warnings').to.deep.equal([]);
                expect(served.lines.filter((line) => (line.res as { statusCode?: number } | undefined)?.statusCode === 503).length).to.be.greaterThan(10);
            }
            finally {
                await served.stop();
                await app.close();
            }
        });
    });
}

if (process.env.TEST_MYSQL_URL) {

    // A TCP proxy to the shared MariaDB that the test cuts and restores.
    const proxyTo = (target: URL) => {

        const sockets = new Set<Socket>();
        let listener: NetServer | null = null;
        let port = 0;
        const open = async () => {

            listener = createServer((client) => {

                const upstream = connectTcp(Number(target.port || 3306), target.hostname);
                for (const socket of [client, upstream]) {
                    sockets.add(socket);
                    socket.on('close', () => sockets.delete(socket));
                    socket.on('error', () => undefined);
                }

                client.pipe(upstream).pipe(client);
            });
            await new Promise<void>((resolve) => listener!.listen(port, '127.0.0.1', resolve));
            port = (listener.address() as { port: number }).port;
        };
        return {
            open,
            port: () => port,
            async cut() {

                const closing = new Promise<void>((resolve) => listener!.close(() => resolve()));
                for (const socket of sockets) {
                    socket.destroy();
                }

                await closing;
            }
        };
    };

    describe('MariaDB going away and coming back', function () {

        this.timeout(60_000);

        it('turns 503 while it is away, MCP included, and serves again when it returns', async () => {

            const [mysql] = testDatabases().filter((candidate) => candidate.name === 'mysql');
            const db = await mysql!.create();
            const target = new URL(db.url);
            const proxy = proxyTo(target);
            await proxy.open();
            const via = new URL(db.url);
            via.hostname = '127.0.0.1';
            via.port = String(proxy.port());
            const app = await composeApp(loadConfig({ DATABASE_URL: via.toString(), ...writeServerEnv }));
            const served = await internals.serve(app);
            try {
                const user = await seedAccount(app.ports, { writing: true });
                const mcp = new Client({ name: 'corte', version: '1.0.0' });
                await mcp.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${user.token}` } } }));
                expect((await fetch(`${served.url}/healthcheck`)).status).to.equal(200);

                await proxy.cut();
                await internals.expectUnavailable(served.url, user.token);
                const tool = await mcp.callTool({ name: 'listar_cuits', arguments: {} }).catch((err: unknown) => err);
                expect(String((tool as Error).message ?? JSON.stringify(tool))).to.match(/503|no está disponible/);

                await proxy.open();
                expect((await fetch(`${served.url}/healthcheck`)).status).to.equal(200);
                expect((await fetch(`${served.url}/v1/cuits`, { headers: { authorization: `Bearer ${user.token}` } })).status).to.equal(200);
                await mcp.close();
            }
            finally {
                await served.stop();
                await app.close();
                await db.release();
            }
        });
    });
}
