import type { ClientType } from './client.js';
import { clientTypes } from './client.js';
import type { Cuit } from './cuit.js';
import { clientPatchSchemas, listedKeys, newClientSchemas } from '../contract/client-body.js';
import { failuresOf, validationPreferences } from '../contract/failures.js';

// docs/api.md, Writes: a creation or edit body as the use cases take it, once the contract
// (core/contract/client-body.ts) has accepted it. Every failing field gets its own Spanish
// message naming it; they are all collected so one answer lists every problem of the body.

export interface NewPersonInput {
    tipo: 'persona-fisica';
    cuit: Cuit;
    nombre: string;
    apellido: string;
    claveArca: string;
    email: string | null;
    telefono: string | null;
}

export interface NewEntityInput {
    tipo: 'persona-juridica';
    cuit: Cuit;
    razonSocial: string;
    representante: Cuit;
    email: string | null;
    telefono: string | null;
}

export type NewClientInput = NewPersonInput | NewEntityInput;

// Absent keys stay as they are; null clears (only email and telefono).
export interface ClientPatch {
    nombre?: string;
    apellido?: string;
    razonSocial?: string;
    representante?: Cuit;
    claveArca?: string;
    email?: string | null;
    telefono?: string | null;
}

type Body = Record<string, unknown>;

const internals = {
    listed: new Map([...Object.values(newClientSchemas), ...Object.values(clientPatchSchemas)].map((schema) => [schema, listedKeys(schema)])),

    tipoOf: (body: unknown): ClientType | 'unknown' => {

        const tipo = body !== null && typeof body === 'object' ? (body as Body).tipo : undefined;
        return (clientTypes as readonly unknown[]).includes(tipo) ? tipo as ClientType : 'unknown';
    },

    validate(schema: (typeof newClientSchemas)[ClientType], body: unknown): { value: Body; failures: string[] } {

        const { value, error } = schema.validate(body, validationPreferences);
        return { value: value as Body, failures: failuresOf(error, internals.listed.get(schema)!, body) };
    },

    // An empty telefono clears it, like null.
    contact: (value: Body) => ({ email: (value.email ?? null) as string | null, telefono: (value.telefono || null) as string | null })
};

export const parseNewClient = (body: unknown): { input: NewClientInput | null; failures: string[] } => {

    const tipo = internals.tipoOf(body);
    const { value, failures } = internals.validate(newClientSchemas[tipo], body);
    if (failures.length || tipo === 'unknown') {
        return { input: null, failures };
    }

    const input: NewClientInput = tipo === 'persona-fisica'
        ? {
            tipo,
            cuit: value.cuit as Cuit,
            nombre: value.nombre as string,
            apellido: value.apellido as string,
            claveArca: value.clave_arca as string,
            ...internals.contact(value)
        }
        : {
            tipo,
            cuit: value.cuit as Cuit,
            razonSocial: value.razon_social as string,
            representante: value.representante as Cuit,
            ...internals.contact(value)
        };

    return { input, failures: [] };
};

// The edit rules (docs/api.md, Writes). With `tipo` null (the client is not known yet) the rules that do
// not depend on the client's type are checked.
export const parseClientPatch = (body: unknown, tipo: ClientType | null): { patch: ClientPatch; failures: string[] } => {

    const { value, failures } = internals.validate(clientPatchSchemas[tipo ?? 'unknown'], body);
    if (failures.length) {
        return { patch: {}, failures };
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
    return { patch, failures };
};
