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
    return Object.fromEntries(names.map((name) => [name, values[name]])) as Pick<ReadParameters, K>;
};
