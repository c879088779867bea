import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import PQueue from 'p-queue';
import { CookieJar } from 'tough-cookie';
import { withoutSessionIds } from '../../../core/domain/session-ids.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';
import type { HostGate } from '../../../core/ports/fleet.js';
import type { Router } from '../hosts.js';
import { arcaHosts, createRouter } from '../hosts.js';
import type { Diagnostics } from './diagnostics.js';
import { failure, isAuthorityFailure } from './failures.js';

// Every request to the authority goes through here. Within one key's session each host is
// spoken to strictly one request at a time, at least `pacingMs` apart (fes: 1.2 s, docs/authority.md);
// all sessions together keep under a global cap of requests in flight, handed out to the
// session with the most work left first (SessionOptions.priority). A firewall block (a
// body "BL<digits> …" or an empty 503) closes the host to every session for `blockWaitMs`,
// and through `hostGate` to every worker of the fleet.
// Only safe reads are retried (5xx, 429, timeouts, resets) with backoff; nothing that posts
// a password or a jwt is ever sent twice. Waits go through `clock` so tests need not wait.

export interface TransportClock {
    now(): number;
    sleep(ms: number): Promise<void>;
}

export interface TransportOptions {
    baseUrl: string | null;            // route every host to one server (the simulated authority)
    concurrency: number;               // requests in flight across all sessions
    pacingMs: Record<string, number> & { default: number };   // per host name, within a session
    blockWaitMs: number;               // after a firewall block, no request to that host this long
    timeoutMs: number;
    retries: number;                   // extra attempts of a safe read after the first
    backoffMs: number;
    maxBackoffMs: number;
    userAgent: string;
    legacyTlsHosts: readonly string[]; // hosts whose TLS needs OpenSSL's legacy settings
    responseCapBytes: number;          // an answer past it is refused (too_large) as it arrives
    clock: TransportClock;
    diagnostics: Diagnostics | null;
    // The fleet's view of the hosts (the database): blocks every worker honours, and requests in
    // flight per host across the fleet. null: this process alone.
    hostGate: HostGate | null;
    // Each exchange as it ends (no query, no body): what `authority probe` prints.
    onExchange: ((exchange: { session: number; method: string; host: string; path: string; status: number; ms: number }) => void) | null;
}

const realClock: TransportClock = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms))
};

export const defaultTransportOptions: TransportOptions = {
    baseUrl: null,
    concurrency: 4,
    pacingMs: { default: 300, [arcaHosts.mcmp]: 1_200 },
    blockWaitMs: 15 * 60_000,
    timeoutMs: 30_000,
    retries: 2,
    backoffMs: 1_000,
    maxBackoffMs: 8_000,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    legacyTlsHosts: [arcaHosts.ccam],
    // The largest pages and exports are a few MB.
    responseCapBytes: 32 * 1024 * 1024,
    clock: realClock,
    diagnostics: null,
    hostGate: null,
    onExchange: null
};

export interface HttpResponse {
    status: number;
    url: URL;                          // the real (logical) address of the final response
    headers: IncomingHttpHeaders;
    body: Buffer;
    text(): string;                    // decoded by the declared charset (classic ASP: latin-1)
    json(): unknown;                   // undefined when the body is not JSON
}

interface RequestSpec {
    method?: 'GET' | 'POST';
    url: URL;
    form?: Record<string, string>;
    // A JSON body (an ASP.NET page method), sent as application/json; charset=UTF-8.
    json?: unknown;
    accept?: string;
    referer?: URL | string;
    origin?: string;
    xhr?: boolean;                     // X-Requested-With: XMLHttpRequest
    // 'safe' (GET default): retried on 5xx/429/timeouts/resets. 'never' (POST default).
    retry?: 'safe' | 'never';
    followRedirects?: boolean;         // default true
    timeoutMs?: number;                // this request's own limit (a slow service's warm-up)
}

export interface HttpSession {
    request<T>(spec: RequestSpec, read: (response: HttpResponse) => T | Promise<T>): Promise<T>;
    cookie(url: URL, name: string): string | null;
    // Values that must never leave in a capture (password, jwt, token, sign).
    secret(value: string): void;
    // A page matching no known shape: captured (redacted) and turned into a typed failure.
    unexpected(response: HttpResponse, system: string, step: string, detail: string, options?: { touchedPassword?: boolean }): AuthorityFailure;
    readonly requests: number;
    close(): void;
}

interface SessionOptions {
    // Read each time one of the session's requests waits for a global slot: the waiting request
    // of the session with the highest value goes first (in arrival order among equals). A
    // session's requests are sequential, so this only orders sessions against each other.
    priority?: () => number;
    // Called once, when the session's first request has reached the authority: its answer is
    // back, or it failed.
    onFirstAnswer?: () => void;
}

export interface Transport {
    session(options?: SessionOptions): HttpSession;
    readonly requests: number;         // HTTP requests sent so far (each attempt and redirect)
    readonly options: TransportOptions;
}

