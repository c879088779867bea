import type Joi from 'joi';
import { categories } from '../domain/client.js';
import { healthStates } from '../domain/health.js';
import { riesgos } from '../domain/monotributo.js';
import { messages } from '../domain/messages.js';
import { invalid } from '../domain/errors.js';
import { maxLimit, pageDefaults } from '../domain/pagination.js';
import type { ReadParameterName, ReadParameters, ReadRequest } from '../domain/read-request.js';
import { failuresOf, validationPreferences } from './failures.js';
import { J } from './joi.js';

// The parameters of the read endpoints (docs/api.md, Reads): each one's rule,
// message, description and example, written once. The core parses REST's path and query and
// an MCP tool's arguments with them (parseReadRequest), so every front end accepts and refuses
// the same values with the same Spanish messages, and a new one cannot skip a rule; the OpenAPI
// document and the MCP input schemas are generated from them (servers/contract/json-schema.ts).

// A tag name as the CUIT-list filter takes it.
const tagNameBounds = { min: 1, max: 100 } as const;

const internals = {
    cuitDescription: 'CUIT del cliente, 11 dígitos con o sin guiones (NN-NNNNNNNN-N).',

    // Whatever a parameter's value breaks, the answer says what the parameter takes. An MCP
    // client may send null for an argument it leaves out.
    parameter: <T extends Joi.Schema>(schema: T, message: string): T => schema.empty(null).messages({ '*': message }) as T
};

export const readParameterSchemas = {
    cuit: internals.parameter(J.cuit().orNumber().required(), messages.field.cuit)
        .description(internals.cuitDescription)
        .example('20-12345678-6'),
    limit: internals.parameter(J.integer().min(1).max(maxLimit).default(pageDefaults.limit), messages.field.limit)
        .description(`Cantidad de registros por página, de 1 a ${maxLimit}.`),
    offset: internals.parameter(J.integer().min(0).default(pageDefaults.offset), messages.field.offset)
        .description('Cantidad de registros a saltear desde el comienzo.'),
    // A repeated parameter (form, exploded): one value arrives alone, several as a list.
    etiquetas: internals.parameter(
        J.array().single().min(1).items(J.text().min(tagNameBounds.min).max(tagNameBounds.max).cleanlyDecoded()),
        messages.field.etiquetas
    )
        // No example: /docs would put it in Try it out and filter by a tag the account may lack.
        .description('Nombres de etiquetas; varias se combinan con O (parámetro repetido: `etiquetas=Monotributo&etiquetas=Sociedades`).'),
    monotributista: internals.parameter(J.boolean().sensitive(), messages.field.monotributista)
        .description('Solo monotributistas (true) o solo quienes no lo son (false).'),
    autonomo: internals.parameter(J.boolean().sensitive(), messages.field.autonomo)
        .description('Solo autónomos (true) o solo quienes no lo son (false).'),
    categoria: internals.parameter(J.string().valid(...categories), messages.field.categoria)
        .description('Categoría de monotributo.'),
    from_date: internals.parameter(J.calendarDate(), messages.field.from_date)
        .description('Primer día del período (AAAA-MM-DD); va junto con to_date. Sin ambos, el mes en curso en UTC.')
        .example('2026-10-01'),
    to_date: internals.parameter(J.calendarDate().notBefore('from_date'), messages.field.to_date)
        .messages({ 'calendarDate.notBefore': messages.dateRangeInverted })
        .description('Último día del período (AAAA-MM-DD), inclusive; va junto con from_date.')
        .example('2026-10-31'),
    // Repeated like etiquetas: one or more health states.
    estado: internals.parameter(J.array().single().min(1).items(J.string().valid(...healthStates)), messages.field.estado)
        .description('Solo los CUIT en estos estados; varios se combinan con O (parámetro repetido).')
        .example(['clave_vencida', 'clave_rechazada']),
    requiere_atencion: internals.parameter(J.boolean().sensitive(), messages.field.requiere_atencion)
        .description('Solo los CUIT que necesitan que alguien haga algo (true) o solo los que no (false).')
        .example(true),
    // The answers (docs/answers.md).
    riesgo: internals.parameter(J.array().single().min(1).items(J.string().valid(...riesgos)), messages.field.riesgo)
        .description('Solo los CUIT con estos riesgos; varios se combinan con O (parámetro repetido): `tope_cerca` (80 % o más del tope de su categoría), `tope_superado`, `exclusion` (facturación sobre el tope de K o compras del 40 % de ese tope o más).')
        .example(['tope_cerca', 'tope_superado']),
    desde: internals.parameter(J.calendarDate(), messages.field.desde)
        .description('Primer día (AAAA-MM-DD), inclusive. Sin él, hoy en Buenos Aires.')
        .example('2026-11-01'),
    hasta: internals.parameter(J.calendarDate(), messages.field.hasta)
        .description('Último día (AAAA-MM-DD), inclusive; a lo sumo 366 días después de `desde`. Sin él, 30 días después de `desde`.')
        .example('2026-11-30')
} satisfies Record<ReadParameterName, Joi.Schema>;

