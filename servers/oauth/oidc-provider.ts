import type { errors as ProviderErrors, Provider as ProviderClass } from 'oidc-provider';

// oidc-provider 9 writes "Unsupported runtime" on stderr as it loads on any Node.js LTS older
// than 22, the oldest its maintainers test on; this service supports 20.19 and later
// (package.json engines) and runs its OAuth tests there. That one line would open every
// `serve` outside the logger (docs/operations.md: logs are JSON lines): it alone is held back while the
// module loads; anything else it says goes through.

const internals = {
    unsupportedRuntime: /^oidc-provider WARNING: Unsupported runtime\./,

    async load(): Promise<typeof import('oidc-provider')> {

        const warn = console.warn;
        console.warn = (...args: unknown[]) => {

            if (typeof args[0] !== 'string' || !internals.unsupportedRuntime.test(args[0])) {
                warn(...args);
            }
        };

        try {
            return await import('oidc-provider');
        }
        finally {
            console.warn = warn;
        }
    }
};

const loaded = await internals.load();

export const Provider: typeof ProviderClass = loaded.Provider;
export const errors: typeof ProviderErrors = loaded.errors;
