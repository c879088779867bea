import PQueue from 'p-queue';
import type { Router } from '../hosts.js';
import { arcaHosts, createRouter } from '../hosts.js';
import type { CookieJar } from './cookies.js';
import { createCookieJar } from './cookies.js';
import { failure, isAuthorityFailure } from './failures.js';

// Every request to the authority goes through here: one global p-queue (low concurrency), one
// p-queue per host (at most `intervalCap` starts per `interval`), a timeout on every call,
// retries with exponential backoff and jitter for transient failures only (5xx, 429, timeouts,
// resets, a page that could not be read) and a browser-like User-Agent (the authority's web
// firewall stalls other clients). Cookies live in one jar per session.

export interface TransportOptions {
    baseUrl: string | null;            // route every host to one server (the simulated authority)
    concurrency: number;
    perHost: { intervalCap: number; interval: number };
    timeoutMs: number;
    retries: number;                   // extra attempts after the first
    backoffMs: number;                 // first retry waits about this long, doubling each time
    maxBackoffMs: number;
    userAgent: string;
}

export const defaultTransportOptions: TransportOptions = {
    baseUrl: null,
    concurrency: 4,
    perHost: { intervalCap: 5, interval: 1000 },
    timeoutMs: 30_000,
    retries: 3,
    backoffMs: 500,
    maxBackoffMs: 8_000,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
};

export interface HttpResponse {
    status: number;
    url: URL;                          // the real (logical) address of the final response
    headers: Headers;
    body: Buffer;
    text(): string;
    json(): unknown;                   // throws unexpected_page on malformed JSON
}

export interface RequestSpec {
    method?: 'GET' | 'POST';
    url: URL;
    form?: Record<string, string>;
    accept?: string;
    referer?: URL;
    // 'transient' (default): retry every transient failure. 'server_error': retry only when the
    // server answered 5xx/429 — for the password POST, where a timeout, a reset or an unknown
    // page may hide an evaluated password and a retry could count against the key.
    retry?: 'transient' | 'server_error';
}

export interface HttpSession {
    // `read` runs inside the retry loop: a transient AuthorityFailure thrown from it (e.g. a
    // malformed payload) is retried like a 5xx; any other kind ends the call at once.
    request<T>(spec: RequestSpec, read: (response: HttpResponse) => T | Promise<T>): Promise<T>;
    close(): void;
}

export interface Transport {
    session(): HttpSession;
    readonly requests: number;         // HTTP requests sent so far (each attempt and redirect)
}

const internals = {
    maxRedirects: 10,
    serverErrors: new WeakSet<Error>(),
    sessionLost: new WeakSet<Error>(),            // retrying within this session cannot help

    delay(ms: number): Promise<void> {

        return new Promise((resolve) => setTimeout(resolve, ms));
    },

    backoff(options: TransportOptions, attempt: number): number {

        const ceiling = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** attempt);
        return Math.round(ceiling / 2 + Math.random() * ceiling / 2);
    },

    response(status: number, url: URL, headers: Headers, body: Buffer): HttpResponse {

        return {
            status,
            url,
            headers,
            body,
            text: () => body.toString('utf8'),
            json: () => {

                try {
                    return JSON.parse(body.toString('utf8')) as unknown;
                }
                catch {
                    throw failure('unexpected_page', `JSON inválido en ${url.pathname}`);
                }
            }
        };
    },

    // Network errors and timeouts become `unavailable`; everything else is passed through.
    classify(err: unknown, url: URL): Error {

        if (isAuthorityFailure(err)) {
            return err;
        }

        const name = err instanceof Error ? err.name : '';
        if (name === 'TimeoutError' || name === 'AbortError') {
            return failure('unavailable', `tiempo de espera agotado en ${url.host}`);
        }

        return failure('unavailable', `sin conexión con ${url.host}`);
    }
};

