import type { Cuit } from './cuit.js';

// docs/api.md, Writes: a creation or edit body as the use cases take it, once the contract
// (core/contract/client-body.ts, parseNewClient and parseClientPatch) has accepted it.

interface NewPersonInput {
    tipo: 'persona-fisica';
    cuit: Cuit;
    nombre: string;
    apellido: string;
    claveArca: string;
    email: string | null;
    telefono: string | null;
}

interface NewEntityInput {
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
