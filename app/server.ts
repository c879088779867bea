import type { Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import type { App } from './compose.js';
import { createLogger } from './logger.js';
import { guardProcess } from './process-guard.js';
import { observeJob, startProcessMetrics } from './metrics.js';
import { checkAuthorityFor, startSyncWorker } from './worker.js';
import { startWebhookWorker } from './webhooks.js';
import type { JobResult } from '../core/use-cases/sync/run-job.js';
import { createHttpServer } from '../servers/http/server.js';
import { checkServerSecrets } from '../servers/oauth/provider.js';
import { checkKeyIdentity } from '../core/use-cases/key-identity.js';

// A serving process: the REST API and /mcp, with a sync worker beside it when asked, and
// Prometheus metrics on METRICS_PORT when set. stop() is the graceful order: no new jobs
// (running ones given back), in-flight requests finished, then the database released.

// One line per synchronization job: which CUIT, how it ended, and each failing system's reason
// (the recorded Spanish explanation, never a key); a failure is a warning.
const logJob = (logger: Logger, result: JobResult): void => {

    const failures = result.systems.filter((system) => system.error).map((system) => ({ system: system.system, error: system.error }));
    const line = {
        jobId: result.jobId,
        clientId: result.clientId,
        cuit: result.cuit,
        outcome: result.outcome,
        disposition: result.disposition,
        attempts: result.attempts,
        invoices: result.invoices,
        ...(failures.length ? { failures } : {}),
        ...(result.error ? { error: result.error } : {})
    };
    if (failures.length || result.error) {
        logger.warn(line, `sincronización con fallas del CUIT ${result.cuit ?? result.clientId}`);
    }
    else {
        logger.info(line, `sincronización del CUIT ${result.cuit ?? result.clientId}: ${result.outcome}`);
    }
};

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

    // The OAuth server's keys sealed under a key this process does not hold: refuse to start
    // rather than break every session and token (docs/operations.md, Key rotation).
    // The same for the keys' identity secret, named as such (docs/operations.md, Key rotation).
    await checkKeyIdentity(app.ports).then(() => checkServerSecrets(app.ports)).catch(async (err: unknown) => {

        await app.close();
        throw err;
    });

    if (options.worker) {
        await checkAuthorityFor(app).catch(async (err: unknown) => {

            await app.close();
            throw err;
        });
    }

    const logger = createLogger({ level: app.config.logLevel });
    guardProcess(logger);
    const metrics = options.metrics === false ? null : await startProcessMetrics(app);
    const onResult = (result: JobResult) => {

        logJob(logger, result);
        if (metrics) {
            observeJob(metrics.metrics, result);
        }
    };
    const worker = options.worker ? startSyncWorker(app, { concurrency: options.worker.concurrency, onResult }) : null;
    // The outbox's deliveries run beside the worker's sync (app/webhooks.ts).
    const deliveries = options.worker ? startWebhookWorker(
        app,
        (err) => logger.warn({ code: (err as { code?: unknown } | null)?.code ?? null }, 'entrega de webhooks: error; se reintenta')
    ) : null;
    const stop = async (server?: Server) => {

        await worker?.stop();
        await deliveries?.stop();
        await server?.stop({ timeout: 10_000 });
        metrics?.close();
        await app.close();
        // The process's last line, written as it exits (app/log-stream.ts).
        if (server) {
            logger.info('arcasync detenido');
        }
    };

    let server: Server | undefined;
    try {
        server = await createHttpServer(app.ports, {
            host: options.host ?? app.config.host,
            port: options.port ?? app.config.port,
            // Without PUBLIC_URL the server advertises the address it listens on (--port included).
            ...(app.config.publicUrlSet ? { publicUrl: app.config.publicUrl } : {}),
            trustProxy: app.config.trustProxy,
            maxOAuthClients: app.config.maxOAuthClients,
            connectionLimits: app.config.connectionLimits,
            ...(app.config.oauthRedirectSchemes ? { oauthRedirectSchemes: app.config.oauthRedirectSchemes } : {}),
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
    // What an operator checks first when a process starts: where, on what, and what else runs.
    logger.info({
        url: started.info.uri,
        database: app.config.databaseUrl.startsWith('mysql') ? 'mysql' : 'sqlite',
        authority: app.config.authority,
        worker: options.worker ? { concurrency: options.worker.concurrency } : null,
        metricsPort: metrics ? app.config.metricsPort : null
    }, 'arcasync en servicio');
    return { url: started.info.uri, stop: () => stop(started) };
};