export const createTransport = (overrides: Partial<TransportOptions> = {}): Transport => {

    const options: TransportOptions = { ...defaultTransportOptions, ...overrides, perHost: { ...defaultTransportOptions.perHost, ...overrides.perHost } };
    const router: Router = createRouter(options.baseUrl);
    const global = new PQueue({ concurrency: options.concurrency });
    const hosts = new Map<string, PQueue>();
    let requests = 0;

    const hostQueue = (host: string): PQueue => {

        let queue = hosts.get(host);
        if (!queue) {
            queue = new PQueue({ intervalCap: options.perHost.intervalCap, interval: options.perHost.interval, strict: true });
            hosts.set(host, queue);
        }

        return queue;
    };

    // One HTTP exchange, body included, inside both queues and under the timeout.
    const exchange = (jar: CookieJar, spec: RequestSpec, url: URL, method: string, body: string | undefined): Promise<HttpResponse> => {

        return hostQueue(url.host).add(() => global.add(async () => {

            const headers: Record<string, string> = {
                'user-agent': options.userAgent,
                accept: spec.accept ?? 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
                'accept-language': 'es-AR,es;q=0.9'
            };
            const cookie = jar.header(url);
            if (cookie) {
                headers.cookie = cookie;
            }

            if (body !== undefined) {
                headers['content-type'] = 'application/x-www-form-urlencoded';
            }

            if (spec.referer) {
                headers.referer = spec.referer.href;
            }

            requests++;
            const signal = AbortSignal.timeout(options.timeoutMs);
            const res = await fetch(router.physical(url), { method, headers, body, redirect: 'manual', signal });
            const payload = Buffer.from(await res.arrayBuffer());
            jar.store(url, res.headers.getSetCookie());
            return internals.response(res.status, url, res.headers, payload);
        }));
    };

    // One attempt: the request and its redirects, then the caller's reading of the result.
    const attempt = async <T>(jar: CookieJar, spec: RequestSpec, read: (response: HttpResponse) => T | Promise<T>): Promise<T> => {

        let url = spec.url;
        let method: string = spec.method ?? 'GET';
        let body = spec.form ? new URLSearchParams(spec.form).toString() : undefined;
        for (let hop = 0; hop <= internals.maxRedirects; ++hop) {
            let response: HttpResponse;
            try {
                response = await exchange(jar, spec, url, method, body);
            }
            catch (err) {
                throw internals.classify(err, url);
            }

            const location = response.headers.get('location');
            if (response.status >= 300 && response.status < 400 && location) {
                url = new URL(location, url);
                if (response.status !== 307 && response.status !== 308) {
                    method = 'GET';
                    body = undefined;
                }

                continue;
            }

            // A service that sends us back to the login form: the session expired or was closed.
            if (url.host === arcaHosts.auth && spec.url.host !== url.host && /\/login(Clave)?\.xhtml$/.test(url.pathname)) {
                const error = failure('unavailable', `sesión vencida en ${spec.url.host}`);
                internals.sessionLost.add(error);
                throw error;
            }

            if (response.status >= 500 || response.status === 429) {
                const error = failure('unavailable', `HTTP ${response.status} en ${url.host}${url.pathname}`);
                internals.serverErrors.add(error);
                throw error;
            }

            return await read(response);
        }

        throw failure('unexpected_page', `demasiadas redirecciones desde ${spec.url.pathname}`);
    };

    return {
        get requests() {

            return requests;
        },

        session() {

            const jar = createCookieJar();
            return {
                async request(spec, read) {

                    for (let tries = 0; ; ++tries) {
                        try {
                            return await attempt(jar, spec, read);
                        }
                        catch (err) {
                            const retryable = isAuthorityFailure(err) && err.transient && !internals.sessionLost.has(err) && (spec.retry !== 'server_error' || internals.serverErrors.has(err));
                            if (!retryable || tries >= options.retries) {
                                throw err;
                            }

                            await internals.delay(internals.backoff(options, tries));
                        }
                    }
                },

                close() {

                    jar.clear();
                }
            };
        }
    };
};
