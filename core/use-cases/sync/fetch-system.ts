import type { InvoiceKind, InvoiceRecord } from '../../domain/invoice.js';
import { normalizeInvoice } from '../../domain/invoice.js';
import { messages } from '../../domain/messages.js';
import { enteringNotification } from '../../domain/notification.js';
import type { SyncSystem } from '../../domain/sync-system.js';
import type { Timestamp } from '../../domain/time.js';
import type { TaxpayerSession } from '../../ports/authority-client.js';
import { AuthorityFailure } from '../../ports/authority-client.js';
import type { SyncTarget } from '../../ports/job-queue.js';
import type { InvoiceSaveContext, SyncState } from '../../ports/repositories.js';
import type { SyncDeps } from './deps.js';
import type { InvoiceWindowPolicy } from './sync-policy.js';
import { invoiceWindow } from './sync-policy.js';

// One system read from the authority, and what storing it takes: invoices, which a write of
// both kinds takes together, or a store of its own. Each write is one idempotent,
// all-or-nothing transaction (an upsert or a replace).

export interface Fetched {
    system: SyncSystem;
    records: number;
    write: { invoices: { kind: InvoiceKind; invoices: readonly InvoiceRecord[] } } | { store: (at: Timestamp) => Promise<void> };
    // What was read only in part, said in the system's outcome (ARCA's meter not read).
    notice?: string;
    // The registry's word, once stored: whether the invoice saves after it check a cap.
    monotributista?: boolean;
}

export interface FetchOptions {
    full: boolean;
    invoicePolicy?: InvoiceWindowPolicy | undefined;
    // The client's systems as the sync found them at its start (its job's lease makes the sync
    // the only writer of their records until it ends).
    states: readonly SyncState[];
}

const internals = {
    writeAttempts: 3,

    syncedAt: (options: FetchOptions, system: SyncSystem): Timestamp | null => options.states.find((state) => state.system === system)?.syncedAt ?? null,

    async invoices(deps: SyncDeps, session: TaxpayerSession, kind: InvoiceKind, options: FetchOptions): Promise<InvoiceRecord[]> {

        const lastSyncedAt = internals.syncedAt(options, `${kind}_invoices`);
        const window = invoiceWindow({
            now: deps.clock.now().getTime(),
            lastSyncedAt,
            full: options.full,
            ...(options.invoicePolicy ? { policy: options.invoicePolicy } : {})
        });
        return (await session.invoices(kind, window)).map(normalizeInvoice);
    }
};

export const fetchSystem = async (
    deps: SyncDeps,
    session: TaxpayerSession,
    target: SyncTarget,
    system: SyncSystem,
    options: FetchOptions
): Promise<Fetched> => {

    switch (system) {
        case 'registry': {
            // ARCA's meter rides on the registry's read: its failure costs only itself (no
            // meter stored, the last one kept) and is said in the sync's notice.
            const { meter, ...classification } = await session.registry();
            const read = meter instanceof AuthorityFailure ? undefined : meter;
            return {
                system,
                records: 1,
                write: { store: (at) => deps.registry.save(target.id, classification, at, read) },
                monotributista: classification.monotributista === true,
                ...(meter instanceof AuthorityFailure ? { notice: `${messages.sync.meterUnread}: ${meter.message}` } : {})
            };
        }

        case 'issued_invoices':
        case 'received_invoices': {
            const kind = system === 'issued_invoices' ? 'issued' : 'received';
            const invoices = await internals.invoices(deps, session, kind, options);
            return { system, records: invoices.length, write: { invoices: { kind, invoices } } };
        }

        case 'sct': {
            const data = await session.sct();
            return {
                system,
                records: data.deuda.length + data.vencimientos.length + data.ddjj.length,
                write: { store: (at) => deps.sct.replace(target.id, data, at) }
            };
        }

        case 'ccma': {
            const { balances, movements } = await session.ccma();
            if (movements instanceof AuthorityFailure) {
                // The balances come from another page: kept, while the movements (and the
                // system's syncedAt) fail alone.
                await deps.ccma.saveBalances(target.id, balances);
                throw movements;
            }

            return { system, records: movements.length, write: { store: (at) => deps.ccma.replace(target.id, balances, movements, at) } };
        }

        case 'dfe': {
            const listed = await session.notifications();
            const firstSync = internals.syncedAt(options, 'dfe') === null;
            return {
                system,
                records: listed.length,
                write: { store: (at) => deps.notifications.save(target.id, listed.map((notification) => enteringNotification(notification, firstSync)), at) }
            };
        }
    }
};

// A CUIT's issued and received invoices, fetched one after the other, are written in one
// transaction: one commit instead of two, each kind still with its syncedAt. Every other
// system is written on its own.
export const joinsBatch = (
    batch: readonly Fetched[],
    system: SyncSystem
): boolean => batch.every((fetched) => 'invoices' in fetched.write) && (system === 'issued_invoices' || system === 'received_invoices');

// A batch (see joinsBatch) stored in one transaction, tried again when it fails: concurrent
// syncs can deadlock on MySQL's gap locks, and the database resolves that by aborting one.
// Invoices are saved with what the sync knows of the client (`known`), so that deciding their
// events reads nothing more.
export const storeBatch = async (deps: SyncDeps, clientId: number, batch: readonly Fetched[], at: Timestamp, known: InvoiceSaveContext): Promise<void> => {

    const store = (): Promise<void> => {

        const saves = [];
        for (const { write } of batch) {
            if ('store' in write) {
                return write.store(at);
            }

            saves.push(write.invoices);
        }

        return deps.invoices.saveKinds(clientId, saves, at, known);
    };

    for (let attempt = 1; ; ++attempt) {
        try {
            return await store();
        }
        catch (err) {
            if (attempt >= internals.writeAttempts) {
                throw err;
            }

            await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
        }
    }
};
