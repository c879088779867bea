import type { Server } from '@hapi/hapi';

// What the HTTP server reports; the process hands in its metrics (app/metrics.ts).
export interface RequestMetrics {
    observeRequest(input: { method: string; route: string; status: number; seconds: number }): void;
    rateLimitRejected(limit: number): void;
}

// Counts every response by route template (not raw path: CUITs would explode the label
// set) and status, and the 429s by the limit they hit.
export const registerHttpMetrics = (server: Server, metrics: RequestMetrics): void => {

    server.events.on('response', (request) => {

        const response = request.response as unknown as { statusCode?: number; headers?: Record<string, unknown> } | null;
        const status = response?.statusCode ?? 0;
        const route = request.route.path === '/{path*}' ? 'unknown' : request.route.path;
        const end = request.info.completed || request.info.responded || Date.now();
        metrics.observeRequest({ method: request.method.toUpperCase(), route, status, seconds: Math.max(0, end - request.info.received) / 1000 });
        if (status === 429) {
            metrics.rateLimitRejected(Number(response?.headers?.['X-RateLimit-Limit'] ?? response?.headers?.['x-ratelimit-limit'] ?? 0));
        }
    });
};