// For the IVA position, `desde` and `hasta` are months: same names, their own rule and words.
export const monthRangeSchemas = {
    desde: internals.parameter(J.string().pattern(/^\d{4}-(0[1-9]|1[0-2])$/), messages.field.desdeMes)
        .description('Primer mes (AAAA-MM), inclusive. Sin él, 11 meses antes de `hasta`.')
        .example('2026-01'),
    hasta: internals.parameter(J.string().pattern(/^\d{4}-(0[1-9]|1[0-2])$/), messages.field.hastaMes)
        .description('Último mes (AAAA-MM), inclusive. Sin él, el mes en curso en Buenos Aires.')
        .example('2026-10')
};

export type ParameterVariant = 'months';

// The CUIT of a REST path: the same rule, its own message, never a number.
export const cuitPathSchema = J.cuit().required().empty(null)
    .messages({ '*': messages.field.cuitPath, 'any.required': messages.field.cuit })
    .description(internals.cuitDescription)
    .example('20-12345678-6');

// For CCMA movements, limit and offset count periods (docs/api.md, Reads): same rules, other words.
export const periodPageSchemas = {
    limit: readParameterSchemas.limit.description(`Cantidad de períodos por página, de 1 a ${maxLimit}.`),
    offset: readParameterSchemas.offset.description('Cantidad de períodos a saltear, del más reciente al más antiguo.')
};

// The query (or the tool's arguments) of a request taking `names`: nothing else is allowed,
// so a typo like `fromDate` is reported instead of silently ignored; a period has both ends
// or neither (docs/api.md, Reads).
const readQuerySchema = (names: readonly ReadParameterName[], variant?: ParameterVariant): Joi.ObjectSchema => {

    const keys = Object.fromEntries(names.map((name) => [name, variant === 'months' && (name === 'desde' || name === 'hasta') ? monthRangeSchemas[name] : readParameterSchemas[name]]));
    const schema = J.object(keys).messages({ 'object.unknown': messages.unknownParameter('{#label}'), 'object.base': messages.invalidRequest });
    return names.includes('from_date') && names.includes('to_date')
        ? schema.and('from_date', 'to_date').messages({ 'object.and': messages.dateRangeIncomplete })
        : schema;
};

const readPathSchema = J.object({ cuit: cuitPathSchema });

// The arguments only the MCP tools have: they pick which use case a tool runs.
export const invoiceKinds = ['emitidos', 'recibidos'] as const;
export const ccmaQueries = ['saldos', 'movimientos'] as const;

export const toolArgumentSchemas = {
    tipo: J.string().valid(...invoiceKinds).required().empty(null).messages({ '*': messages.mcp.invoiceKind })
        .description("'emitidos' (con receptor) o 'recibidos' (con emisor)."),
    consulta: J.string().valid(...ccmaQueries).empty(null).default('saldos').messages({ '*': messages.mcp.ccmaQuery })
        .description("'saldos' (por omisión) o 'movimientos'.")
};

