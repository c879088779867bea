import { parseNewClient } from '../contract/client-body.js';
import type { NewClientInput } from '../domain/client-input.js';
import type { Cuit } from '../domain/cuit.js';
import { parseCuit } from '../domain/cuit.js';
import { messages } from '../domain/messages.js';
import type { AccountClient } from '../ports/index.js';

// Importing clients from a file (docs/panel.md, Importar clientes): each row is one
// POST /v1/cuits body, its cells named by the file's first row with the body's own field
// names, so a row is checked by the API's contract (parseNewClient) and its messages name the
// column at fault. Beyond its body, a row may conflict with the account or with the file: its
// CUIT already in the account (the API's 409), the same CUIT on an earlier row, or a
// representative that is neither a person the user manages nor a good row of the file.

export const importColumns = ['tipo', 'cuit', 'nombre', 'apellido', 'razon_social', 'representante', 'clave_arca', 'email', 'telefono'] as const;
export type ImportColumn = typeof importColumns[number];

export const importLimits = {
    // What one preview checks and one confirmation stores; larger portfolios go in parts.
    maxRows: 5000,
    // How long an uploaded import waits for its confirmation.
    pendingMs: 30 * 60_000
};

// A row of the file: its number in the sheet (the titles are row 1) and its non-empty cells.
export interface ImportRow {
    row: number;
    cells: Partial<Record<ImportColumn, string>>;
}

export interface RefusedRow {
    row: number;
    // As the row wrote it, when it wrote one.
    cuit: string | null;
    errors: string[];
}

export interface AcceptedRow {
    row: number;
    input: NewClientInput;
}

export interface CheckedImport {
    // In the file's order.
    accepted: AcceptedRow[];
    refused: RefusedRow[];
}

export const checkImportRows = (rows: readonly ImportRow[], inAccount: readonly AccountClient[]): CheckedImport => {

    const existing = new Map(inAccount.map((client) => [client.cuit, client]));
    const firstRow = new Map<Cuit, number>();
    const checked = rows.map((row) => {

        const { input, failures } = parseNewClient({ ...row.cells });
        const errors = [...failures];
        const cuit = parseCuit(row.cells.cuit?.trim() ?? '');
        if (cuit) {
            const first = firstRow.get(cuit);
            if (first === undefined) {
                firstRow.set(cuit, row.row);
            }
            else {
                errors.push(messages.clientImport.duplicate(first));
            }

            if (existing.has(cuit)) {
                errors.push(messages.cuitTaken);
            }
        }

        return { row, cuit, input, errors };
    });

    // A legal entity's representative: a person of the account the user manages, or a person
    // row of this file that is accepted itself (stored first on confirmation).
    // The first person row of each CUIT (a later one is refused as repeated), good or bad.
    const people = new Map<Cuit, typeof checked[number]>();
    for (const one of checked) {
        if (one.cuit && one.row.cells.tipo === 'persona-fisica' && !people.has(one.cuit)) {
            people.set(one.cuit, one);
        }
    }

    for (const one of checked) {
        if (one.input?.tipo !== 'persona-juridica' || one.errors.length) {
            continue;
        }

        const known = existing.get(one.input.representante);
        if (known) {
            if (!known.visible || known.tipo !== 'persona-fisica') {
                one.errors.push(messages.clientWrite.representativeNotFound);
            }

            continue;
        }

        const person = people.get(one.input.representante);
        if (!person) {
            one.errors.push(messages.clientWrite.representativeNotFound);
        }
        else if (person.errors.length) {
            one.errors.push(messages.clientImport.representativeRefused(person.row.row));
        }
    }

    return {
        accepted: checked.filter((one) => !one.errors.length).map((one) => ({ row: one.row.row, input: one.input! })),
        refused: checked.filter((one) => one.errors.length)
            .map((one) => ({ row: one.row.row, cuit: one.row.cells.cuit?.trim() || null, errors: [...new Set(one.errors)] }))
    };
};

// The CUITs of the account a file's rows may meet: their own and their representatives'.
export const cuitsOfRows = (rows: readonly ImportRow[]): Cuit[] => [
    ...new Set(rows.flatMap((row) => [row.cells.cuit, row.cells.representante]).map((cell) => parseCuit(cell?.trim() ?? '')).filter((cuit): cuit is Cuit => cuit !== null))
];
