import type { Categoria } from './client.js';
import type { Cuit } from './cuit.js';
import type { HealthState } from './health.js';
import type { Riesgo } from './monotributo.js';

// What a read request carries, and the values its parameters take once the contract
// (core/contract/read-parameters.ts, parseReadRequest) has accepted them. Front ends hand over
// what they received as it came: HTTP its path and query strings, MCP a tool's JSON arguments.

export type RawParameters = Readonly<Record<string, unknown>>;

// What a read request carries: REST has a path (the `{cuit}`) and a query; an MCP tool has
// only its arguments, the CUIT among them.
export interface ReadRequest {
    readonly path?: RawParameters | undefined;
    readonly query: RawParameters;
}

export interface ReadParameters {
    cuit: Cuit;
    limit: number;
    offset: number;
    etiquetas: string[] | undefined;
    monotributista: boolean | undefined;
    autonomo: boolean | undefined;
    categoria: Categoria | undefined;
    from_date: string | undefined;
    to_date: string | undefined;
    estado: HealthState[] | undefined;
    requiere_atencion: boolean | undefined;
    riesgo: Riesgo[] | undefined;
    // Days (YYYY-MM-DD), or months (YYYY-MM) under the 'months' variant.
    desde: string | undefined;
    hasta: string | undefined;
}

// The parameters a read may take, by their wire names.
export type ReadParameterName = keyof ReadParameters;
