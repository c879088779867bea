import type Joi from 'joi';

// The JSON Schema (draft 2020-12, OpenAPI 3.1's) of a contract schema, made by joi itself
// (schema['~standard'].jsonSchema; the contract's own types add theirs in
// core/contract/joi.ts), then finished where joi's output falls short of a published
// contract:
//   - a key the contract forbids (a field of the other `tipo`, a registry field) is left out;
//   - `required` lists the keys in the contract's order, not sorted;
//   - the contract's examples are given as `examples`, and its `meta` as keywords (writeOnly);
//   - a repeated parameter (`single()`) is an array: the OpenAPI parameter says how it repeats.

export type JsonSchema = Record<string, unknown>;

type Described = {
    type: string;
    flags?: { presence?: string; single?: boolean };
    keys?: Record<string, Described>;
    examples?: unknown[];
    metas?: Record<string, unknown>[];
};

const internals = {
    standard: (schema: Joi.Schema): JsonSchema => (schema as unknown as {
        '~standard': { jsonSchema: { input(): JsonSchema } };
    })['~standard'].jsonSchema.input(),

    // Joi's schema of each key, in order (describe() gives descriptions, not schemas).
    children: (schema: Joi.Schema): Map<string, Joi.Schema> => new Map(
        ((schema as unknown as {
            $_terms: { keys?: { key: string; schema: Joi.Schema }[] | null };
        }).$_terms.keys ?? []).map((child) => [child.key, child.schema])
    ),

    finish(schema: Joi.Schema, described: Described, json: JsonSchema): JsonSchema {

        const result: JsonSchema = { ...json };
        for (const meta of described.metas ?? []) {
            const { listed: _listed, ...keywords } = meta;
            Object.assign(result, keywords);
        }

        if (described.examples?.length) {
            result.examples = described.examples;
        }

        if (described.type === 'object' && described.keys && result.properties) {
            const children = internals.children(schema);
            const properties: Record<string, JsonSchema> = {};
            for (const [key, child] of Object.entries(described.keys)) {
                if (child.flags?.presence !== 'forbidden') {
                    properties[key] = jsonSchemaOf(children.get(key)!);
                }
            }

            result.properties = properties;
            const required = Object.keys(properties).filter((key) => described.keys![key]!.flags?.presence === 'required');
            if (required.length) {
                result.required = required;
            }
            else {
                delete result.required;
            }
        }

        return result;
    }
};

export const jsonSchemaOf = (schema: Joi.Schema): JsonSchema => {

    const described = schema.describe() as Described;
    if (described.type === 'array' && described.flags?.single) {
        return jsonSchemaOf((schema as Joi.ArraySchema).single(false));
    }

    return internals.finish(schema, described, internals.standard(schema));
};
