import type { Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';
import { requestedHost } from './client-address.js';
import { httpMessages } from './messages.js';

// The addresses this server answers for: {base_url} (PUBLIC_URL, by default where it listens),
// where every published URL comes from, and the host names a request may carry.

export interface PublicUrls {
    base(): string;
    // {base_url} as the request named it: the same but for another loopback name of a loopback
    // {base_url} (localhost for 127.0.0.1), which clients compare what they are told with.
    baseFor(request: Request): string;
    // Whether a URL is {base_url}'s origin or such a loopback alias of it.
    sameOrigin(url: string): boolean;
    // Host names (with port) this server is reached by.
    allowedHosts(): ReadonlySet<string>;
    // Reverse proxies in front (TRUST_PROXY); 0 = forwarded headers are not believed.
    trustProxy: number;
}

export const loopbackHosts: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

export const publicUrls = (server: Server, publicUrl: string | undefined, trustProxy: number): PublicUrls => {

    const base = () => (publicUrl ?? server.info.uri).replace(/\/+$/, '');
    let allowed: { address: string; hosts: ReadonlySet<string> } | undefined;
    const sameOrigin = (url: string): boolean => {

        let parsed: URL;
        let own: URL;
        try {
            parsed = new URL(url);
            own = new URL(base());
        }
        catch {
            return false;
        }

        return parsed.origin === own.origin || (loopbackHosts.has(own.hostname) && loopbackHosts.has(
            parsed.hostname
        ) && parsed.protocol === own.protocol && parsed.port === own.port);
    };

    return {
        base,
        sameOrigin,
        baseFor(request) {

            const own = new URL(base());
            const asked = `${own.protocol}//${requestedHost(request, trustProxy)}`;
            return loopbackHosts.has(own.hostname) && sameOrigin(asked) ? `${asked}${own.pathname.replace(/\/+$/, '')}` : base();
        },
        trustProxy,
        allowedHosts() {

            // DNS rebinding: only the names this server is reached by. Asked on every /mcp and
            // /oauth request: built once per address (the port is known only once listening).
            const address = `${server.info.host}:${server.info.port}`;
            if (allowed?.address !== address) {
                const hosts = new Set([new URL(base()).host, address]);
                if (loopbackHosts.has(server.info.host) || server.info.host === '::1') {
                    for (const host of loopbackHosts) {
                        hosts.add(`${host}:${server.info.port}`);
                    }
                }

                allowed = { address, hosts };
            }

            return allowed.hosts;
        }
    };
};

// Host must name this server (DNS rebinding, and no answer built for a foreign name).
export const hostAllowed = (request: Request, urls: PublicUrls): boolean => urls.allowedHosts().has(requestedHost(request, urls.trustProxy));

export const forbiddenHost = (h: ResponseToolkit): ResponseObject => h.response({ error: httpMessages.forbiddenHost }).code(403);
