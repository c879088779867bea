import type { BenchData, IntegratorData } from './seed.js';

// The URLs the bench drives, each with the token that asks for it. Integrators page through
// every page of a period after each daily sync: every request is a different URL, so none is
// answered from the read cache unless the same page is asked for again.

export interface BenchRequest {
    token: string;
    path: string;
}

const internals = {
    limit: 50,

    pages: (total: number, limit: number): number[] => Array.from({ length: Math.max(1, Math.ceil(total / limit)) }, (_, i) => i * limit),

    // The users' passes one request of each in turn, as concurrent integrators send them.
    interleave(passes: BenchRequest[][]): BenchRequest[] {

        const longest = Math.max(...passes.map((pass) => pass.length));
        const all: BenchRequest[] = [];
        for (let i = 0; i < longest; i++) {
            for (const pass of passes) {
                if (i < pass.length) {
                    all.push(pass[i]!);
                }
            }
        }

        return all;
    }
};

// Every page of the bench month of issued invoices of the main CUIT, in turn.
export const monthPages = (data: BenchData): BenchRequest[] => {

    const base = `/v1/cuits/${data.cuit}/mis-comprobantes/emitidos?from_date=${data.month.from}&to_date=${data.month.to}&limit=${internals.limit}`;
    return internals.pages(data.month.invoices, internals.limit).map((offset) => ({ token: data.token, path: `${base}&offset=${offset}` }));
};

// Each user's pass over its CUITs (every page of the month's issued and received invoices,
// SCT, CCMA balances, every page of movements and of DFE), the users' passes interleaved as
// concurrent integrators would send them.
export const integratorRequests = (data: IntegratorData): BenchRequest[] => internals.interleave(data.users.map((user) => user.cuits.flatMap((cuit) => {

    const { limit } = internals;
    const base = `/v1/cuits/${cuit.cuit}`;
    const range = `from_date=${data.month.from}&to_date=${data.month.to}`;
    return [
        ...internals.pages(cuit.issued, limit).map((offset) => `${base}/mis-comprobantes/emitidos?${range}&limit=${limit}&offset=${offset}`),
        ...internals.pages(cuit.received, limit).map((offset) => `${base}/mis-comprobantes/recibidos?${range}&limit=${limit}&offset=${offset}`),
        `${base}/sct`,
        `${base}/ccma`,
        ...internals.pages(cuit.periods, limit).map((offset) => `${base}/ccma/movimientos?limit=${limit}&offset=${offset}`),
        ...internals.pages(cuit.notifications, limit).map((offset) => `${base}/dfe?limit=${limit}&offset=${offset}`)
    ].map((path) => ({ token: user.token, path }));
})));

// What a server is warmed on before the integrators' pass is measured: the same users and
// endpoints, so every route's code has run as often as in a server that has been up, but
// never a URL of the pass (a read cache warmed on them would answer the pass): the month
// before, pages of 49, and the SCT and CCMA balances of the bench's main CUIT.
export const integratorWarmup = (data: IntegratorData, main: BenchData): BenchRequest[] => internals.interleave(data.users.map((user) => [
    ...user.cuits.flatMap((cuit) => {

        const limit = internals.limit - 1;
        const base = `/v1/cuits/${cuit.cuit}`;
        const range = `from_date=${data.previousMonth.from}&to_date=${data.previousMonth.to}`;
        return [
            ...internals.pages(cuit.issued / 2, limit).map((offset) => `${base}/mis-comprobantes/emitidos?${range}&limit=${limit}&offset=${offset}`),
            ...internals.pages(cuit.received / 2, limit).map((offset) => `${base}/mis-comprobantes/recibidos?${range}&limit=${limit}&offset=${offset}`),
            ...internals.pages(cuit.periods, limit).map((offset) => `${base}/ccma/movimientos?limit=${limit}&offset=${offset}`),
            ...internals.pages(cuit.notifications, limit).map((offset) => `${base}/dfe?limit=${limit}&offset=${offset}`)
        ].map((path) => ({ token: user.token, path }));
    }),
    { token: main.token, path: `/v1/cuits/${main.cuit}/sct` },
    { token: main.token, path: `/v1/cuits/${main.cuit}/ccma` }
]));
