import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Prometheus metrics of one process: HTTP requests by route and status, rate-limit
// rejections, sync jobs by outcome and sync failures by system. A registry per process
// (not prom-client's global one), so tests can build several.

export interface ServiceMetrics {
    readonly registry: Registry;
    observeRequest(input: { method: string; route: string; status: number; seconds: number }): void;
    rateLimitRejected(limit: number): void;
    syncJobFinished(input: { outcome: string; failedSystems: readonly string[] }): void;
    authorityPageCaptured(system: string): void;
}

export const createServiceMetrics = (options: { defaults?: boolean } = {}): ServiceMetrics => {

    const registry = new Registry();
    if (options.defaults !== false) {
        collectDefaultMetrics({ register: registry, prefix: 'arcasync_' });
    }

    const requests = new Counter({
        name: 'arcasync_http_requests_total',
        help: 'Solicitudes HTTP por ruta y estado',
        labelNames: ['method', 'route', 'status'],
        registers: [registry]
    });
    const duration = new Histogram({
        name: 'arcasync_http_request_duration_seconds',
        help: 'Duración de las solicitudes HTTP por ruta y estado',
        labelNames: ['method', 'route', 'status'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
        registers: [registry]
    });
    const rateLimited = new Counter({
        name: 'arcasync_rate_limit_rejections_total',
        help: 'Solicitudes rechazadas con 429, por límite superado',
        labelNames: ['limit'],
        registers: [registry]
    });
    const jobs = new Counter({
        name: 'arcasync_sync_jobs_total',
        help: 'Trabajos de sincronización terminados, por resultado',
        labelNames: ['outcome'],
        registers: [registry]
    });
    const failures = new Counter({
        name: 'arcasync_sync_failures_total',
        help: 'Sistemas que fallaron al sincronizar, por sistema',
        labelNames: ['system'],
        registers: [registry]
    });
    const unknownPages = new Counter({
        name: 'arcasync_authority_unknown_pages_total',
        help: 'Páginas de ARCA con una forma desconocida, guardadas para diagnóstico, por sistema',
        labelNames: ['system'],
        registers: [registry]
    });

    return {
        registry,
        observeRequest({ method, route, status, seconds }) {

            const labels = { method, route, status: String(status) };
            requests.inc(labels);
            duration.observe(labels, seconds);
        },
        rateLimitRejected(limit) {

            rateLimited.inc({ limit: String(limit) });
        },
        syncJobFinished({ outcome, failedSystems }) {

            jobs.inc({ outcome });
            for (const system of failedSystems) {
                failures.inc({ system });
            }
        },
        authorityPageCaptured(system) {

            unknownPages.inc({ system });
        }
    };
};

// A listener of its own, apart from the API, so metrics are never exposed to API clients.
export const startMetricsListener = async (metrics: ServiceMetrics, options: { host: string; port: number }): Promise<Server> => {

    const server = createServer((req, res) => {

        if (req.method !== 'GET' || req.url !== '/metrics') {
            res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"error":"No existe el recurso solicitado."}');
            return;
        }

        metrics.registry.metrics().then((text) => {

            res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text);
        }, () => res.writeHead(500).end());
    });

    await new Promise<void>((resolve, reject) => {

        server.once('error', reject);
        server.listen(options.port, options.host, resolve);
    });

    return server;
};
