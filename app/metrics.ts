import type { App } from './compose.js';
import type { ServiceMetrics } from '../adapters/metrics/prometheus.js';
import { createServiceMetrics, startMetricsListener } from '../adapters/metrics/prometheus.js';
import type { JobResult } from '../core/use-cases/sync/run-job.js';

// The Prometheus metrics of a long-running process (`serve`, `sync worker`) when METRICS_PORT
// is set, on a listener of their own at HOST:METRICS_PORT.

export interface ProcessMetrics {
    metrics: ServiceMetrics;
    close(): void;
}

export const startProcessMetrics = async (app: App): Promise<ProcessMetrics | null> => {

    if (app.config.metricsPort === null) {
        return null;
    }

    const metrics = createServiceMetrics();
    app.authority.onCapture((page) => metrics.authorityPageCaptured(page.system));
    const listener = await startMetricsListener(metrics, { host: app.config.host, port: app.config.metricsPort });
    return { metrics, close: () => listener.close() };
};

// What a worker's finished job adds to the metrics.
export const observeJob = (metrics: ServiceMetrics, result: JobResult): void => {

    metrics.syncJobFinished({ outcome: result.outcome, failedSystems: result.systems.filter((system) => !system.ok).map((system) => system.system) });
};
