import Joi from 'joi';
import { cuitPattern } from '../domain/cuit.js';
import { emailPattern } from '../domain/email.js';
import { isPrintableText } from '../domain/text.js';
import { isCalendarDate } from '../domain/time.js';

// joi with the four types the contract needs beyond its own, each one rule written once:
//   integer       digits only ('1e2', ' 1', '+1', '50.0', '-0' are refused) or a JSON integer
//   cuit          11 digits with or without hyphens, carried on as the 11 digits
//   text          a string a person can type: no control character, no lone surrogate
//   calendarDate  'YYYY-MM-DD' naming a day that exists
// A failing value is reported by code ('integer.base', 'text.characters', …); each schema maps
// codes to its Spanish message (messages.field in core/domain/messages.ts). The JSON Schema
// of every type is in servers/contract/json-schema.ts.

interface IntegerSchema extends Joi.AnySchema<number> {
    min(limit: number): this;
    max(limit: number): this;
}

interface CuitSchema extends Joi.AnySchema<string> {
    // An MCP client may send the CUIT as a JSON number (the Inspector CLI does).
    orNumber(): this;
}

interface TextSchema extends Joi.StringSchema {
    emailAddress(): this;
    // For a name given to look something up: U+FFFD is what a lenient decoder put in place
    // of bytes that are not UTF-8 (a query string's %FF).
    cleanlyDecoded(): this;
}

interface CalendarDateSchema extends Joi.AnySchema<string> {
    // Not before the date of the sibling named, when that one is a date too.
    notBefore(sibling: string): this;
}

export interface ContractJoi extends Joi.Root {
    integer(): IntegerSchema;
    cuit(): CuitSchema;
    text(): TextSchema;
    calendarDate(): CalendarDateSchema;
}

// joi 18 builds JSON Schema from a schema (schema['~standard'].jsonSchema); its types do not
// declare the hooks an extension gives for that yet.
type JsonObject = Record<string, unknown>;
type Extension = Omit<Joi.Extension, 'rules'> & {
    jsonSchema?(schema: Joi.Schema, res: JsonObject): JsonObject;
    rules?: Record<string, Joi.ExtensionRule & ThisType<Joi.SchemaInternals> & { jsonSchema?(rule: unknown, res: JsonObject): JsonObject }>;
};

const internals = {
    digits: /^\d{1,15}$/,

    characters(value: unknown, helpers: Joi.CustomHelpers): { value: unknown; errors: Joi.ErrorReport[] } | undefined {

        if (typeof value === 'string' && !isPrintableText(value)) {
            return { value, errors: [helpers.error('text.characters')] };
        }

        return undefined;
    }
};

const extensions: Extension[] = [
    {
        type: 'integer',
        base: Joi.number().integer(),
        // Before joi's own conversion, which would take ' 1', '1e2' and '-0'.
        prepare(value, helpers) {

            if (typeof value === 'string' && !internals.digits.test(value)) {
                return { value, errors: [helpers.error('number.base')] };
            }

            if (Object.is(value, -0)) {
                return { value, errors: [helpers.error('number.base')] };
            }

            return undefined;
        }
    },
    {
        type: 'cuit',
        base: Joi.any(),
        messages: { 'cuit.base': '{#label} no es un CUIT' },
        flags: { orNumber: { default: false } },
        prepare: internals.characters,
        coerce: {
            from: 'number',
            method(value, { schema }) {

                return { value: schema.$_getFlag('orNumber') && Number.isSafeInteger(value) && value > 0 ? String(value) : value };
            }
        },
        jsonSchema(schema, res) {

            return { ...res, type: schema.$_getFlag('orNumber') ? ['string', 'integer'] : 'string', pattern: cuitPattern.source };
        },
        validate(value, helpers) {

            if (typeof value !== 'string' || !cuitPattern.test(value)) {
                return { value, errors: [helpers.error('cuit.base')] };
            }

            return { value: value.replace(/-/g, '') };
        },
        rules: {
            orNumber: {
                method() {

                    return this.$_setFlag('orNumber', true);
                }
            }
        }
    },
    {
        type: 'text',
        base: Joi.string(),
        messages: {
            'text.characters': '{#label} contiene caracteres no permitidos',
            'text.emailAddress': '{#label} no es un email',
            'text.decoded': '{#label} no es UTF-8'
        },
        flags: { cleanlyDecoded: { default: false } },
        prepare(value, helpers) {

            const failed = internals.characters(value, helpers);
            if (failed) {
                return failed;
            }

            if (typeof value === 'string' && helpers.schema.$_getFlag('cleanlyDecoded') && value.includes('\uFFFD')) {
                return { value, errors: [helpers.error('text.decoded')] };
            }

            return undefined;
        },
        jsonSchema(_schema, res) {

            return { type: 'string', ...res };
        },
        rules: {
            emailAddress: {
                method() {

                    return this.$_addRule('emailAddress');
                },
                jsonSchema(_rule: unknown, res: JsonObject) {

                    return { ...res, format: 'email' };
                },
                validate(value: string, helpers) {

                    return emailPattern.test(value) ? value : helpers.error('text.emailAddress');
                }
            },
            cleanlyDecoded: {
                method() {

                    return this.$_setFlag('cleanlyDecoded', true);
                }
            }
        }
    },
    {
        type: 'calendarDate',
        base: Joi.any(),
        messages: { 'calendarDate.base': '{#label} no es una fecha', 'calendarDate.notBefore': '{#label} es anterior a {#sibling}' },
        jsonSchema(_schema, res) {

            return { ...res, type: 'string', format: 'date' };
        },
        validate(value, helpers) {

            return typeof value === 'string' && isCalendarDate(value) ? undefined : { value, errors: [helpers.error('calendarDate.base')] };
        },
        rules: {
            notBefore: {
                method(sibling: string) {

                    return this.$_addRule({ name: 'notBefore', args: { sibling: Joi.ref(sibling) } });
                },
                args: [{ name: 'sibling', ref: true, assert: Joi.any() }],
                validate(value: string, helpers, args) {

                    const other = args.sibling as unknown;
                    const comparable = typeof other === 'string' && isCalendarDate(other);
                    return comparable && other > value ? helpers.error('calendarDate.notBefore') : value;
                }
            }
        }
    }
];

export const J: ContractJoi = Joi.extend(...(extensions as Joi.Extension[])) as ContractJoi;
