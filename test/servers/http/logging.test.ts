import { get } from 'node:http';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { createLogger } from '../../../app/logger.js';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import { createHttpServer } from '../../../servers/http/server.js';
import { builtCli } from '../../support/build.js';
import { runProcess, startServeProcess } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccount } from '../../support/fixtures.js';
import { logLeaks } from '../../support/run-log.js';

// Operability: one JSON log line per request with its request id, which the response
// carries too; secrets never reach the log.

const [database] = testDatabases();

describe('request logs and request ids', () => {

    const lines: Record<string, unknown>[] = [];
    let url: string;
    let stop: () => Promise<void>;
    let token: string;
    let app: Awaited<ReturnType<typeof composeApp>>;

    before(async () => {

        const db = await database!.create();
        app = await composeApp(loadConfig({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '20' }));
        const sink = new Writable({
            write(chunk: Buffer, _encoding, done) {

                for (const line of chunk.toString().split('\n').filter(Boolean)) {
                    lines.push(JSON.parse(line) as Record<string, unknown>);
                }

                done();
            }
        });

        const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, logger: createLogger({ level: 'info', destination: sink }) });
        await server.start();
        url = server.info.uri;
        token = (await seedAccount(app.ports)).token;
        stop = async () => {

            await server.stop();
            await app.close();
            await db.release();
        };
    });

    after(async () => {

        await stop();
    });

    const lineFor = (requestId: string) => lines.find((line) => line.requestId === requestId);

    it('gives every response a request id and logs the request under it', async () => {

        const res = await fetch(`${url}/v1/cuits`, { headers: { authorization: `Bearer ${token}` } });
        const id = res.headers.get('x-request-id');
        expect(id).to.match(/^[0-9a-f-]{36}$/);
        const line = lineFor(id!);
        expect(line, 'log line').to.not.equal(undefined);
        expect(line).to.include({ level: 30, service: 'arcasync' });
        expect(String(line!.msg)).to.include('/v1/cuits').and.include('200');
    });

    it('says who asked what and what came of it: user, account, query, the MCP tool, the limit that refused it', async () => {

        const user = await seedAccount(app.ports);
        const res = await fetch(`${url}/v1/cuits?limit=5&categoria=B`, { headers: { authorization: `Bearer ${user.token}` } });
        expect(lineFor(res.headers.get('x-request-id')!)).to.deep.include({
            req: { method: 'GET', path: '/v1/cuits' },
            query: 'limit=5&categoria=B',
            res: { statusCode: 200 },
            userId: user.userId,
            accountId: user.accountId
        });

        // A query as a URL writes it: what a raw client sent unencoded is logged percent-encoded.
        const raw = await new Promise<string>((resolve, reject) => {

            get(`${url}/v1/cuits?etiquetas="Año"&limit=5#frag`, { headers: { authorization: `Bearer ${user.token}` } }, (answer) => {

                answer.resume();
                resolve(String(answer.headers['x-request-id']));
            }).on('error', reject);
        });
        expect(lineFor(raw)).to.deep.include({ query: 'etiquetas=%22A%C3%B1o%22&limit=5' });

        const mcp = new Client({ name: 'registro', version: '1.0.0' });
        await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${user.token}` } } }));
        await mcp.callTool({ name: 'listar_cuits', arguments: {} });
        await mcp.close();
        expect(lines.filter((line) => line.tool === 'listar_cuits' && line.userId === user.userId)).to.have.length(1);

        let refused: Response | undefined;
        for (let i = 0; i < 25 && refused?.status !== 429; i++) {
            refused = await fetch(`${url}/v1/tags`, { headers: { authorization: `Bearer ${user.token}` } });
        }

        expect(refused!.status).to.equal(429);
        expect(lineFor(refused!.headers.get('x-request-id')!)).to.deep.include({
            userId: user.userId,
            rateLimited: { limit: 20, retryAfter: Number(refused!.headers.get('retry-after')) }
        });
        expect(JSON.stringify(lines)).to.not.contain(user.token);
    });

    it('keeps the caller\'s X-Request-Id, on errors too', async () => {

        const ok = await fetch(`${url}/v1/tags`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'erp-42.a' } });
        expect(ok.headers.get('x-request-id')).to.equal('erp-42.a');
        const denied = await fetch(`${url}/v1/tags`, { headers: { 'x-request-id': 'erp-43' } });
        expect(denied.status).to.equal(401);
        expect(denied.headers.get('x-request-id')).to.equal('erp-43');
        expect(lineFor('erp-43')).to.not.equal(undefined);
    });

    it('replaces a request id that is not a sane token', async () => {

        const res = await fetch(`${url}/healthcheck`, { headers: { 'x-request-id': 'a b<script>' } });
        expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('never logs the Authorization value or the token', async () => {

        await fetch(`${url}/v1/cuits?limit=1`, { headers: { authorization: `Bearer ${token}` } });
        await fetch(`${url}/v1/cuits`, { headers: { authorization: 'Bearer asy_not-a-real-token-at-all' } });
        const text = lines.map((line) => JSON.stringify(line)).join('\n');
        expect(text).to.not.include(token);
        expect(text).to.not.include('asy_not-a-real-token-at-all');
        expect(text.toLowerCase()).to.not.include('authorization');
    });

    it('redacts credential fields wherever a log call carries them', () => {

        const captured: string[] = [];
        const logger = createLogger({ level: 'info', destination: new Writable({ write(chunk: Buffer, _e, done) {

            captured.push(chunk.toString());
            done();
        } }) });

        logger.info({ clave_arca: 'secreta-123', body: { token: 'asy_abc', password: 'hunter22' }, req: { headers: { authorization: 'Bearer x' } } }, 'prueba');
        const text = captured.join('');
        expect(text).to.not.include('secreta-123').and.not.include('asy_abc').and.not.include('hunter22').and.not.include('Bearer x');
        expect(text).to.include('[oculto]');
    });

    const capture = () => {

        const captured: string[] = [];
        const logger = createLogger({ level: 'debug', destination: new Writable({ write(chunk: Buffer, _e, done) {

            captured.push(chunk.toString());
            done();
        } }) });

        return { logger, text: () => captured.join('') };
    };

    it('never writes a request\'s bytes, headers or body, whoever logs them and however (finding 2)', () => {

        const { logger, text } = capture();
        const clave = 'Clave-De-Prueba-99';
        const raw = Buffer.from(`POST /v1/cuits HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n{"clave_arca":"${clave}"}!`);
        // As hapi hands Node's parser error to the log: the request's bytes in `rawPacket`.
        const parseError = Object.assign(new Error('Parse Error: Data after `Connection: close`'), { code: 'HPE_CLOSED_CONNECTION', rawPacket: raw });
        logger.error({ err: parseError, tags: ['connection', 'client', 'error'] }, parseError.message);
        logger.error(parseError);
        logger.info({ bytes: [...raw], packet: raw, view: new Uint8Array(raw), nested: { deeper: { headers: { authorization: `Bearer ${token}` }, rawHeaders: ['Authorization', `Bearer ${token}`], body: raw.toString() } } }, 'request');
        logger.warn({ note: `sent ${token} as Bearer ${token}` }, `texto con Bearer ${token}`);

        const written = text();
        expect(written.split('\n').filter(Boolean)).to.have.length(4);
        expect(logLeaks(written, [token, clave])).to.deep.equal([]);
        expect(written).to.include('HPE_CLOSED_CONNECTION').and.include('[oculto]');
    });

    it('the run\'s secrets check finds a token, a key or a request\'s bytes written raw, as bytes, hex or base64', () => {

        const clave = 'Clave-De-Prueba-99';
        const raw = Buffer.from(`GET / HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
        expect(logLeaks(JSON.stringify({ rawPacket: raw }))).to.not.deep.equal([]);
        expect(logLeaks(`{"data":[${[...raw].join(',')}]}`)).to.not.deep.equal([]);
        expect(logLeaks(`bytes ${[...Buffer.from(clave)].join(', ')}`, [clave])).to.not.deep.equal([]);
        expect(logLeaks(`hex ${raw.toString('hex')}`)).to.not.deep.equal([]);
        expect(logLeaks(`b64 ${raw.toString('base64')}`)).to.not.deep.equal([]);
        expect(logLeaks(`b64 ${Buffer.from(`x${clave}`).toString('base64url')}`, [clave])).to.not.deep.equal([]);
        expect(logLeaks(`{"password":"hunter22"}`)).to.not.deep.equal([]);
        expect(logLeaks(JSON.stringify({
            msg: 'request',
            path: '/v1/cuits/20123456786/mis-comprobantes/emitidos',
            requestId: 'a7c1e0d2-7f55-4c36-9c1b-2b1b0f1e9d11',
            time: 1795424315853
        }), [clave])).to.deep.equal([]);
    });
});

