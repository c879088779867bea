import type { AuthorityClient, AuthorityCredentials, AuthoritySession } from '../../../core/ports/authority-client.js';
import { createCcma } from './ccma.js';
import { createDfe } from './dfe.js';
import type { Transport, TransportOptions } from './http.js';
import { createTransport } from './http.js';
import { login } from './login.js';
import { createMisComprobantes } from './mis-comprobantes.js';
import { createRegistry } from './registry.js';
import { createSct } from './sct.js';

// The real authority, scraped over HTTP (AUTHORITY.md). Pointed at the simulated authority
// with `baseUrl`, it runs the very same code.

export interface ArcaClientOptions extends Partial<TransportOptions> {
    invoicesVia?: 'csv' | 'json';      // Mis Comprobantes: the CSV export (default) or the JSON pages
    pageSize?: number;                 // rows per listaResultados page
    pollIntervalMs?: number;           // wait between polls of a pending query
    maxPolls?: number;
    dfeLookbackDays?: number;          // how far back notifications are listed
    now?: () => Date;
}

export interface ArcaClient extends AuthorityClient {
    readonly transport: Transport;
}

const internals = {
    // One logged-in session per login CUIT at a time: a representative's sessions for itself and
    // for each entity it represents queue behind one another. A session holds its turn until
    // close(); opening a second one for the same login CUIT before closing the first waits.
    createTurns() {

        const tails = new Map<string, Promise<void>>();
        return async (key: string): Promise<() => void> => {

            const previous = tails.get(key) ?? Promise.resolve();
            let release!: () => void;
            const current = new Promise<void>((resolve) => {

                release = resolve;
            });
            const tail = previous.then(() => current);
            tails.set(key, tail);
            await previous;
            let released = false;
            return () => {

                if (!released) {
                    released = true;
                    release();
                    if (tails.get(key) === tail) {
                        tails.delete(key);
                    }
                }
            };
        };
    }
};

export const createArcaClient = (options: ArcaClientOptions = {}): ArcaClient => {

    const transport = createTransport(options);
    const turn = internals.createTurns();
    const now = options.now ?? (() => new Date());

    return {
        transport,

        async login(credentials: AuthorityCredentials): Promise<AuthoritySession> {

            const release = await turn(credentials.loginCuit);
            const http = transport.session();
            try {
                await login(http, credentials);
            }
            catch (err) {
                http.close();
                release();
                throw err;
            }

            const misComprobantes = createMisComprobantes(http, credentials, {
                via: options.invoicesVia ?? 'csv',
                pageSize: options.pageSize ?? 100,
                pollIntervalMs: options.pollIntervalMs ?? 1_000,
                maxPolls: options.maxPolls ?? 60
            });
            const sct = createSct(http, credentials);
            const ccma = createCcma(http, credentials);
            const dfe = createDfe(http, credentials, { lookbackDays: options.dfeLookbackDays ?? 730, now });
            const registry = createRegistry(http, credentials);

            return {
                registry: () => registry.registry(),
                invoices: (kind, range) => misComprobantes.invoices(kind, range),
                sct: () => sct.sct(),
                ccma: () => ccma.ccma(),
                notifications: () => dfe.notifications(),
                close() {

                    http.close();
                    release();
                    return Promise.resolve();
                }
            };
        }
    };
};
