import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TargetPolicy } from '../../core/domain/webhook.js';
import { refusedAddress } from '../../core/domain/webhook.js';
import type { WebhookSender } from '../../core/ports/index.js';

// The webhook sender over node:http(s): no redirects (node never follows them), a timeout on
// the whole call, and the resolver wrapped so that the address actually connected to is the
// one checked (a name that resolved to a public address at creation and to a private one now,
// DNS rebinding, is refused before connecting). The answer's body is read and dropped.

export type Lookup = (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

class RefusedTarget extends Error {}

const internals = {
    maxAnswerBytes: 64 * 1024,

    lookupAll: (lookup: Lookup) => (hostname: string): Promise<LookupAddress[]> => new Promise((resolve, reject) => {

        lookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
    }),

    describe(err: unknown, timeoutMs: number): string {

        if (err instanceof RefusedTarget) {
            return err.message;
        }

        const code = (err as { code?: unknown } | null)?.code;
        if (code === 'ETIMEDOUT' || code === 'ABORT_ERR') {
            return `El receptor no respondió en ${Math.round(timeoutMs / 1000)} s.`;
        }

        if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
            return 'No se pudo resolver el nombre del receptor.';
        }

        return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `No se pudo conectar con el receptor (${code}).` : 'No se pudo conectar con el receptor.';
    }
};

export const createWebhookSender = (options: { lookup?: Lookup } = {}): WebhookSender => {

    const lookup: Lookup = options.lookup ?? (dnsLookup as unknown as Lookup);
    const resolveAll = internals.lookupAll(lookup);

    // What the socket connects to: every address of the name checked, the first one used.
    const guardedLookup = (policy: TargetPolicy) => (
        hostname: string,
        lookupOptions: LookupOptions,
        callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void
    ) => {

        lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {

            if (err) {
                return callback(err, '', 0);
            }

            const refused = addresses.map((entry) => refusedAddress(entry.address, policy)).find((reason) => reason !== null);
            if (refused || !addresses.length) {
                return callback(Object.assign(new RefusedTarget(refused ?? 'No se pudo resolver el nombre del receptor.'), { code: 'EREFUSEDTARGET' }), '', 0);
            }

            if (lookupOptions.all) {
                return callback(null, addresses);
            }

            callback(null, addresses[0]!.address, addresses[0]!.family);
        });
    };

    return {
        async check(url, policy) {

            const host = url.hostname.replace(/^\[|\]$/g, '');
            try {
                const addresses = await resolveAll(host);
                return addresses.map((entry) => refusedAddress(entry.address, policy)).find((reason) => reason !== null) ?? null;
            }
            catch {
                return `No se pudo resolver el nombre ${host}.`;
            }
        },

        send(call) {

            return new Promise((resolve) => {

                let settled = false;
                const finish = (answer: { status: number } | { error: string }) => {

                    if (!settled) {
                        settled = true;
                        clearTimeout(timer);
                        resolve(answer);
                    }
                };

                const url = new URL(call.url);
                const literal = url.hostname.replace(/^\[|\]$/g, '');
                // An address literal is connected to without a lookup: check it here.
                const refused = /^[\d.]+$|:/.test(literal) ? refusedAddress(literal, call.policy) : null;
                if (refused) {
                    return resolve({ error: refused });
                }

                const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
                    method: 'POST',
                    headers: { ...call.headers, 'content-length': Buffer.byteLength(call.body) },
                    lookup: guardedLookup(call.policy) as never,
                    agent: false
                }, (response) => {

                    let read = 0;
                    response.on('data', (chunk: Buffer) => {

                        read += chunk.length;
                        if (read > internals.maxAnswerBytes) {
                            response.destroy();
                        }
                    });
                    response.on('end', () => finish({ status: response.statusCode ?? 0 }));
                    response.on('close', () => finish({ status: response.statusCode ?? 0 }));
                    response.on('error', () => finish({ status: response.statusCode ?? 0 }));
                });

                const timer = setTimeout(() => {

                    request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
                }, call.timeoutMs);
                request.on('error', (err) => finish({ error: internals.describe(err, call.timeoutMs) }));
                request.end(call.body);
            });
        }
    };
};