// The process's log is written off the request's path (app/log-stream.ts): what is still
// waiting when the process ends is written before it goes.
describe('the log at the end of a process', () => {

    it('writes every line, the ones logged just before process.exit too, in order', async function () {

        this.timeout(30_000);
        // In the built app (dist/), as `serve` runs: a burst longer than a pipe holds, then a
        // few lines and the exit in the same turn.
        const script = [
            "import { createLogger } from './app/logger.js';",
            "const logger = createLogger({ level: 'info' });",
            'for (let i = 0; i < 20000; i++) logger.info({ i }, `línea ${i}`);',
            "setImmediate(() => { for (let i = 20000; i < 20010; i++) logger.info({ i }, `línea ${i}`); logger.info('última'); process.exit(0); });"
        ].join('\n');
        const result = await runProcess(['--input-type=module', '-e', script], { cwd: dirname(dirname(builtCli())), env: process.env });
        expect(result.code, result.stderr.slice(-500)).to.equal(0);
        const lines = result.stderr.split('\n').filter(Boolean).map((text) => JSON.parse(text) as { i?: number; msg: string });
        expect(lines).to.have.length(20_011);
        expect(lines.slice(0, -1).every((line, i) => line.i === i)).to.equal(true);
        expect(lines.at(-1)!.msg).to.equal('última');
    });

    it('a serve process stopped by SIGTERM logs every request it answered, then its last line', async function () {

        this.timeout(60_000);
        const db = await database!.create();
        const serve = await startServeProcess(db.url, { LOG_LEVEL: 'info' });
        try {
            const ids = await Promise.all(Array.from({ length: 200 }, async () => (await fetch(`${serve.url}/v1/tags`)).headers.get('x-request-id')));
            await serve.stop();
            expect(serve.child.exitCode).to.equal(0);
            const lines = serve.log().split('\n').filter(Boolean).map((text) => JSON.parse(text) as { requestId?: string; msg: string });
            const logged = new Set(lines.map((line) => line.requestId));
            expect(ids.filter((id) => !logged.has(id!))).to.deep.equal([]);
            expect(lines.at(-1)!.msg).to.equal('arcasync detenido');
        }
        finally {
            await serve.stop();
            await db.release();
        }
    });
});
