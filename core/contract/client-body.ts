import type Joi from 'joi';
import type { ClientType } from '../domain/client.js';
import { clientTypes } from '../domain/client.js';
import { messages } from '../domain/messages.js';
import type { Cuit } from '../domain/cuit.js';
import type { ClientPatch, NewClientInput } from '../domain/client-input.js';
import { failuresByKey, failuresOf, validationPreferences } from './failures.js';
import { J } from './joi.js';

// docs/api.md, Writes: the creation bodies (one per `tipo`) and the merge-patch edit body, with each
// field's rule, limit, message, description and example written once, and their parse into
// what the use cases take (core/domain/client-input.ts): every failing field gets its own
// Spanish message naming it, all collected so one answer lists every problem of the body.
// The limits are the columns' sizes (adapters/knex/schema.ts; test/contract.test.ts holds them
// equal); the key is sealed before it is stored, so its limit is its own. No message repeats a
// value sent.

type FieldName = 'nombre' | 'apellido' | 'razon_social' | 'representante' | 'clave_arca' | 'email' | 'telefono';

const fieldLimits = { nombre: 200, apellido: 200, razon_social: 255, clave_arca: 200, email: 254, telefono: 60 } as const;

const internals = {
    // Each field's own rule; every failure of it says what the field takes.
    fields: {
        nombre: J.text().trim().min(1).max(fieldLimits.nombre).description('Nombre de pila.').example('María'),
        apellido: J.text().trim().min(1).max(fieldLimits.apellido).description('Apellido.').example('Ejemplo'),
        razon_social: J.text().trim().min(1).max(fieldLimits.razon_social).description('Razón social.').example('Ejemplo SRL'),
        representante: J.cuit().description(
            'CUIT de una persona física ya cargada en la misma cuenta, con o sin guiones; ARCA se consulta con su clave fiscal.'
        ).example('20-12345678-6'),
        // A key is taken exactly as typed: spaces may be part of it.
        clave_arca: J.text().min(1).max(fieldLimits.clave_arca).meta({ writeOnly: true }).description(
            'Clave fiscal de ARCA; se guarda cifrada y nunca se devuelve.'
        ).example('clave-fiscal-de-ejemplo'),
        email: J.text().trim().max(fieldLimits.email).emailAddress().allow(null).description('Email de contacto, o null.').example('maria.ejemplo@example.com'),
        // Empty (after trimming) clears it, like null.
        telefono: J.text().trim().min(0).max(fieldLimits.telefono).allow(null).description('Teléfono de contacto, o null.').example('+54 11 4321-5678')
    } satisfies Record<FieldName, Joi.Schema>,

    // In the order failures are listed.
    order: ['nombre', 'apellido', 'razon_social', 'representante', 'clave_arca', 'email', 'telefono'] as const,

    tipos: {
        nombre: ['persona-fisica'] as readonly ClientType[],
        apellido: ['persona-fisica'] as readonly ClientType[],
        clave_arca: ['persona-fisica'] as readonly ClientType[],
        razon_social: ['persona-juridica'] as readonly ClientType[],
        representante: ['persona-juridica'] as readonly ClientType[],
        email: clientTypes,
        telefono: clientTypes
    } satisfies Record<FieldName, readonly ClientType[]>,

    nullable: (name: FieldName): boolean => name === 'email' || name === 'telefono',

    // A field's messages by rule: its characters first, then whatever else it breaks.
    field: (name: FieldName): Joi.Schema => internals.fields[name].messages({
        '*': messages.clientWrite[name],
        'text.characters': messages.clientWrite.characters('{#label}'),
        'any.required': messages.clientWrite.required('{#label}')
    }),

    // Registry fields: determined by the synchronization, never writable (docs/api.md, Resources).
    registry: {
        monotributista: J.any().forbidden().messages({ 'any.unknown': messages.clientWrite.monotributista }),
        autonomo: J.any().forbidden().messages({ 'any.unknown': messages.clientWrite.autonomo })
    },

    notApplicable: (tipo: ClientType): Joi.Schema => J.any().forbidden().messages({ 'any.unknown': messages.clientWrite.notApplicable('{#label}', tipo) }),

    cuit: J.cuit().required().messages({ '*': messages.clientWrite.cuit, 'any.required': messages.clientWrite.required('{#label}') })
        .description('CUIT del cliente, 11 dígitos con o sin guiones.'),

    body: (keys: Record<string, Joi.Schema>, description: string): Joi.ObjectSchema => J.object(keys).required().description(description).messages({
        'object.base': messages.clientWrite.bodyNotObject,
        'any.required': messages.clientWrite.bodyNotObject,
        'object.unknown': messages.unknownField('{#label}')
    }),

    creation(tipo: ClientType | null, description: string): Joi.ObjectSchema {

        const keys: Record<string, Joi.Schema> = {
            tipo: (tipo ? J.string().valid(tipo) : J.string().valid(...clientTypes)).required()
                .messages({ '*': messages.clientWrite.tipo, 'any.required': messages.clientWrite.required('{#label}') }),
            cuit: internals.cuit.example(tipo === 'persona-juridica' ? '30-71234567-1' : '20-12345678-6')
        };

        for (const name of internals.order) {
            const applies = !tipo || internals.tipos[name].includes(tipo);
            const field = internals.field(name);
            keys[name] = !applies ? internals.notApplicable(tipo!) : tipo && !internals.nullable(name) ? field.required() : field;
        }

        return internals.body({ ...keys, ...internals.registry }, description);
    },

    patch(tipo: ClientType | null): Joi.ObjectSchema {

        // docs/api.md, Writes (`cuit` or `tipo` in a PATCH): one message for either.
        const immutable = J.any().forbidden().meta({ listed: true }).messages({ 'any.unknown': messages.clientWrite.immutable });
        const keys: Record<string, Joi.Schema> = { cuit: immutable, tipo: immutable };
        for (const name of internals.order) {
            const applies = !tipo || internals.tipos[name].includes(tipo);
            // PATCH with null: only email and telefono are cleared by it; null on nombre or any
            // other field is a 400 naming the field (docs/api.md, Writes).
            const field = internals.nullable(name) ? internals.field(name) : internals.field(name).invalid(null).messages({
                'any.invalid': messages.clientWrite.notNullable('{#label}')
            });
            keys[name] = applies ? field : internals.notApplicable(tipo!);
        }

        return internals.body(
            { ...keys, ...internals.registry },
            'Merge patch (RFC 7396). Persona física: nombre, apellido, clave_arca, email, telefono. Persona jurídica: razon_social, representante, email, telefono. Solo email y telefono aceptan null. Un objeto vacío, `cuit`, `tipo`, `monotributista` o `autonomo` se rechazan con 400.'
        )
            .min(1).messages({ 'object.min': messages.clientWrite.emptyPatch });
    }
};

