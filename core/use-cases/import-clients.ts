import { randomUUID } from 'node:crypto';
import type { Principal } from '../domain/access.js';
import { assertSubscriptionActive } from '../domain/access.js';
import type { ClientType } from '../domain/client.js';
import { displayName } from '../domain/client.js';
import type { Cuit } from '../domain/cuit.js';
import { DomainError, invalid } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { NewClient, Ports } from '../ports/index.js';
import type { AcceptedRow, ImportRow, RefusedRow } from './import-rows.js';
import { checkImportRows, cuitsOfRows, importLimits } from './import-rows.js';
import { clientNames, newClientOf } from './new-client.js';

// Importing clients from a file (docs/panel.md, Importar clientes), in two steps:
// - preview: every row checked as POST /v1/cuits checks a body (import-rows.ts), nothing of it
//   stored as a client; the rows, keys included, kept sealed with the secret box as the pending
//   import of this user and account for importLimits.pendingMs. One per user: a new preview
//   replaces the previous one, as an accountant who uploads a corrected file expects (the
//   older preview, confirmed from a tab left open, would import the rows they just fixed);
//   it also bounds what one user keeps to one file's rows;
// - confirm: the pending import taken (once), its rows checked again against the account as it
//   is now, and the accepted ones stored, people before the legal entities they represent, each
//   with its first sync queued as createClient queues it (the queue's claim takes accounts in
//   turns, so a thousand first syncs of one account delay another account's by a job or two).
// Per row, not all or nothing: a file of 50 with 3 bad rows imports the 47 and lists the 3, so
// the accountant fixes and imports those 3 alone. Billing is per CUIT stored, with no cap; like
// any creation from the panel it needs no API writing (the enterprise feature), and a member's
// imported CUITs are assigned to it.

type Deps = Pick<Ports, 'clients' | 'clientImports' | 'secretBox' | 'keyIdentity' | 'clock'>;

// A row as the preview and the report show it: never its key.
interface ImportedRow {
    row: number;
    tipo: ClientType;
    cuit: Cuit;
    nombre: string;
}

export interface ImportPreview {
    // What confirms it; null when no row can be imported (nothing is kept then).
    id: string | null;
    accepted: ImportedRow[];
    refused: RefusedRow[];
}

export interface ImportReport {
    imported: ImportedRow[];
    skipped: RefusedRow[];
}

const internals = {
    count: (value: number): string => new Intl.NumberFormat('es-AR').format(value),

    shown: ({ row, input }: AcceptedRow): ImportedRow => ({
        row, tipo: input.tipo, cuit: input.cuit, nombre: displayName({ tipo: input.tipo, ...clientNames(input) })
    }),

    skippedFor: (reason: 'duplicate' | 'representative_gone'): string => (reason === 'duplicate' ? messages.cuitTaken : messages.clientWrite.representativeNotFound)
};

export const previewClientImport = async (deps: Deps, principal: Principal, rows: readonly ImportRow[]): Promise<ImportPreview> => {

    assertSubscriptionActive(principal);
    if (!rows.length) {
        throw invalid([messages.clientImport.empty]);
    }

    if (rows.length > importLimits.maxRows) {
        throw invalid([messages.clientImport.tooManyRows(internals.count(importLimits.maxRows))]);
    }

    const checked = checkImportRows(rows, await deps.clients.findManyInAccount(principal, cuitsOfRows(rows)));
    if (!checked.accepted.length) {
        return { id: null, accepted: [], refused: checked.refused };
    }

    const id = randomUUID();
    const now = deps.clock.now().getTime();
    await deps.clientImports.save({
        publicId: id,
        accountId: principal.accountId,
        userId: principal.userId,
        sealedRows: deps.secretBox.seal(JSON.stringify(rows)),
        rowCount: rows.length,
        createdAt: now,
        expiresAt: now + importLimits.pendingMs
    });

    return { id, accepted: checked.accepted.map(internals.shown), refused: checked.refused };
};

export const confirmClientImport = async (deps: Deps, principal: Principal, id: string): Promise<ImportReport> => {

    assertSubscriptionActive(principal);
    const now = deps.clock.now().getTime();
    // The keys' identities unavailable (503): the pending import stays for a later try.
    await deps.keyIdentity.ready();
    const sealed = await deps.clientImports.take({ publicId: id, accountId: principal.accountId, userId: principal.userId, now });
    if (!sealed) {
        throw new DomainError('not_found', messages.clientImport.gone);
    }

    // Sealed under a key since retired (`secret rotate` reseals clients' keys, not these
    // half-hour rows): as gone as an expired one.
    let rows: ImportRow[];
    try {
        rows = JSON.parse(deps.secretBox.open(sealed)) as ImportRow[];
    }
    catch {
        throw new DomainError('not_found', messages.clientImport.gone);
    }

    const inAccount = await deps.clients.findManyInAccount(principal, cuitsOfRows(rows));
    const checked = checkImportRows(rows, inAccount);
    const options = { managerUserId: principal.role === 'owner' ? null : principal.userId };
    const rowOf = new Map(checked.accepted.map((accepted) => [accepted.input.cuit, accepted]));
    const imported: ImportedRow[] = [];
    const skipped: RefusedRow[] = [...checked.refused];
    const store = async (clients: NewClient[]) => {

        const outcome = await deps.clients.createMany(clients, options);
        imported.push(...outcome.created.map((client) => internals.shown(rowOf.get(client.cuit)!)));
        skipped.push(...outcome.skipped.map(({ cuit, reason }) => ({ row: rowOf.get(cuit)!.row, cuit, errors: [internals.skippedFor(reason)] })));
        return outcome.created;
    };

    // People first: the entities of the file name them as representatives.
    const people = checked.accepted.filter((accepted) => accepted.input.tipo === 'persona-fisica');
    const created = await store(await Promise.all(people.map((accepted) => newClientOf(deps, principal.accountId, accepted.input, null, now))));

    const representatives = new Map<Cuit, number>([
        ...inAccount.filter((client) => client.visible && client.tipo === 'persona-fisica').map((client) => [client.cuit, client.id] as const),
        ...created.map((client) => [client.cuit, client.id] as const)
    ]);
    const entities: NewClient[] = [];
    for (const accepted of checked.accepted) {
        if (accepted.input.tipo !== 'persona-juridica') {
            continue;
        }

        // Its representative's row was left out on storing (its CUIT was taken meanwhile).
        const representativeId = representatives.get(accepted.input.representante);
        if (representativeId === undefined) {
            skipped.push({ row: accepted.row, cuit: accepted.input.cuit, errors: [messages.clientWrite.representativeNotFound] });
            continue;
        }

        entities.push(await newClientOf(deps, principal.accountId, accepted.input, representativeId, now));
    }

    await store(entities);
    return { imported: imported.sort((a, b) => a.row - b.row), skipped: skipped.sort((a, b) => a.row - b.row) };
};
