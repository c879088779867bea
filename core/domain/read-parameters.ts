import type { ParameterVariant, ReadParameterName } from '../contract/read-parameters.js';
import { readPathSchema, readQuerySchema } from '../contract/read-parameters.js';
import { failuresOf, validationPreferences } from '../contract/failures.js';
import type { Categoria } from './client.js';
import type { Cuit } from './cuit.js';
import type { HealthState } from './health.js';
import type { Riesgo } from './monotributo.js';
import { invalid } from './errors.js';

// What a read request carries, and its parse by the contract (core/contract/read-parameters.ts).
// Front ends hand over what they received as it came: HTTP its path and query strings, MCP a
// tool's JSON arguments. Every front end therefore accepts and refuses the same values with
// the same Spanish messages, and a new one cannot skip a rule.

export type { ReadParameterName } from '../contract/read-parameters.js';

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

const internals = {
    // Built once per list of names (each use case has one).
    querySchemas: new Map<string, ReturnType<typeof readQuerySchema>>(),

    querySchema(names: readonly ReadParameterName[], variant?: ParameterVariant) {

        const key = `${variant ?? ''}:${names.join(',')}`;
        let schema = internals.querySchemas.get(key);
        if (!schema) {
            schema = readQuerySchema(names, variant);
            internals.querySchemas.set(key, schema);
        }

        return schema;
    },

    // The parse of the last requests, by what they carried. joi takes ~15 µs for a lone CUIT,
    // the dearest step of a read the read cache answers (bench:api's GET …/sct), and a client
    // asks for the same few URLs over and over. A parse is a pure function of the names and
    // the values, so an accepted one is kept (a refusal is parsed anew); only requests of
    // strings (REST's, an MCP tool's text arguments), whose JSON says all they carry.
    parsed: new Map<string, Readonly<Record<string, unknown>>>(),
    maxParsed: 1_000,
    maxKey: 512,

    isText: (value: unknown): boolean => typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')),

    memoKey(request: ReadRequest, names: readonly ReadParameterName[]): string | null {

        for (const values of [request.path ?? {}, request.query]) {
            for (const key in values) {
                if (!internals.isText(values[key])) {
                    return null;
                }
            }
        }

        const key = `${names.join(',')} ${JSON.stringify(request.path ?? {})} ${JSON.stringify(request.query)}`;
        return key.length <= internals.maxKey ? key : null;
    },

    remember(key: string, values: Record<string, unknown>): void {

        if (internals.parsed.size >= internals.maxParsed) {
            internals.parsed.delete(internals.parsed.keys().next().value!);      // the oldest
        }

        // Frozen: every caller gets the same lists (etiquetas, estado).
        for (const value of Object.values(values)) {
            if (Array.isArray(value)) {
                Object.freeze(value);
            }
        }

        internals.parsed.set(key, Object.freeze(values));
    }
};

// Parses the named parameters of a read request; anything else it carries is refused. Every
// failure is joined in one message (docs/api.md, Errors): the path's first, then the query's.
// The 'months' variant reads `desde` and `hasta` as months (the IVA position).
export const parseReadRequest = <K extends ReadParameterName>(
    request: ReadRequest,
    names: readonly K[],
    variant?: ParameterVariant
): Pick<ReadParameters, K> => {

    const key = internals.memoKey(request, names);
    const known = key === null ? undefined : internals.parsed.get(key);
    if (known) {
        return { ...known } as Pick<ReadParameters, K>;
    }

    const fromPath = names.filter((name) => Object.hasOwn(request.path ?? {}, name));
    const inQuery = names.filter((name) => !fromPath.includes(name));
    const path = Object.fromEntries(fromPath.map((name) => [name, request.path![name]]));

    const pathResult = fromPath.length ? readPathSchema.validate(path, validationPreferences) : { value: {}, error: undefined };
    const queryResult = internals.querySchema(inQuery, variant).validate(request.query, validationPreferences);
    const failures = [...failuresOf(pathResult.error, fromPath, path), ...failuresOf(queryResult.error, inQuery, request.query)];
    if (failures.length) {
        throw invalid(failures);
    }

    const values = { ...pathResult.value, ...queryResult.value } as Record<string, unknown>;
    const parsed = Object.fromEntries(names.map((name) => [name, values[name]]));
    if (key !== null) {
        internals.remember(key, parsed);
        return { ...parsed } as Pick<ReadParameters, K>;
    }

    return parsed as Pick<ReadParameters, K>;
};
