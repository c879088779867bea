import type { ClientType } from './client.js';
import { clientTypes } from './client.js';
import type { Cuit } from './cuit.js';
import { parseCuit } from './cuit.js';
import { isEmail } from './email.js';
import { messages } from './messages.js';
import { isPrintableText } from './text.js';

// SPEC §2.11: the creation bodies (discriminated by `tipo`) and the merge-patch edit body.
// Every failing field gets its own Spanish message naming it; they are all collected so one
// answer lists every problem of the body. No message ever repeats a value sent.

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

type FieldName = 'nombre' | 'apellido' | 'razon_social' | 'representante' | 'clave_arca' | 'email' | 'telefono';

interface FieldSpec {
    tipos: readonly ClientType[];
    nullable: boolean;
    message: string;
    // The normalized value, or undefined when invalid.
    check(value: unknown): unknown;
}

const internals = {

    text: (max: number) => (value: unknown): string | undefined => {

        if (typeof value !== 'string') {
            return undefined;
        }

        const trimmed = value.trim();
        return trimmed.length >= 1 && trimmed.length <= max ? trimmed : undefined;
    },

    // A key is taken exactly as typed: spaces may be part of it.
    secret: (max: number) => (value: unknown): string | undefined => (typeof value === 'string' && value.length >= 1 && value.length <= max ? value : undefined),

    cuit: (value: unknown): Cuit | undefined => (typeof value === 'string' ? parseCuit(value) ?? undefined : undefined),

    email: (value: unknown): string | undefined => {

        if (typeof value !== 'string') {
            return undefined;
        }

        const trimmed = value.trim();
        return isEmail(trimmed) ? trimmed : undefined;
    },

    telefono: (value: unknown): string | null | undefined => {

        if (typeof value !== 'string') {
            return undefined;
        }

        const trimmed = value.trim();
        return trimmed.length <= 60 ? (trimmed || null) : undefined;
    },

    person: ['persona-fisica'] as const,
    entity: ['persona-juridica'] as const,
    both: clientTypes,

    // Registry fields: determined by the synchronization, never writable (SPEC §2.2).
    registryFields: {
        monotributista: messages.clientWrite.monotributista,
        autonomo: messages.clientWrite.autonomo
    } as Record<string, string>,

    // The field's failure, if any: its characters first, then its own rule.
    failure(name: FieldName, spec: FieldSpec, value: unknown): { failure: string } | { value: unknown } {

        if (typeof value === 'string' && !isPrintableText(value)) {
            return { failure: messages.clientWrite.characters(name) };
        }

        const checked = spec.check(value);
        return checked === undefined ? { failure: spec.message } : { value: checked };
    },

    isPlainObject: (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value),

    has: (body: Record<string, unknown>, key: string): boolean => Object.prototype.hasOwnProperty.call(body, key)
};

// In the order messages are listed.
const fields: Record<FieldName, FieldSpec> = {
    nombre: { tipos: internals.person, nullable: false, message: messages.clientWrite.nombre, check: internals.text(200) },
    apellido: { tipos: internals.person, nullable: false, message: messages.clientWrite.apellido, check: internals.text(200) },
    razon_social: { tipos: internals.entity, nullable: false, message: messages.clientWrite.razon_social, check: internals.text(255) },
    representante: { tipos: internals.entity, nullable: false, message: messages.clientWrite.representante, check: internals.cuit },
    clave_arca: { tipos: internals.person, nullable: false, message: messages.clientWrite.clave_arca, check: internals.secret(200) },
    email: { tipos: internals.both, nullable: true, message: messages.clientWrite.email, check: internals.email },
    telefono: { tipos: internals.both, nullable: true, message: messages.clientWrite.telefono, check: internals.telefono }
};

const isField = (key: string): key is FieldName => internals.has(fields, key);

// Keys that are neither a field of the body nor `tipo`/`cuit`: registry fields, fields of
// the other type, unknown ones.
const extraKeyFailures = (body: Record<string, unknown>, tipo: ClientType | null, skip: readonly string[]): string[] => {

    const failures: string[] = [];
    for (const key of Object.keys(body)) {
        if (skip.includes(key)) {
            continue;
        }

        if (internals.has(internals.registryFields, key)) {
            failures.push(internals.registryFields[key]!);
        }
        else if (!isField(key)) {
            failures.push(messages.unknownField(key));
        }
        else if (tipo && !fields[key].tipos.includes(tipo)) {
            failures.push(messages.clientWrite.notApplicable(key, tipo));
        }
    }

    return failures;
};

