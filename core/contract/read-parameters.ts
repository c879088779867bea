import type Joi from 'joi';
import { categories } from '../domain/client.js';
import { healthStates } from '../domain/health.js';
import { riesgos } from '../domain/monotributo.js';
import { messages } from '../domain/messages.js';
import { maxLimit, pageDefaults } from '../domain/pagination.js';
import { J } from './joi.js';

// The parameters of the read endpoints (docs/api.md, Reads): each one's rule,
// message, description and example, written once. The core parses REST's path and query and
// an MCP tool's arguments with them; the OpenAPI document and the MCP input schemas are
// generated from them (servers/contract/json-schema.ts).

// A tag name as the CUIT-list filter takes it.
export const tagNameBounds = { min: 1, max: 100 } as const;

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
};

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

export type ReadParameterName = keyof typeof readParameterSchemas;

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
export const readQuerySchema = (names: readonly ReadParameterName[], variant?: ParameterVariant): Joi.ObjectSchema => {

    const keys = Object.fromEntries(names.map((name) => [name, variant === 'months' && (name === 'desde' || name === 'hasta') ? monthRangeSchemas[name] : readParameterSchemas[name]]));
    const schema = J.object(keys).messages({ 'object.unknown': messages.unknownParameter('{#label}'), 'object.base': messages.invalidRequest });
    return names.includes('from_date') && names.includes('to_date')
        ? schema.and('from_date', 'to_date').messages({ 'object.and': messages.dateRangeIncomplete })
        : schema;
};

export const readPathSchema = J.object({ cuit: cuitPathSchema });

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
