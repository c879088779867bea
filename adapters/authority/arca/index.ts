import type { AuthorityClient, AuthorityKey, KeySession, LoginOptions, TaxpayerSession } from '../../../core/ports/authority-client.js';
import { createCcma } from './ccma.js';
import { createDfe } from './dfe.js';
import type { Transport, TransportOptions } from './http.js';
import { createTransport } from './http.js';
import { login } from './login.js';
import { createMisComprobantes } from './mis-comprobantes.js';
import { createRegistry } from './registry.js';
import { createSct } from './sct.js';

// The real authority, scraped over HTTP (docs/authority.md). One login per key: the session reaches
// the key's own CUIT and every legal entity it represents, each selected inside each service
// before its data is read. Pointed at the simulated authority with `baseUrl`, it runs the very
// same code.

export interface ArcaClientOptions extends Partial<TransportOptions> {
    pollIntervalMs?: number;           // wait between polls of a pending Mis Comprobantes query
    maxPolls?: number;
    dfeLookbackDays?: number;          // how far back notifications are listed
    ccmaLookbackMonths?: number;       // how far back CCMA movements are read
}

export interface ArcaClient extends AuthorityClient {
    readonly transport: Transport;
    readonly logins: number;           // password POSTs sent so far
}

export const createArcaClient = (options: ArcaClientOptions = {}): ArcaClient => {

    const transport = createTransport(options);
    const clock = transport.options.clock;
    let logins = 0;

    return {
        transport,
        get logins() {

            return logins;
        },

        async login(key: AuthorityKey, loginOptions: LoginOptions = {}): Promise<KeySession> {

            const http = transport.session({
                ...(loginOptions.workLeft ? { priority: loginOptions.workLeft } : {}),
                ...(loginOptions.started ? { onFirstAnswer: loginOptions.started } : {})
            });
            try {
                logins++;
                await login(http, key);
            }
            catch (err) {
                http.close();
                throw err;
            }

            const mcmp = createMisComprobantes(http, key.loginCuit, {
                pollIntervalMs: options.pollIntervalMs ?? 2_000,
                maxPolls: options.maxPolls ?? 30,
                clock
            });
            const sct = createSct(http, key.loginCuit);
            const ccma = createCcma(http, key.loginCuit, { clock, lookbackMonths: options.ccmaLookbackMonths ?? 24 });
            const dfe = createDfe(http, key.loginCuit, { lookbackDays: options.dfeLookbackDays ?? 730, clock });
            const registry = createRegistry(http, key.loginCuit);

            // The key's taxpayers are walked one after another: each service holds one selection.
            let tail: Promise<unknown> = Promise.resolve();
            const serial = <T>(work: () => Promise<T>): Promise<T> => {

                const run = tail.then(work, work);
                tail = run.catch(() => undefined);
                return run;
            };

            return {
                taxpayer(cuit): TaxpayerSession {

                    return {
                        registry: () => serial(() => registry.registry(cuit)),
                        invoices: (kind, range) => serial(() => mcmp.invoices(cuit, kind, range)),
                        sct: () => serial(() => sct.sct(cuit)),
                        ccma: () => serial(() => ccma.ccma(cuit)),
                        notifications: () => serial(() => dfe.notifications(cuit))
                    };
                },

                async close() {

                    await serial(() => mcmp.close()).catch(() => undefined);
                    http.close();
                }
            };
        }
    };
};