export const parseNewClient = (body: unknown): { input: NewClientInput | null; failures: string[] } => {

    if (!internals.isPlainObject(body)) {
        return { input: null, failures: [messages.clientWrite.bodyNotObject] };
    }

    const failures: string[] = [];
    const tipo = (clientTypes as readonly unknown[]).includes(body.tipo) ? body.tipo as ClientType : null;
    if (!internals.has(body, 'tipo')) {
        failures.push(messages.clientWrite.required('tipo'));
    }
    else if (!tipo) {
        failures.push(messages.clientWrite.tipo);
    }

    const cuit = internals.cuit(body.cuit);
    if (!internals.has(body, 'cuit')) {
        failures.push(messages.clientWrite.required('cuit'));
    }
    else if (!cuit) {
        failures.push(messages.clientWrite.cuit);
    }

    const values: Partial<Record<FieldName, unknown>> = {};
    for (const [name, spec] of Object.entries(fields) as [FieldName, FieldSpec][]) {
        const applies = tipo ? spec.tipos.includes(tipo) : true;
        if (!applies) {
            continue;                           // reported among the extra keys
        }

        if (!internals.has(body, name)) {
            if (tipo && !spec.nullable) {
                failures.push(messages.clientWrite.required(name));
            }

            continue;
        }

        const value = body[name];
        const checked = value === null && spec.nullable ? { value: null } : internals.failure(name, spec, value);
        if ('failure' in checked) {
            failures.push(checked.failure);
        }
        else {
            values[name] = checked.value;
        }
    }

    failures.push(...extraKeyFailures(body, tipo, ['tipo', 'cuit']));
    if (failures.length || !tipo || !cuit) {
        return { input: null, failures };
    }

    const contact = { email: (values.email ?? null) as string | null, telefono: (values.telefono ?? null) as string | null };
    const input: NewClientInput = tipo === 'persona-fisica'
        ? { tipo, cuit, nombre: values.nombre as string, apellido: values.apellido as string, claveArca: values.clave_arca as string, ...contact }
        : { tipo, cuit, razonSocial: values.razon_social as string, representante: values.representante as Cuit, ...contact };

    return { input, failures: [] };
};

// SPEC §4.4 rules 1 to 5. With `tipo` null (the client is not known yet) the rules that do
// not depend on the client's type are checked.
export const parseClientPatch = (body: unknown, tipo: ClientType | null): { patch: ClientPatch; failures: string[] } => {

    if (!internals.isPlainObject(body)) {
        return { patch: {}, failures: [messages.clientWrite.bodyNotObject] };
    }

    const keys = Object.keys(body);
    if (!keys.length) {
        return { patch: {}, failures: [messages.clientWrite.emptyPatch] };
    }

    const failures: string[] = [];
    if (internals.has(body, 'cuit') || internals.has(body, 'tipo')) {
        failures.push(messages.clientWrite.immutable);
    }

    const values: Partial<Record<FieldName, unknown>> = {};
    for (const [name, spec] of Object.entries(fields) as [FieldName, FieldSpec][]) {
        if (!internals.has(body, name) || (tipo && !spec.tipos.includes(tipo))) {
            continue;
        }

        const value = body[name];
        if (value === null) {
            if (spec.nullable) {
                values[name] = null;
            }
            else {
                failures.push(messages.clientWrite.notNullable(name));
            }

            continue;
        }

        const checked = internals.failure(name, spec, value);
        if ('failure' in checked) {
            failures.push(checked.failure);
        }
        else {
            values[name] = checked.value;
        }
    }

    failures.push(...extraKeyFailures(body, tipo, ['tipo', 'cuit']));

    const patch: ClientPatch = {};
    const assign = <K extends keyof ClientPatch>(key: K, name: FieldName) => {

        if (internals.has(values, name)) {
            patch[key] = values[name] as ClientPatch[K];
        }
    };

    assign('nombre', 'nombre');
    assign('apellido', 'apellido');
    assign('razonSocial', 'razon_social');
    assign('representante', 'representante');
    assign('claveArca', 'clave_arca');
    assign('email', 'email');
    assign('telefono', 'telefono');
    return { patch, failures };
};
