import type { ReadParameterName } from '../../core/domain/read-request.js';
import { cuitPathSchema, monthRangeSchemas, periodPageSchemas as periodPageContract, readParameterSchemas } from '../../core/contract/read-parameters.js';
import type { JsonSchema } from './json-schema.js';
import { jsonSchemaOf } from './json-schema.js';

// How the read parameters are described to clients: the OpenAPI document's parameters and
// the MCP tools' input schemas, generated from the contract's joi schemas
// (core/contract/read-parameters.ts), so a description cannot drift from the rule applied.

export type Schema = JsonSchema;

const internals = {
    of: <K extends string>(schemas: Record<K, Parameters<typeof jsonSchemaOf>[0]>): Record<K, Schema> => Object.fromEntries(
        Object.entries(schemas).map(([name, schema]) => [name, jsonSchemaOf(schema as Parameters<typeof jsonSchemaOf>[0])])
    ) as Record<K, Schema>
};

// As an MCP tool's argument: the CUIT may also be a JSON number.
export const parameterSchemas: { [K in ReadParameterName]: Schema } = internals.of(readParameterSchemas);

// The `{cuit}` of a REST path: a string.
export const cuitPathParameter: Schema = jsonSchemaOf(cuitPathSchema);

// For CCMA movements, limit and offset count periods (docs/api.md, Reads).
export const periodPageSchemas: Pick<typeof parameterSchemas, 'limit' | 'offset'> = internals.of(periodPageContract);

// For the IVA position, `desde` and `hasta` are months.
export const monthRangeParameters: Pick<typeof parameterSchemas, 'desde' | 'hasta'> = internals.of(monthRangeSchemas);