export type ToolArgumentName = keyof typeof toolArgumentSchemas;

// A tool's arguments as one object: its own first, then the read parameters it passes on.
export const toolArgumentsSchema = (
    own: readonly ToolArgumentName[],
    names: readonly ReadParameterName[],
    pagesCount: 'records' | 'periods' = 'records'
): Joi.ObjectSchema => J.object({
    ...Object.fromEntries(own.map((name) => [name, toolArgumentSchemas[name]])),
    ...Object.fromEntries(
        names.map((name) => [name, pagesCount === 'periods' && (name === 'limit' || name === 'offset') ? periodPageSchemas[name] : readParameterSchemas[name]])
    )
});

const parsing = {
    // Built once per list of names (each use case has one).
    querySchemas: new Map<string, ReturnType<typeof readQuerySchema>>(),

    querySchema(names: readonly ReadParameterName[], variant?: ParameterVariant) {

        const key = `${variant ?? ''}:${names.join(',')}`;
        let schema = parsing.querySchemas.get(key);
        if (!schema) {
            schema = readQuerySchema(names, variant);
            parsing.querySchemas.set(key, schema);
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

    memoKey(request: ReadRequest, names: readonly ReadParameterName[], variant?: ParameterVariant): string | null {

        for (const values of [request.path ?? {}, request.query]) {
            for (const key in values) {
                if (!parsing.isText(values[key])) {
                    return null;
                }
            }
        }

        const key = `${variant ?? ''}:${names.join(',')} ${JSON.stringify(request.path ?? {})} ${JSON.stringify(request.query)}`;
        return key.length <= parsing.maxKey ? key : null;
    },

    remember(key: string, values: Record<string, unknown>): void {

        if (parsing.parsed.size >= parsing.maxParsed) {
            parsing.parsed.delete(parsing.parsed.keys().next().value!);      // the oldest
        }

        // Frozen: every caller gets the same lists (etiquetas, estado).
        for (const value of Object.values(values)) {
            if (Array.isArray(value)) {
                Object.freeze(value);
            }
        }

        parsing.parsed.set(key, Object.freeze(values));
    }
};

// Parses the named parameters of a read request (core/domain/read-request.ts); anything else it carries is refused. Every
// failure is joined in one message (docs/api.md, Errors): the path's first, then the query's.
// The 'months' variant reads `desde` and `hasta` as months (the IVA position).
export const parseReadRequest = <K extends ReadParameterName>(
    request: ReadRequest,
    names: readonly K[],
    variant?: ParameterVariant
): Pick<ReadParameters, K> => {

    const key = parsing.memoKey(request, names, variant);
    const known = key === null ? undefined : parsing.parsed.get(key);
    if (known) {
        return { ...known } as Pick<ReadParameters, K>;
    }

    const fromPath = names.filter((name) => Object.hasOwn(request.path ?? {}, name));
    const inQuery = names.filter((name) => !fromPath.includes(name));
    const path = Object.fromEntries(fromPath.map((name) => [name, request.path![name]]));

    const pathResult = fromPath.length ? readPathSchema.validate(path, validationPreferences) : { value: {}, error: undefined };
    const queryResult = parsing.querySchema(inQuery, variant).validate(request.query, validationPreferences);
    const failures = [...failuresOf(pathResult.error, fromPath, path), ...failuresOf(queryResult.error, inQuery, request.query)];
    if (failures.length) {
        throw invalid(failures);
    }

    const values = { ...pathResult.value, ...queryResult.value } as Record<string, unknown>;
    const parsed = Object.fromEntries(names.map((name) => [name, values[name]]));
    if (key !== null) {
        parsing.remember(key, parsed);
        return { ...parsed } as Pick<ReadParameters, K>;
    }

    return parsed as Pick<ReadParameters, K>;
};
