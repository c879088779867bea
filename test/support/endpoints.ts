// The read endpoints (docs/api.md, Endpoints), for suites that check a rule on every one of them.

export const perCuitEndpoints = (cuit: string): string[] => [
    `/v1/cuits/${cuit}/mis-comprobantes/emitidos`,
    `/v1/cuits/${cuit}/mis-comprobantes/recibidos`,
    `/v1/cuits/${cuit}/sct`,
    `/v1/cuits/${cuit}/ccma`,
    `/v1/cuits/${cuit}/ccma/movimientos`,
    `/v1/cuits/${cuit}/dfe`
];

export const readEndpoints = (cuit: string): string[] => ['/v1/cuits', '/v1/tags', ...perCuitEndpoints(cuit)];

// Limits high enough that suites not about rate limits never meet them under a frozen clock.
export const noRateLimits = { perMinute: 1_000_000, perMonth: 100_000_000 };
