import type { Request } from '@hapi/hapi';

// Where a request comes from, for the throttles. Forwarded headers are believed only when the
// operator says how many reverse proxies stand in front (TRUST_PROXY): each of them appended
// the address it saw to X-Forwarded-For, so the client is that many entries from the right;
// anything further left was written by the client itself.

const internals = {
    list: (header: unknown): string[] => (Array.isArray(header) ? header.join(',') : typeof header === 'string' ? header : '').split(',').map(
        (part) => part.trim()
    ).filter(Boolean)
};

export const clientAddress = (request: Request, trustProxy: number): string => {

    const forwarded = trustProxy ? internals.list(request.headers['x-forwarded-for']) : [];
    return forwarded[Math.max(0, forwarded.length - trustProxy)] ?? request.info.remoteAddress;
};

// The host the client asked for: Host, or the last proxy's X-Forwarded-Host when trusted.
export const requestedHost = (request: Request, trustProxy: number): string => {

    const forwarded = trustProxy ? internals.list(request.headers['x-forwarded-host']) : [];
    return (forwarded.at(-1) ?? String(request.headers.host ?? '')).toLowerCase();
};
