import type { ResponseToolkit, Server } from '@hapi/hapi';
import type { RateLimitInfo } from '../../core/domain/errors.js';
import type { RateLimitStatus } from '../../core/domain/rate-limit.js';

// The rate-limit headers (docs/api.md, Limits), in one place. A 429 carries the limit it exceeded, Remaining 0, when it
// is released and Retry-After (exceededHeaders, set by errors.ts); every other answer to a
// counted request carries the limit closest to running out, GitHub-style (registered here).

export const exceededHeaders = (rateLimit: RateLimitInfo): Record<string, string> => ({
    'Retry-After': String(rateLimit.retryAfterSeconds),
    'X-RateLimit-Limit': String(rateLimit.limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(rateLimit.resetAt)
});

const usageHeaders = (status: RateLimitStatus): Record<string, string> => ({
    'X-RateLimit-Limit': String(status.limit),
    'X-RateLimit-Remaining': String(status.remaining),
    'X-RateLimit-Reset': String(status.resetAt)
});

export const registerRateLimitHeaders = (server: Server): void => {

    server.ext('onPreResponse', (request, h: ResponseToolkit) => {

        const status = request.auth.credentials?.user?.rateLimit;
        const response = request.response;
        if (status && response) {
            const headers = usageHeaders(status);
            if ('isBoom' in response && response.isBoom) {
                Object.assign(response.output.headers, headers);
            }
            else if ('header' in response) {
                for (const [name, value] of Object.entries(headers)) {
                    response.header(name, value);
                }
            }
        }

        return h.continue;
    });
};
