import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createServiceMetrics, startMetricsListener } from '../../../adapters/metrics/prometheus.js';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import { createHttpServer } from '../../../servers/http/server.js';
import { testDatabases } from '../../support/databases.js';
import { runCli, startServeProcess } from '../../support/cli.js';
import { seedAccount } from '../../support/fixtures.js';

// Prometheus metrics on a listener of their own: requests by route and status, 429s by
// limit, sync jobs by outcome and failures by system.

const [database] = testDatabases();

describe('Prometheus metrics', () => {

    it('counts requests by route template and status, and 429s by limit, on a separate listener', async () => {

        const db = await database!.create();
        const config = loadConfig({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '2' });
        const app = await composeApp(config);
        const metrics = createServiceMetrics({ defaults: false });
        const server = await createHttpServer(app.ports, { host: '127.0.0.1', port: 0, metrics });
        await server.start();
        const listener = await startMetricsListener(metrics, { host: '127.0.0.1', port: 0 });
        try {
            const { token } = await seedAccount(app.ports);
            const get = (path: string) => fetch(`${server.info.uri}${path}`, { headers: { authorization: `Bearer ${token}` } });
            expect((await get('/v1/cuits')).status).to.equal(200);
            expect((await get('/v1/cuits/20123456786/sct')).status).to.equal(404);
            expect((await get('/v1/cuits')).status).to.equal(429);

            const metricsUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
            const text = await (await fetch(`${metricsUrl}/metrics`)).text();
            expect(text).to.include('arcasync_http_requests_total{method="GET",route="/v1/cuits",status="200"} 1');
            expect(text).to.include('arcasync_http_requests_total{method="GET",route="/v1/cuits/{cuit}/sct",status="404"} 1');
            expect(text).to.include('arcasync_http_requests_total{method="GET",route="/v1/cuits",status="429"} 1');
            expect(text).to.include('arcasync_rate_limit_rejections_total{limit="2"} 1');
            expect(text).to.match(/arcasync_http_request_duration_seconds_count\{method="GET",route="\/v1\/cuits",status="200"\} 1/);
            expect(text).to.not.include('20123456786');

            expect((await fetch(`${metricsUrl}/v1/cuits`)).status).to.equal(404);
            expect((await fetch(`${server.info.uri}/metrics`)).status).to.equal(404);
        }
        finally {
            listener.close();
            await server.stop();
            await app.close();
            await db.release();
        }
    });

    it('is served by `arcasync serve` on METRICS_PORT, apart from the API; serve advertises where it listens; SIGTERM stops it cleanly', async function () {

        this.timeout(60_000);
        const db = await database!.create();
        const probe = createServer();
        await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
        const port = (probe.address() as AddressInfo).port;
        await new Promise((resolve) => probe.close(resolve));
        const serve = await startServeProcess(db.url, { METRICS_PORT: String(port), LOG_LEVEL: 'silent' });
        try {
            expect((await fetch(`${serve.url}/healthcheck`)).status).to.equal(200);
            expect((await fetch(`${serve.url}/v1/tags`)).status).to.equal(401);
            const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
            expect(text).to.include('arcasync_http_requests_total{method="GET",route="/v1/tags",status="401"} 1');
            expect(text).to.include('arcasync_process_resident_memory_bytes');

            // Without PUBLIC_URL the MCP resource is where the server listens (--port 0 here).
            const resource = await (await fetch(`${serve.url}/.well-known/oauth-protected-resource`)).json() as { resource: string };
            expect(resource.resource).to.equal(`${serve.url}/mcp`);
        }
        finally {
            await serve.stop();
            await db.release();
        }

        expect(serve.child.exitCode).to.equal(0);
    });

    it('serve refuses to start off the embedded database without ARCASYNC_SECRET_KEY, with a Spanish one-line error', async function () {

        this.timeout(30_000);
        const db = await database!.create();
        try {
            const result = await runCli(db.url, ['serve', '--port', '0'], { ARCASYNC_SECRET_KEY: '' });
            expect(result.code).to.equal(1);
            expect(result.stderr.trim().split('\n')).to.have.length(1);
            expect(result.stderr).to.match(/^Error: Falta ARCASYNC_SECRET_KEY/);
        }
        finally {
            await db.release();
        }
    });

    it('counts sync jobs by outcome and failed systems by system', async () => {

        const metrics = createServiceMetrics({ defaults: false });
        metrics.syncJobFinished({ outcome: 'synced', failedSystems: [] });
        metrics.syncJobFinished({ outcome: 'partial', failedSystems: ['sct', 'dfe'] });
        metrics.syncJobFinished({ outcome: 'partial', failedSystems: ['sct'] });
        const text = await metrics.registry.metrics();
        expect(text).to.include('arcasync_sync_jobs_total{outcome="synced"} 1');
        expect(text).to.include('arcasync_sync_jobs_total{outcome="partial"} 2');
        expect(text).to.include('arcasync_sync_failures_total{system="sct"} 2');
        expect(text).to.include('arcasync_sync_failures_total{system="dfe"} 1');
    });
});
