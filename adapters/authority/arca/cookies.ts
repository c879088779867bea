// A small cookie jar, one per logged-in session. Keyed by the real (logical) host names, so
// it behaves the same when every host is routed to the simulated authority.

interface Cookie {
    name: string;
    value: string;
    domain: string;
    hostOnly: boolean;
    path: string;
    expiresAt: number | null;
}

export interface CookieJar {
    store(url: URL, setCookieHeaders: readonly string[]): void;
    header(url: URL): string | null;
    clear(): void;
}

const internals = {
    parse(url: URL, header: string, now: number): Cookie | null {

        const [pair, ...attributes] = header.split(';');
        const index = pair!.indexOf('=');
        if (index < 1) {
            return null;
        }

        const cookie: Cookie = {
            name: pair!.slice(0, index).trim(),
            value: pair!.slice(index + 1).trim(),
            domain: url.hostname,
            hostOnly: true,
            path: '/',
            expiresAt: null
        };

        for (const attribute of attributes) {
            const [rawKey, ...rest] = attribute.split('=');
            const key = rawKey!.trim().toLowerCase();
            const value = rest.join('=').trim();
            if (key === 'domain' && value) {
                const domain = value.replace(/^\./, '').toLowerCase();
                if (url.hostname !== domain && !url.hostname.endsWith(`.${domain}`)) {
                    return null;                     // another site's cookie: refused (RFC 6265)
                }

                cookie.domain = domain;
                cookie.hostOnly = false;
            }
            else if (key === 'path' && value.startsWith('/')) {
                cookie.path = value;
            }
            else if (key === 'max-age' && /^-?\d+$/.test(value)) {
                cookie.expiresAt = now + Number(value) * 1000;
            }
            else if (key === 'expires' && cookie.expiresAt === null) {
                const time = Date.parse(value);
                cookie.expiresAt = Number.isNaN(time) ? null : time;
            }
        }

        return cookie;
    },

    matches(cookie: Cookie, url: URL): boolean {

        const host = url.hostname;
        const domainOk = cookie.hostOnly ? host === cookie.domain : host === cookie.domain || host.endsWith(`.${cookie.domain}`);
        const path = url.pathname;
        const pathOk = path === cookie.path || path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`);
        return domainOk && pathOk;
    }
};

export const createCookieJar = (): CookieJar => {

    const cookies = new Map<string, Cookie>();
    return {
        store(url, headers) {

            const now = Date.now();
            // Some stacks fold several Set-Cookie headers into one, comma separated; an
            // Expires date's comma is never followed by "name=".
            for (const header of headers.flatMap((value) => value.split(/,(?=\s*[^;,=\s]+=)/))) {
                const cookie = internals.parse(url, header, now);
                if (!cookie) {
                    continue;
                }

                const key = `${cookie.domain}|${cookie.path}|${cookie.name}`;
                if (cookie.expiresAt !== null && cookie.expiresAt <= now) {
                    cookies.delete(key);
                }
                else {
                    cookies.set(key, cookie);
                }
            }
        },

        header(url) {

            const now = Date.now();
            const pairs: string[] = [];
            for (const [key, cookie] of cookies) {
                if (cookie.expiresAt !== null && cookie.expiresAt <= now) {
                    cookies.delete(key);
                }
                else if (internals.matches(cookie, url)) {
                    pairs.push(`${cookie.name}=${cookie.value}`);
                }
            }

            return pairs.length ? pairs.join('; ') : null;
        },

        clear() {

            cookies.clear();
        }
    };
};
