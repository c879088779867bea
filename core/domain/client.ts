import type { Cuit } from './cuit.js';
import { formatCuit } from './cuit.js';
import type { Timestamp } from './time.js';
import { toIso } from './time.js';

export type ClientType = 'persona-fisica' | 'persona-juridica';
export const clientTypes: readonly ClientType[] = ['persona-fisica', 'persona-juridica'];

export const categories = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K'] as const;
export type Categoria = typeof categories[number];

// A client as stored. `id` is internal (ordering, joins); `publicId` is what the API shows.
export interface ClientRecord {
    readonly id: number;
    readonly publicId: string;
    readonly accountId: number;
    readonly cuit: Cuit;
    readonly tipo: ClientType;
    readonly nombre: string | null;          // physical person: first name
    readonly apellido: string | null;        // physical person: surname
    readonly razonSocial: string | null;     // legal entity: business name
    readonly representativeId: number | null;
    readonly displayName: string;
    readonly email: string | null;
    readonly telefono: string | null;
    readonly monotributista: boolean | null;
    readonly autonomo: boolean | null;
    readonly categoria: string | null;
    // Raised with every change its endpoints show; see Principal.dataVersion.
    readonly dataVersion: number;
}

// docs/api.md, Resources
export interface ClientView {
    id: string;
    cuit: string;
    displayCuit: string;
    tipo: ClientType;
    nombre: string;
    email: string | null;
    telefono: string | null;
}

// docs/api.md, Resources
export interface ClientListItem extends ClientView {
    etiquetas: string[];
    monotributista: boolean | null;
    autonomo: boolean | null;
    categoria: string | null;
    sistemaRegistralSyncedAt: string | null;
}

export interface ClientListRow extends ClientRecord {
    readonly etiquetas: readonly string[];
    readonly registrySyncedAt: Timestamp | null;
}

// docs/api.md, Resources: a person is shown as "<apellido>, <nombre>", an entity by its business name.
export const displayName = (input: { tipo: ClientType; nombre?: string | null; apellido?: string | null; razonSocial?: string | null }): string => {

    if (input.tipo === 'persona-fisica') {
        return `${input.apellido ?? ''}, ${input.nombre ?? ''}`;
    }

    return input.razonSocial ?? '';
};

// Lists are ordered by name the way a person reads it: case and accents do not split
// "Álvarez" from "alvarez". Stored beside the name so both databases sort alike.
export const sortKey = (name: string): string => {

    return name.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().slice(0, 255);
};

export const toClientView = (client: ClientRecord): ClientView => ({
    id: client.publicId,
    cuit: client.cuit,
    displayCuit: formatCuit(client.cuit),
    tipo: client.tipo,
    nombre: client.displayName,
    email: client.email,
    telefono: client.telefono
});

// Object.assign rather than a spread: V8 copies a spread of this many fields through a slow
// path, several microseconds a row on a 50-row page.
export const toClientListItem = (row: ClientListRow): ClientListItem => Object.assign(toClientView(row), {
    etiquetas: row.etiquetas.slice(),
    monotributista: row.monotributista,
    autonomo: row.autonomo,
    categoria: row.categoria,
    sistemaRegistralSyncedAt: toIso(row.registrySyncedAt)
});

export interface ClientFilters {
    etiquetas: string[] | null;
    monotributista: boolean | null;
    autonomo: boolean | null;
    categoria: Categoria | null;
}

// What only the panel narrows a CUIT list by, beside the API's filters (never a /v1
// parameter: SPEC lists those to the letter). `name` is in sortKey's form (no case, no
// accents), matched anywhere in the name; `digits`, when the search has any, anywhere in the
// CUIT. A CUIT matches either.
export interface ClientSearch {
    name: string;
    digits: string | null;
}

export interface ClientQuery extends ClientFilters {
    search?: ClientSearch | null;
    // Only these clients (a page the panel picked by state).
    ids?: readonly number[];
}

// The delete cascade (docs/api.md, Writes): deleting a CUIT takes with it, in one transaction,
// everything kept for it besides its row; its synchronization jobs go too, so a pending sync is
// cancelled and a running one loses its lease before it writes. Nothing goes while the client
// represents a legal entity of the account (409). Each store keeps these under its own names
// (adapters/knex/repositories/clients.ts maps each to its tables).
export const deleteCascade = [
    'invoices',            // issued and received, with their per-day counts
    'notifications',       // DFE
    'sct',                 // debts, due dates, returns
    'ccma',                // balances and movements
    'syncStates',          // each system's syncedAt and last error, what the last sync changed
    'syncJobs',            // pending, running and finished
    'keyFailure',          // a key the authority refused, remembered by its fingerprint
    'tags',                // the client's tag assignments (the account's tags stay)
    'managers'             // the members assigned to it
] as const;

export type DeletedWithClient = typeof deleteCascade[number];