interface Exchanged {
    status: number;
    headers: IncomingHttpHeaders;
    body: Buffer;
}

const internals = {
    maxRedirects: 10,
    retryable: new WeakSet<Error>(),

    charset(headers: IncomingHttpHeaders): BufferEncoding {

        return /charset=(iso-8859-1|latin-?1|windows-1252)/i.test(String(headers['content-type'] ?? '')) ? 'latin1' : 'utf8';
    },

    response(status: number, url: URL, headers: IncomingHttpHeaders, body: Buffer): HttpResponse {

        return {
            status,
            url,
            headers,
            body,
            text: () => body.toString(internals.charset(headers)),
            json: () => {

                try {
                    return JSON.parse(body.toString('utf8')) as unknown;
                }
                catch {
                    return undefined;
                }
            }
        };
    },

    // The firewall's answers (docs/authority.md): HTTP 200 with "BL<digits> <timestamp>", or an
    // empty 503.
    isBlock(status: number, body: Buffer): boolean {

        if (status === 503 && body.length === 0) {
            return true;
        }

        return status === 200 && body.length < 200 && /^\s*BL\d+/.test(body.toString('latin1'));
    },

    transient(kind: 'unavailable', detail: string): AuthorityFailure {

        const error = failure(kind, detail);
        internals.retryable.add(error);
        return error;
    }
};