// POST /v1/cuits: by `tipo`; `null` when `tipo` is missing or unknown (the fields it can be
// told apart from are still checked, none is required).
// The bodies' examples are plainly examples (example.com, an 'Ejemplo' surname), so one sent
// as it is from /docs is recognised as such; a test holds them valid.
export const newClientSchemas: Record<ClientType | 'unknown', Joi.ObjectSchema> = {
    'persona-fisica': internals.creation('persona-fisica', 'Persona física. `monotributista` y `autonomo` no se aceptan: los determina la sincronización.')
        .example({
            tipo: 'persona-fisica',
            cuit: '20-31234567-7',
            nombre: 'María',
            apellido: 'Ejemplo',
            clave_arca: 'clave-fiscal-de-ejemplo',
            email: 'maria.ejemplo@example.com',
            telefono: '+54 11 4321-5678'
        }),
    'persona-juridica': internals.creation(
        'persona-juridica',
        'Persona jurídica: se consulta a la autoridad con la clave de su representante, una persona física ya cargada en la cuenta. No lleva `clave_arca`.'
    )
        .example({
            tipo: 'persona-juridica',
            cuit: '30-71888888-9',
            razon_social: 'Ejemplo SRL',
            representante: '20-12345678-6',
            email: 'administracion@example.com',
            telefono: null
        }),
    unknown: internals.creation(null, 'Alta de un cliente.')
};

