import type { ArcaMeter } from '../domain/arca-meter.js';
import type { CcmaBalances, CcmaMovement } from '../domain/ccma.js';
import type { EventType, RecordChanges } from '../domain/events.js';
import type { KeyRecord, KeyState } from '../domain/health.js';
import type { Notification } from '../domain/notification.js';
import type { SctData, SctDebt } from '../domain/sct.js';
import type { SyncSystem } from '../domain/sync-system.js';
import type { Timestamp } from '../domain/time.js';
import type { CapLevel, CapStanding, CategoryTable } from '../domain/monotributo.js';
import type { DateRange } from '../domain/period.js';
import type { InvoiceRepository, InvoiceSave, RegistryClassification, SyncState } from './repositories.js';

// The unit of work: what a client's synchronized data and the webhook events about it are
// written through. The rule, kept here and nowhere else: no data without its event, no event
// without its data. A use case opens one `transaction` per write; inside it the stores only
// persist (and, when asked, report what their write replaced), and the outbox is the one writer
// of events. The use case decides which event and its payload (core/use-cases/sync/system-writes.ts,
// for every system and for the monotributo cap); the transaction commits the data and those
// events together, or neither. The one write that keeps its own transaction is the mechanics of
// a sync's save of invoices (InvoiceStore.saveKinds): on MySQL it is one round trip from BEGIN
// to COMMIT, so it takes the events core decided before it (a failing system's recovery) and
// appends them, as the outbox would, with its rows; what it changed it counts in SQL as the
// rows are written (bench:sync), and the outbox's record of it goes in the same round trip.

// An event as the outbox keeps it until it is delivered; names and payloads are the wire's.
export interface OutboxEvent {
    type: EventType;
    system?: SyncSystem | null;
    previousError?: string | null;
    error?: string | null;
    data?: unknown;
}

// What a system's write changed, as the completed sync's event tells it.
export interface SystemChanges extends RecordChanges {
    system: SyncSystem;
}

// The outbox, in the transaction. Nothing is written for an account without an active
// endpoint: nobody would receive it (append and changed write nothing then).
export interface Outbox {
    // The client's CUIT when its account listens to events, else null: read before the work
    // that only an event needs (comparing what a write replaces).
    listening(): Promise<string | null>;
    // An event about the transaction's client, or about `clientId` (a key's own client).
    append(event: OutboxEvent, at: Timestamp, clientId?: number): Promise<void>;
    // What a system's write changed, added to what the client's sync wrote before it.
    changed(system: SyncSystem, changes: RecordChanges, at: Timestamp): Promise<void>;
    // The key state last announced about a key's own client (null: never announced).
    lastKeyState(loginClientId: number): Promise<KeyState | null>;
    // What the client's writes changed since its last completed sync, taken out.
    takeChanges(): Promise<SystemChanges[]>;
}

// What an SCT replace found and wrote (`count`): the debts as they were and as stored now.
interface SctReplaced {
    changes: RecordChanges;
    debts: { before: SctDebt[]; after: SctDebt[] };
}

// What a notifications save found (`count`): the ones not stored before, as stored.
interface NotificationsSaved {
    changes: RecordChanges;
    fresh: Notification[];
}

// The key that logs in for the client as its health is derived (keyHealth): its own client,
// the CUITs of the account it reaches.
interface KeyOfClient {
    loginClientId: number;
    cuits: string[];
    key: KeyRecord;
}

// The stores of a client's synchronized data, in the transaction. `count`: compare with what
// is stored and report what the write changed (only when someone listens: it reads first).
export interface ClientStores {
    // False when the client no longer exists (its rows went with it).
    exists(): Promise<boolean>;
    registry: {
        save(classification: RegistryClassification, syncedAt: Timestamp, count: boolean): Promise<RecordChanges | null>;
        // ARCA's meter read with it (core/domain/arca-meter.ts), replacing the last one.
        saveMeter(meter: ArcaMeter, readAt: Timestamp): Promise<void>;
    };
    sct: { replace(data: SctData, syncedAt: Timestamp, count: boolean): Promise<SctReplaced | null> };
    ccma: { replace(balances: CcmaBalances, movements: readonly CcmaMovement[], syncedAt: Timestamp, count: boolean): Promise<RecordChanges | null> };
    notifications: { save(notifications: readonly Notification[], syncedAt: Timestamp, count: boolean): Promise<NotificationsSaved | null> };
    syncStates: {
        // The system's record (undefined: never attempted).
        get(system: SyncSystem): Promise<SyncState | undefined>;
        // The system synchronized now: its failure, if any, is over.
        markSynced(system: SyncSystem, at: Timestamp): Promise<void>;
        recordFailure(system: SyncSystem, record: { error: string; state: SyncState['lastState']; at: Timestamp; failingSince: Timestamp }): Promise<void>;
    };
    // Where its billing stood against its monotributo caps (core/domain/monotributo.ts).
    monotributo: {
        // Its category as the registry gave it, its issued invoices' billing between the range's
        // days (signed as billingTypes sign it) and the level stored by the last check (0: none);
        // null when the registry does not call it a monotributista. `tablesVersion`: the
        // category tables' fingerprint as stored now, different whenever a table is loaded or
        // replaced (by any process), so that the tables are read again only then.
        billing(range: DateRange): Promise<{ categoria: string | null; facturado: number; level: CapLevel; tablesVersion: string } | null>;
        // Every category table staff loaded.
        tables(): Promise<CategoryTable[]>;
        // The level worked out now, the one it replaces kept beside it.
        saveLevel(standing: CapStanding, previous: CapLevel, at: Timestamp): Promise<void>;
    };
    // null: no key can log in for it (a legal entity without a representative).
    keyOf(day: string): Promise<KeyOfClient | null>;
}

export interface ClientWork extends ClientStores {
    outbox: Outbox;
}

export interface UnitOfWork {
    // `work` run in one transaction about the client: everything it stores and appends commits
    // together, or nothing does. Run again whole when it loses to another transaction over
    // locks (so `work` must only read and write through its argument).
    transaction<T>(clientId: number, work: (client: ClientWork) => Promise<T>): Promise<T>;
}

// The invoices' store: its reads, and a sync's save on its own fast path (one transaction of
// fixed SQL, one round trip on MySQL): each kind's rows, its day counts, its sync date and
// what it changed (for an account that listens), and `events`, core's, appended as the outbox
// appends them (nothing for an account without an active endpoint).
export interface InvoiceStore extends Pick<InvoiceRepository, 'list' | 'totals'> {
    saveKinds(clientId: number, saves: readonly InvoiceSave[], syncedAt: Timestamp, events: readonly OutboxEvent[]): Promise<void>;
}