export const createTransport = (overrides: Partial<TransportOptions> = {}): Transport => {

    const options: TransportOptions = { ...defaultTransportOptions, ...overrides, pacingMs: { ...defaultTransportOptions.pacingMs, ...overrides.pacingMs } };
    const clock = options.clock;
    const router: Router = createRouter(options.baseUrl);
    const global = new PQueue({ concurrency: options.concurrency });
    const blockedUntil = new Map<string, number>();
    const agents = {
        http: new HttpAgent({ keepAlive: true }),
        https: new HttpsAgent({ keepAlive: true }),
        legacy: new HttpsAgent({ keepAlive: true, ciphers: 'DEFAULT@SECLEVEL=0', minVersion: 'TLSv1' })
    };
    let requests = 0;
    let sessions = 0;

    const responseCapBytes = options.responseCapBytes;
    const send = (logical: URL, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<Exchanged> => {

        const physical = new URL(router.physical(logical));
        const secure = physical.protocol === 'https:';
        const agent = !secure ? agents.http : options.legacyTlsHosts.includes(logical.host) ? agents.legacy : agents.https;
        const call = secure ? httpsRequest : httpRequest;
        return new Promise<Exchanged>((resolve, reject) => {

            const req = call(physical, { method, headers, agent, signal: AbortSignal.timeout(timeoutMs) }, (res) => {

                const chunks: Buffer[] = [];
                let size = 0;
                res.on('data', (chunk: Buffer) => {

                    // An answer past the cap is dropped as it arrives, never held whole.
                    size += chunk.length;
                    if (size > responseCapBytes) {
                        req.destroy();
                        reject(new AuthorityFailure('too_large', `${logical.host}: respuesta de más de ${responseCapBytes / 1024 / 1024} MB`));
                        return;
                    }

                    chunks.push(chunk);
                });
                res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
                res.on('error', reject);
            });
            req.on('error', reject);
            req.end(body);
        });
    };

    return {
        options,
        get requests() {

            return requests;
        },

        session(sessionOptions = {}) {

            const priority = sessionOptions.priority ?? (() => 0);
            let onFirstAnswer = sessionOptions.onFirstAnswer;
            const jar = new CookieJar();
            const tails = new Map<string, Promise<void>>();
            const lastAt = new Map<string, number>();
            const secrets = new Set<string>();
            const id = ++sessions;
            let sent = 0;

            // This session's turn at a host: after the previous request to it, paced, and not
            // while the host is blocked.
            const turn = async (host: string): Promise<() => void> => {

                const previous = tails.get(host) ?? Promise.resolve();
                let release!: () => void;
                const mine = new Promise<void>((resolve) => {

                    release = resolve;
                });
                tails.set(host, previous.then(() => mine));
                await previous;
                const pacing = options.pacingMs[host] ?? options.pacingMs.default;
                for (;;) {
                    const at = clock.now();
                    const wait = Math.max((lastAt.get(host) ?? -Infinity) + pacing - at, (blockedUntil.get(host) ?? 0) - at, 0);
                    if (wait <= 0) {
                        break;
                    }

                    await clock.sleep(wait);
                }

                return () => {

                    lastAt.set(host, clock.now());
                    release();
                };
            };

            const exchange = async (spec: RequestSpec, url: URL, method: string, body: string | undefined): Promise<HttpResponse> => {

                const headers: Record<string, string> = {
                    'user-agent': options.userAgent,
                    accept: spec.accept ?? 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
                    'accept-language': 'es-AR,es;q=0.9'
                };
                const cookie = jar.getCookieStringSync(url.href);
                if (cookie) {
                    headers.cookie = cookie;
                }

                if (body !== undefined) {
                    headers['content-type'] = spec.json === undefined ? 'application/x-www-form-urlencoded' : 'application/json; charset=UTF-8';
                }

                if (spec.referer) {
                    headers.referer = String(spec.referer);
                }

                if (spec.origin) {
                    headers.origin = spec.origin;
                }

                if (spec.xhr) {
                    headers['x-requested-with'] = 'XMLHttpRequest';
                }

                const done = await turn(url.host);
                let exchanged: Exchanged;
                let ms = 0;
                try {
                    requests++;
                    sent++;
                    // Timed inside the global slot: the authority's time, not the queue's.
                    exchanged = await global.add(async () => {

                        const leave = await options.hostGate?.enter(url.host);
                        try {
                            const started = clock.now();
                            const result = await send(url, method, headers, body, spec.timeoutMs ?? options.timeoutMs);
                            ms = clock.now() - started;
                            return result;
                        }
                        finally {
                            onFirstAnswer?.();
                            onFirstAnswer = undefined;
                            await leave?.();
                        }
                    }, { priority: priority() }) as Exchanged;
                    options.onExchange?.({ session: id, method, host: url.host, path: withoutSessionIds(url.pathname), status: exchanged.status, ms });
                }
                catch (err) {
                    if (err instanceof AuthorityFailure) {
                        throw err;
                    }

                    const name = err instanceof Error ? err.name : '';
                    throw internals.transient('unavailable', name === 'TimeoutError' || name === 'AbortError' ? `tiempo de espera agotado en ${url.host}` : `sin conexión con ${url.host}`);
                }
                finally {
                    done();
                }

                for (const header of [exchanged.headers['set-cookie'] ?? []].flat()) {
                    jar.setCookieSync(header, url.href, { ignoreError: true });
                    // A cookie's value never leaves in a capture, in any form.
                    const value = /^[^=;]+=([^;]*)/.exec(header)?.[1] ?? '';
                    if (value.length >= 4) {
                        secrets.add(value);
                        secrets.add(decodeURIComponent(value.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')));
                    }
                }

                if (internals.isBlock(exchanged.status, exchanged.body)) {
                    blockedUntil.set(url.host, clock.now() + options.blockWaitMs);
                    await options.hostGate?.block(url.host, Date.now() + options.blockWaitMs).catch(() => undefined);
                    throw failure('firewall_block', `${url.host}${url.pathname}`);
                }

                return internals.response(exchanged.status, url, exchanged.headers, exchanged.body);
            };

            // One attempt: the request and its redirects, then the caller's reading of it.
            const attempt = async <T>(spec: RequestSpec, read: (response: HttpResponse) => T | Promise<T>): Promise<T> => {

                let url = spec.url;
                let method: string = spec.method ?? 'GET';
                let body = spec.json !== undefined ? JSON.stringify(spec.json) : spec.form ? new URLSearchParams(spec.form).toString() : undefined;
                for (let hop = 0; hop <= internals.maxRedirects; ++hop) {
                    const response = await exchange(spec, url, method, body);
                    const location = response.headers.location;
                    if (response.status >= 300 && response.status < 400 && location && spec.followRedirects !== false) {
                        url = new URL(location, url);
                        if (response.status !== 307 && response.status !== 308) {
                            method = 'GET';
                            body = undefined;
                        }

                        continue;
                    }

                    if (response.status >= 500 || response.status === 429) {
                        throw internals.transient('unavailable', `HTTP ${response.status} en ${url.host}${url.pathname}`);
                    }

                    return await read(response);
                }

                throw failure('unexpected_page', `demasiadas redirecciones desde ${spec.url.pathname}`);
            };

            return {
                get requests() {

                    return sent;
                },

                async request(spec, read) {

                    const safe = (spec.retry ?? ((spec.method ?? 'GET') === 'GET' ? 'safe' : 'never')) === 'safe';
                    for (let tries = 0; ; ++tries) {
                        try {
                            return await attempt(spec, read);
                        }
                        catch (err) {
                            if (!safe || !isAuthorityFailure(err) || !internals.retryable.has(err) || tries >= options.retries) {
                                throw err;
                            }

                            const ceiling = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** tries);
                            await clock.sleep(Math.round(ceiling / 2 + Math.random() * ceiling / 2));
                        }
                    }
                },

                cookie(url, name) {

                    return jar.getCookiesSync(url.href).find((cookie) => cookie.key === name)?.value ?? null;
                },

                secret(value) {

                    if (value) {
                        secrets.add(value);
                    }
                },

                unexpected(response, system, step, detail, failureOptions = {}) {

                    options.diagnostics?.capture({ system, step, url: response.url, status: response.status, body: response.text(), secrets: [...secrets] });
                    return failure('unexpected_page', `${system} ${step}: ${detail}`, failureOptions);
                },

                close() {

                    jar.removeAllCookiesSync();
                    secrets.clear();
                }
            };
        }
    };
};
