import type { Server } from '@hapi/hapi';
import type { App } from './compose.js';
import { createLogger } from './logger.js';
import { guardProcess } from './process-guard.js';
import { observeJob, startProcessMetrics } from './metrics.js';
import { startSyncWorker } from './worker.js';
import type { JobResult } from '../core/use-cases/sync/run-job.js';
import { createHttpServer } from '../servers/http/server.js';

// A serving process: the REST API and /mcp, with a sync worker beside it when asked, and
// Prometheus metrics on METRICS_PORT when set. stop() is the graceful order: no new jobs
// (running ones given back), in-flight requests finished, then the database released.

export interface ServeOptions {
    host?: string;
    port?: number;
    worker?: { concurrency: number } | null;
    metrics?: boolean;                 // METRICS_PORT honoured (the demo has none)
}

export interface Serving {
    url: string;
    stop(): Promise<void>;
}

export const startServing = async (app: App, options: ServeOptions = {}): Promise<Serving> => {

    const metrics = options.metrics === false ? null : await startProcessMetrics(app);
    const observe = metrics ? { onResult: (result: JobResult) => observeJob(metrics.metrics, result) } : {};
    const worker = options.worker ? startSyncWorker(app, { concurrency: options.worker.concurrency, ...observe }) : null;
    const stop = async (server?: Server) => {

        await worker?.stop();
        await server?.stop({ timeout: 10_000 });
        metrics?.close();
        await app.close();
    };

    const logger = createLogger({ level: app.config.logLevel });
    guardProcess(logger);
    let server: Server | undefined;
    try {
        server = await createHttpServer(app.ports, {
            host: options.host ?? app.config.host,
            port: options.port ?? app.config.port,
            // Without PUBLIC_URL the server advertises the address it listens on (--port included).
            ...(app.config.publicUrlSet ? { publicUrl: app.config.publicUrl } : {}),
            trustProxy: app.config.trustProxy,
            maxOAuthClients: app.config.maxOAuthClients,
            logger,
            ...(metrics ? { metrics: metrics.metrics } : {})
        });
        await server.start();
    }
    catch (err) {
        await stop().catch(() => undefined);
        throw err;
    }

    const started = server;
    return { url: started.info.uri, stop: () => stop(started) };
};