// PATCH /v1/cuits/{cuit}: before the client is known (`unknown`), only the rules that do not
// depend on its type.
export const clientPatchSchemas: Record<ClientType | 'unknown', Joi.ObjectSchema> = {
    'persona-fisica': internals.patch('persona-fisica'),
    'persona-juridica': internals.patch('persona-juridica'),
    unknown: internals.patch(null)
        .example({ email: 'maria.ejemplo@example.com', telefono: null })
        .example({ nombre: 'María José' })
        .example({ representante: '20-12345678-6' })
};

// The keys whose failures are listed in the contract's order: the schema's own fields and
// those marked `listed`; a key the body should not carry is listed in the order sent.
const listedKeys = (schema: Joi.ObjectSchema): string[] => {

    const keys = (schema.describe().keys ?? {}) as Record<string, { flags?: { presence?: string }; metas?: { listed?: boolean }[] }>;
    return Object.entries(keys)
        .filter(([, key]) => key.flags?.presence !== 'forbidden' || key.metas?.some((meta) => meta.listed))
        .map(([name]) => name);
};

type Body = Record<string, unknown>;

const parsing = {
    listed: new Map([...Object.values(newClientSchemas), ...Object.values(clientPatchSchemas)].map((schema) => [schema, listedKeys(schema)])),

    tipoOf: (body: unknown): ClientType | 'unknown' => {

        const tipo = body !== null && typeof body === 'object' ? (body as Body).tipo : undefined;
        return (clientTypes as readonly unknown[]).includes(tipo) ? tipo as ClientType : 'unknown';
    },

    validate(schema: (typeof newClientSchemas)[ClientType], body: unknown): { value: Body; failures: string[]; fields: Record<string, string> } {

        const { value, error } = schema.validate(body, validationPreferences);
        return { value: value as Body, failures: failuresOf(error, parsing.listed.get(schema)!, body), fields: failuresByKey(error) };
    },

    // An empty telefono clears it, like null.
    contact: (value: Body) => ({ email: (value.email ?? null) as string | null, telefono: (value.telefono || null) as string | null })
};

// `fields`: the same failures by the body's key they concern.
type Parsed<T> = T & { failures: string[]; fields: Record<string, string> };

export const parseNewClient = (body: unknown): Parsed<{ input: NewClientInput | null }> => {

    const tipo = parsing.tipoOf(body);
    const { value, failures, fields } = parsing.validate(newClientSchemas[tipo], body);
    if (failures.length || tipo === 'unknown') {
        return { input: null, failures, fields };
    }

    const input: NewClientInput = tipo === 'persona-fisica'
        ? {
            tipo,
            cuit: value.cuit as Cuit,
            nombre: value.nombre as string,
            apellido: value.apellido as string,
            claveArca: value.clave_arca as string,
            ...parsing.contact(value)
        }
        : {
            tipo,
            cuit: value.cuit as Cuit,
            razonSocial: value.razon_social as string,
            representante: value.representante as Cuit,
            ...parsing.contact(value)
        };

    return { input, failures: [], fields: {} };
};

// The edit rules (docs/api.md, Writes). With `tipo` null (the client is not known yet) the rules that do
// not depend on the client's type are checked.
export const parseClientPatch = (body: unknown, tipo: ClientType | null): Parsed<{ patch: ClientPatch }> => {

    const { value, failures, fields } = parsing.validate(clientPatchSchemas[tipo ?? 'unknown'], body);
    if (failures.length) {
        return { patch: {}, failures, fields };
    }

    const patch: ClientPatch = {};
    const assign = <K extends keyof ClientPatch>(key: K, name: string, convert: (raw: unknown) => unknown = (raw) => raw) => {

        if (Object.hasOwn(value, name)) {
            patch[key] = convert(value[name]) as ClientPatch[K];
        }
    };

    assign('nombre', 'nombre');
    assign('apellido', 'apellido');
    assign('razonSocial', 'razon_social');
    assign('representante', 'representante');
    assign('claveArca', 'clave_arca');
    assign('email', 'email');
    assign('telefono', 'telefono', (raw) => raw || null);
    return { patch, failures, fields };
};
