import type { ArcaClient, ArcaClientOptions } from '../adapters/authority/arca/index.js';
import { createArcaClient } from '../adapters/authority/arca/index.js';
import type { SimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { defaultFesMinGapMs, representationsPath, startSimulatedAuthority } from '../adapters/authority/simulated/index.js';
import type { KeySession } from '../core/ports/authority-client.js';
import type { CapturedPage } from '../adapters/authority/arca/diagnostics.js';
import { createDiagnostics, diagnosticsDirOf } from '../adapters/authority/arca/diagnostics.js';
import type { Config } from './config.js';

// What the CLI uses of the authority's adapters beside the client: the probe, the simulated
// authority run alone, and the captured pages' summary.
export { probeKey } from '../adapters/authority/arca/probe.js';
export { diagnosticsDirOf, diagnosticsSummary } from '../adapters/authority/arca/diagnostics.js';
export type { SimulatedFailures } from '../adapters/authority/simulated/index.js';
export { startSimulatedAuthority } from '../adapters/authority/simulated/index.js';

// The authority client from configuration (docs/operations.md). Always the `arca` scraper:
// AUTHORITY=arca talks to the real hosts (or to AUTHORITY_URL when set); AUTHORITY=simulated
// talks to the simulated authority at AUTHORITY_URL, or to one started in this process on an
// ephemeral port at the first login (it does not keep the process alive; close() stops it).

export interface ConfiguredAuthority extends ArcaClient {
    // Each page of the real authority that matched no known shape, as it is captured.
    onCapture(listener: (page: CapturedPage) => void): void;
    close(): Promise<void>;
    simulated(): Promise<SimulatedAuthority | null>;      // the in-process one, started on demand
}

const internals = {
    // The simulated authority lets a person's key act for any legal entity unless a scenario
    // refused it; it is told which one before the entity's first read in a session, as the
    // real one knows its representations from its registry.
    representing(client: ArcaClient, actFor: (login: string, cuit: string) => Promise<void>): ArcaClient['login'] {

        return async (key, options) => {

            const session = await client.login(key, options);
            return {
                close: () => session.close(),
                taxpayer(cuit) {

                    const taxpayer = session.taxpayer(cuit);
                    let told: Promise<void> | null = null;
                    const first = <T>(read: () => Promise<T>) => async (): Promise<T> => {

                        told ??= actFor(key.loginCuit, cuit).catch(() => undefined);
                        await told;
                        return read();
                    };

                    return {
                        registry: first(() => taxpayer.registry()),
                        invoices: (kind, range) => first(() => taxpayer.invoices(kind, range))(),
                        sct: first(() => taxpayer.sct()),
                        ccma: first(() => taxpayer.ccma()),
                        notifications: first(() => taxpayer.notifications())
                    };
                }
            };
        };
    },

    // Told over HTTP when the simulated authority runs apart (arcasync authority simulate).
    remoteActFor: (baseUrl: string) => async (login: string, cuit: string): Promise<void> => {

        await fetch(`${baseUrl.replace(/\/+$/, '')}${representationsPath}`, { method: 'POST', body: new URLSearchParams({ login, cuit }), signal: AbortSignal.timeout(5_000) });
    },

    // The simulated authority answers at once and does not mind bursts: short waits, a high
    // per-host cap. The real one gets the polite defaults. Its fes floor is met by pacing at it:
    // the adapter counts the gap from the previous answer, which came after the request arrived.
    simulatedTuning: {
        pacingMs: { default: 0, 'fes.afip.gob.ar': defaultFesMinGapMs },
        blockWaitMs: 2_000,
        pollIntervalMs: 20,
        backoffMs: 100,
        maxBackoffMs: 1_000,
        timeoutMs: 10_000
    } satisfies ArcaClientOptions
};

// Who represents whom (login CUIT -> legal entities), for a simulated authority started in this
// process; the demo hands its portfolio's (app/demo.ts).
export type Relations = Record<string, readonly string[]>;

export const createAuthorityClient = (
    config: Pick<Config, 'authority' | 'authorityUrl'> & Partial<Pick<Config, 'dataDir'>>,
    overrides: ArcaClientOptions = {},
    relations: Relations = {}
): ConfiguredAuthority => {

    // Unknown pages of the real authority are kept (redacted) under data/diagnostics.
    const listeners: ((page: CapturedPage) => void)[] = [];
    const diagnostics = createDiagnostics({
        dir: config.authority === 'arca' && config.dataDir ? diagnosticsDirOf(config.dataDir) : null,
        onCapture: (page) => listeners.forEach((listener) => listener(page))
    });
    const onCapture = (listener: (page: CapturedPage) => void) => {

        listeners.push(listener);
    };

    if (config.authority === 'arca' || config.authorityUrl) {
        const tuning = config.authority === 'simulated' ? internals.simulatedTuning : {};
        const client = createArcaClient({ ...tuning, diagnostics, ...overrides, baseUrl: config.authorityUrl });
        const login = config.authority === 'simulated' && config.authorityUrl ? internals.representing(
            client,
            internals.remoteActFor(config.authorityUrl)
        ) : client.login;
        return {
            onCapture,
            transport: client.transport,
            get logins() {

                return client.logins;
            },
            login,
            close: () => Promise.resolve(),
            simulated: () => Promise.resolve(null)
        };
    }

    let started: Promise<{ authority: SimulatedAuthority; client: ArcaClient }> | null = null;
    const start = () => {

        started ??= startSimulatedAuthority({ port: 0, unref: true, relations, captchaAfter: { logins: 5, windowMs: 10 * 60_000 } }).then((authority) => ({
            authority,
            client: createArcaClient({ ...internals.simulatedTuning, diagnostics, ...overrides, baseUrl: authority.url })
        }));
        return started;
    };

    let inProcess: ArcaClient | null = null;
    return {
        onCapture,
        get transport() {

            if (!inProcess) {
                throw new Error('the in-process simulated authority starts at the first login');
            }

            return inProcess.transport;
        },

        get logins() {

            return inProcess?.logins ?? 0;
        },

        async login(key, options): Promise<KeySession> {

            const { authority, client } = await start();
            inProcess = client;
            return internals.representing(client, (login, cuit) => Promise.resolve(void authority.actFor(login, cuit)))(key, options);
        },

        async simulated() {

            return (await start()).authority;
        },

        async close() {

            if (started) {
                const { authority } = await started;
                started = null;
                await authority.stop();
            }
        }
    };
};
