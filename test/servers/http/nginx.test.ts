import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startServeProcess } from '../../support/cli.js';
import type { ServeProcess } from '../../support/cli.js';
import { closedPort, testDatabases } from '../../support/databases.js';

// The service behind a real nginx (Debian's package; .ci/run installs it) configured by
// deploy/nginx.conf as the README says: the OAuth metadata publishes https URLs of PUBLIC_URL,
// the request log names the client's address (not nginx's), and the per-address throttles
// count that client, whatever X-Forwarded-For it sends itself.

const internals = {
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    nginx: ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path)) ?? null,

    // deploy/nginx.conf on test ports and a self-signed certificate, in a prefix of its own.
    config(dir: string, listen: number, upstream: number): string {

        const site = readFileSync(join(internals.root, 'deploy/nginx.conf'), 'utf8')
            .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${upstream};`)
            .replace(/server \{\n    listen 80;[\s\S]*?\n\}\n/, '')
            .replace(/    listen \[::\]:443 ssl http2;\n/, '')
            .replace('listen 443 ssl http2;', `listen 127.0.0.1:${listen} ssl http2;`)
            .replace(/ssl_certificate .*;/, `ssl_certificate ${join(dir, 'cert.pem')};`)
            .replace(/ssl_certificate_key .*;/, `ssl_certificate_key ${join(dir, 'key.pem')};`);
        expect(site).to.include(`127.0.0.1:${listen}`).and.include(`127.0.0.1:${upstream}`).and.not.include('listen 80');
        return [
            process.getuid?.() === 0 ? 'user root;' : '',
            'worker_processes 1;',
            `pid ${join(dir, 'nginx.pid')};`,
            `error_log ${join(dir, 'error.log')};`,
            'events { worker_connections 64; }',
            'http {',
            `    access_log ${join(dir, 'access.log')};`,
            ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `    ${name}_temp_path ${join(dir, name)};`),
            site,
            '}'
        ].join('\n');
    },

    // An HTTPS request from a given loopback address (the client nginx sees).
    get(port: number, path: string, from: string, options: {
        method?: string;
        headers?: Record<string, string>;
        body?: string;
    } = {}): Promise<{ status: number; body: string }> {

        return new Promise((resolve, reject) => {

            const req = request({
                host: '127.0.0.1',
                port,
                path,
                method: options.method ?? 'GET',
                localAddress: from,
                rejectUnauthorized: false,
                headers: options.headers ?? {}
            }, (res) => {

                let body = '';
                res.setEncoding('utf8');
                res.on('data', (chunk: string) => (body += chunk));
                res.on('end', () => resolve({ status: res.statusCode!, body }));
            });
            req.on('error', reject);
            req.end(options.body);
        });
    }
};

describe('behind nginx (deploy/nginx.conf)', function () {

    this.timeout(60_000);
    let dir: string;
    let nginx: ChildProcess | null = null;
    let serving: ServeProcess | null = null;
    let port: number;
    let release: () => Promise<void>;
    const publicUrl = () => `https://127.0.0.1:${port}`;

    before(async function () {

        if (!internals.nginx) {
            // CI installs it (.ci/run); on a machine without it the suite says so.
            console.log('    nginx no está instalado: se omite la prueba detrás de nginx (apt-get install nginx).');
            this.skip();
        }

        dir = mkdtempSync(join(tmpdir(), 'arcasync-nginx-'));
        execFileSync(
            'openssl',
            [
                'req',
                '-x509',
                '-newkey',
                'rsa:2048',
                '-nodes',
                '-days',
                '1',
                '-subj',
                '/CN=127.0.0.1',
                '-keyout',
                join(dir, 'key.pem'),
                '-out',
                join(dir, 'cert.pem')
            ],
            { stdio: 'ignore' }
        );
        port = await closedPort();
        const [sqlite] = testDatabases();
        const db = await sqlite!.create();
        release = db.release;
        // The service on a port of its own first, then nginx in front of it.
        serving = await startServeProcess(db.url, { PUBLIC_URL: `https://127.0.0.1:${port}`, TRUST_PROXY: '1', LOG_LEVEL: 'info' });
        const upstream = Number(new URL(serving.url).port);
        writeFileSync(join(dir, 'nginx.conf'), internals.config(dir, port, upstream));
        nginx = spawn(internals.nginx!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
        for (let i = 0; i < 100; i++) {
            const up = await internals.get(port, '/healthcheck', '127.0.0.1').catch(() => null);
            if (up?.status === 200) {
                return;
            }

            await new Promise((resolve) => setTimeout(resolve, 100));
        }

        throw new Error(`nginx no respondió: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    });

    after(async () => {

        nginx?.kill('SIGTERM');
        await serving?.stop();
        await release?.();
        if (dir) {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it('publishes the OAuth metadata with the https URLs of PUBLIC_URL', async () => {

        const server = JSON.parse((await internals.get(port, '/.well-known/oauth-authorization-server', '127.0.0.1')).body) as Record<string, string>;
        expect(server.issuer).to.equal(publicUrl());
        expect(server.token_endpoint).to.equal(`${publicUrl()}/oauth/token`);
        expect(server.authorization_endpoint).to.equal(`${publicUrl()}/oauth/authorize`);
        expect(server.registration_endpoint).to.equal(`${publicUrl()}/oauth/register`);
        const resource = JSON.parse((await internals.get(port, '/.well-known/oauth-protected-resource/mcp', '127.0.0.1')).body) as {
            resource: string;
            authorization_servers: string[];
        };
        expect(resource).to.deep.include({ resource: `${publicUrl()}/mcp`, authorization_servers: [publicUrl()] });
    });

    it('logs the client\'s address, not nginx\'s nor one the client wrote', async () => {

        await internals.get(port, '/v1/tags', '127.0.0.2', { headers: { 'x-forwarded-for': '203.0.113.7', 'x-request-id': 'detras-de-nginx' } });
        const find = () => serving!.log().split('\n').filter(Boolean).map((text) => JSON.parse(text) as Record<string, unknown>).find(
            (candidate) => candidate.requestId === 'detras-de-nginx'
        );
        // The process writes its log asynchronously: the line follows the answer shortly.
        for (let i = 0; i < 50 && !find(); i++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
        }

        const line = find();
        expect(line, serving!.log()).to.deep.include({ client: '127.0.0.2', req: { method: 'GET', path: '/v1/tags' }, res: { statusCode: 401 } });
    });

    it('throttles registrations per client address, whatever X-Forwarded-For the client sends', async () => {

        const register = (from: string, spoofed: string) => internals.get(port, '/oauth/register', from, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed },
            body: JSON.stringify({ client_name: 'Detrás de nginx', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] })
        });
        const statuses: number[] = [];
        for (let i = 0; i < 21; i++) {
            statuses.push((await register('127.0.0.3', `198.51.100.${i}`)).status);
        }

        expect(statuses.slice(0, 20)).to.deep.equal(new Array(20).fill(201));
        expect(statuses[20]).to.equal(429);
        // Another client behind the same nginx is not the one that was throttled.
        expect((await register('127.0.0.4', '198.51.100.1')).status).to.equal(201);
    });
});
