import { existsSync } from 'node:fs';

// A module of the service as production runs it: compiled by tsc into dist/ (`npm run build`),
// not transpiled on load by tsx, whose helpers (a __name call for every function it creates)
// and loader the service never carries. `npm run bench:api` builds first.
export const fromDist = async <T>(path: string): Promise<T> => {

    const url = new URL(`../dist/${path}`, import.meta.url);
    if (!existsSync(url)) {
        throw new Error(`${url.pathname} no existe: corré npm run build`);
    }

    return await import(url.href) as T;
};
