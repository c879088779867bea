import type { ArcaMeter, ArcaMeterReading } from '../domain/arca-meter.js';
import type { Principal, Role, SubscriptionState } from '../domain/access.js';
import type { CcmaBalances, CcmaMovement } from '../domain/ccma.js';
import type { ClientListRow, ClientQuery, ClientRecord, ClientType } from '../domain/client.js';
import type { Cuit } from '../domain/cuit.js';
import type { HealthState, KeyDay } from '../domain/health.js';
import type { InvoiceKind, InvoiceRecord, InvoiceTotals } from '../domain/invoice.js';
import type { Notification } from '../domain/notification.js';
import type { Page, PageRequest } from '../domain/pagination.js';
import type { DateRange } from '../domain/period.js';
import type { SctData } from '../domain/sct.js';
import type { SyncSystem } from '../domain/sync-system.js';
import type { Tag } from '../domain/tag.js';
import type { Timestamp } from '../domain/time.js';
import type { AgendaClient, SctAgendaRow } from '../domain/agenda.js';
import type { IvaTypeTotal } from '../domain/iva.js';
import type { CategoryTable, MonotributoMonth } from '../domain/monotributo.js';

export interface AccountRecord {
    id: number;
    name: string;
    writingEnabled: boolean;
    subscription: SubscriptionState;
    createdAt: Timestamp;
}

export interface UserRecord {
    id: number;
    accountId: number;
    email: string;
    role: Role;
}

// An account as staff list them: what it is and what it is billed for.
export interface AccountListing extends AccountRecord {
    cuitCount: number;
    userCount: number;
}

export interface AccountRepository {
    // Every account, by id.
    list(): Promise<AccountListing[]>;
    create(input: { name: string; writingEnabled: boolean; subscription: SubscriptionState; createdAt: Timestamp }): Promise<number>;
    update(id: number, changes: { writingEnabled?: boolean; subscription?: SubscriptionState }): Promise<boolean>;
    findById(id: number): Promise<AccountRecord | null>;
    countClients(id: number): Promise<number>;
}

export interface UserRepository {
    // null: the address is taken meanwhile, in the account or (a password given) as a sign-in.
    create(input: { accountId: number; email: string; role: Role; passwordHash: string | null; createdAt: Timestamp }): Promise<number | null>;
    findById(id: number): Promise<UserRecord | null>;
    // The user who signs in with this address: one with a password. Users whose invitation is
    // pending may share their address with it, each in its own account (migration 027).
    findByEmail(email: string): Promise<UserRecord | null>;
    listByAccount(accountId: number): Promise<UserRecord[]>;
    // Every user of every account, by id.
    list(): Promise<UserRecord[]>;
    // The user with its account's live flags (an OAuth grant names its user); null when gone.
    findPrincipal(id: number): Promise<Principal | null>;
    // The same and the user's e-mail in one lookup (a panel session's user); with a CUIT, the
    // client it names if the user manages it, as TokenRepository.findPrincipal answers it.
    findSessionUser(id: number, cuit?: Cuit): Promise<{ principal: Principal; email: string } | null>;
    // A member manages the clients assigned to it; assigning twice is harmless. All of them in
    // one transaction, leaving out a client no longer in the user's account.
    assignClients(userId: number, clientIds: readonly number[]): Promise<void>;
    // Assigned or not, the member ends without them, in one transaction.
    unassignClients(userId: number, clientIds: readonly number[]): Promise<void>;
    // The CUITs assigned to a user, in CUIT order.
    assignedCuits(userId: number): Promise<Cuit[]>;
    // The account's users by id, each with how many CUITs are assigned to it and whether it
    // still has no password (invited, its link not used yet).
    listTeam(accountId: number): Promise<TeamMember[]>;
    // Both under the rule that an account keeps an owner (keepsAnOwner, core/domain/access.ts),
    // applied while the account's users are locked against each other's changes: two owners
    // demoting each other at once cannot leave it without one. 'absent': no such user.
    // Removing takes with it the user's API tokens, assignments and invitation links.
    setRole(id: number, role: Role): Promise<'changed' | 'last_owner' | 'absent'>;
    remove(id: number): Promise<'removed' | 'last_owner' | 'absent'>;
}

interface TeamMember extends UserRecord {
    assignedCount: number;
    pending: boolean;
}

export interface InvitationRecord {
    id: number;
    userId: number;
    expiresAt: Timestamp;
    usedAt: Timestamp | null;
}

// The one-time links to set a password (core/domain/invitation.ts), by their token's digest.
export interface InvitationRepository {
    // A new link for the user; its earlier ones end.
    create(input: { userId: number; tokenHash: string; createdAt: Timestamp; expiresAt: Timestamp }): Promise<void>;
    find(tokenHash: string): Promise<InvitationRecord | null>;
    // Compare-and-set: false when it was used meanwhile (or is gone), so a link sets one password.
    use(id: number, at: Timestamp): Promise<boolean>;
}

export interface TokenRecord {
    id: number;
    userId: number;
    name: string | null;
    hint: string;
    createdAt: Timestamp;
    revokedAt: Timestamp | null;
    // When a request last authenticated with it, to findTokenUser's throttle; null: never.
    lastUsedAt: Timestamp | null;
}

export interface TokenRepository {
    create(input: { userId: number; name: string | null; tokenHash: string; hint: string; createdAt: Timestamp }): Promise<number>;
    revoke(id: number, at: Timestamp): Promise<boolean>;
    findById(id: number): Promise<TokenRecord | null>;
    // The tokens of a user or of every user of an account (all when neither), by id; revoked
    // ones too. Never the digest.
    list(filter: { userId?: number; accountId?: number }): Promise<TokenRecord[]>;
    // The acting user and its account flags for a live token, in one lookup; with a CUIT,
    // the same lookup also answers the client it names if the user manages it (`named`, under
    // ClientRepository.findVisible's rule).
    findPrincipal(tokenHash: string, cuit?: Cuit): Promise<Principal | null>;
    // Records that the token was used at `at`; an earlier time never replaces a later one.
    recordUse(id: number, at: Timestamp): Promise<void>;
}

export interface NewClient {
    publicId: string;
    accountId: number;
    cuit: Cuit;
    tipo: ClientType;
    nombre: string | null;
    apellido: string | null;
    razonSocial: string | null;
    representativeId: number | null;
    displayName: string;
    sortName: string;
    email: string | null;
    telefono: string | null;
    sealedKey: string | null;
    // The key's identity (core/domain/key-identity.ts), stored with it; null without a key.
    keyDigest: string | null;
    createdAt: Timestamp;
}

// What an edit changes; absent keys stay as they are.
export interface ClientChanges {
    nombre?: string;
    apellido?: string;
    razonSocial?: string;
    representativeId?: number;
    displayName?: string;
    sortName?: string;
    email?: string | null;
    telefono?: string | null;
    // A new key comes with its identity; storing it queues a sync that tries it.
    sealedKey?: string;
    keyDigest?: string;
}

// 'representative_gone': the representative was deleted between the check and the write
// (the foreign key noticed).
export type CreateClientOutcome = { status: 'created'; client: ClientRecord } | { status: 'duplicate' } | { status: 'representative_gone' };
type UpdateClientOutcome = { status: 'updated'; client: ClientRecord } | { status: 'absent' } | { status: 'representative_gone' };
type DeleteClientOutcome = 'deleted' | 'absent' | 'represents';

// A value sealed with the secret box, by the id of what holds it (a client, a webhook
// endpoint, one of the OAuth server's keys).
export interface SealedKeyRow<Id extends number | string = number> {
    id: Id;
    sealedKey: string;
}

export interface ClientRepository {
    // null when the account already has this CUIT (decided by a unique index, so concurrent
    // creations cannot both succeed).
    insert(client: NewClient): Promise<ClientRecord | null>;
    // A client created by a user: in one transaction the row, its first synchronization job
    // (sync_jobs: reason 'first', pending, due at createdAt) and, for a member, the assignment
    // that lets it see the client. 'duplicate' comes from the unique index.
    create(client: NewClient, options: { managerUserId: number | null }): Promise<CreateClientOutcome>;
    update(id: number, changes: ClientChanges, at: Timestamp): Promise<UpdateClientOutcome>;
    // In one transaction the client, its stored key and everything in the delete cascade
    // (deleteCascade, core/domain/client.ts: data, sync states, jobs, tags, assignments) go;
    // 'represents', nothing gone, while it represents a legal entity.
    delete(id: number): Promise<DeleteClientOutcome>;
    // Stored keys in id order after `afterId`, for re-sealing under a new key.
    listSealedKeys(afterId: number, limit: number): Promise<SealedKeyRow[]>;
    // Compare-and-set: false when the stored key changed (or the client went) meanwhile.
    replaceSealedKey(id: number, expected: string, next: string): Promise<boolean>;
    // Keys stored before their identity was kept (migration 014), and the identity set once
    // computed, while the key is still the one read.
    listUndigestedKeys(afterId: number, limit: number): Promise<(SealedKeyRow & { cuit: Cuit })[]>;
    setKeyDigest(id: number, sealedKey: string, keyDigest: string): Promise<boolean>;
    // Member visibility (docs/api.md, Access): an owner manages every client of its account, a
    // member only those assigned to it (the ones it created, or staff assigned). findVisible
    // answers null for an absent, a foreign and an unassigned CUIT alike, so the API answers
    // them with one 404 (find-visible-client.ts); listVisible lists only what it manages.
    findVisible(principal: Principal, cuit: Cuit): Promise<ClientRecord | null>;
    listVisible(principal: Principal, filters: ClientQuery, page: PageRequest): Promise<Page<ClientListRow>>;
    findInAccount(accountId: number, cuit: Cuit): Promise<ClientRecord | null>;
    // The account's clients among `cuits`, each with whether the principal manages it.
    findManyInAccount(principal: Principal, cuits: readonly Cuit[]): Promise<AccountClient[]>;
    // Many new clients of one account as `create` stores each (the row, its first sync job due
    // at createdAt, a member's assignment), a few hundred to a transaction. A client whose CUIT
    // the account has by then, or whose representative is gone, is left out and named.
    createMany(clients: readonly NewClient[], options: { managerUserId: number | null }): Promise<{
        created: ClientRecord[];
        skipped: { cuit: Cuit; reason: 'duplicate' | 'representative_gone' }[];
    }>;
}

// A client of the account as an import meets it: by CUIT, its type, and whether the principal
// manages it (only those may represent, as findRepresentative rules).
export interface AccountClient {
    id: number;
    cuit: Cuit;
    tipo: ClientType;
    visible: boolean;
}

// An import uploaded and checked, waiting for its user's confirmation (core/use-cases/
// import-clients.ts): its rows, keys included, sealed with the secret box; only the user and
// account that uploaded it may take it, once, before it expires.
export interface PendingImport {
    publicId: string;
    accountId: number;
    userId: number;
    sealedRows: string;
    rowCount: number;
    createdAt: Timestamp;
    expiresAt: Timestamp;
}

export interface ClientImportRepository {
    // Stores it in place of its user's pending one (one per user), dropping every import
    // expired by its createdAt.
    save(pending: PendingImport): Promise<void>;
    // Its sealed rows, deleting it; null when absent, another's, expired or already taken.
    take(lookup: { publicId: string; accountId: number; userId: number; now: Timestamp }): Promise<string | null>;
}

export interface TagRepository {
    // null when the account already has a tag with that name.
    create(input: { accountId: number; name: string; color: string }): Promise<number | null>;
    // The clients (of the account) gain the tag, all in one transaction; false, with nothing
    // changed, when the account has no such tag. A client deleted meanwhile is left out.
    assign(input: { accountId: number; clientIds: readonly number[]; name: string }): Promise<boolean>;
    // The same, taking it off; a client without it ends as it was.
    unassign(input: { accountId: number; clientIds: readonly number[]; name: string }): Promise<boolean>;
    // Renames and recolours one; 'missing' without it, 'taken' when the new name is another's.
    update(input: { accountId: number; name: string; newName: string; color: string }): Promise<'updated' | 'missing' | 'taken'>;
    // Deletes it and its assignments; false when it did not exist.
    remove(input: { accountId: number; name: string }): Promise<boolean>;
    list(accountId: number, page: PageRequest): Promise<Page<Tag>>;
}

// The write methods below store one system's synchronized result, its syncedAt and the events
// about it in one transaction: all change or none does. They are core's system writes
// (core/use-cases/sync/system-writes.ts) through the unit of work (unit-of-work.ts); invoices
// go through their store's fast path (InvoiceStore), given the events core decided.

// What a sync knew of its client when it began, handed to its invoice saves so that deciding
// their events adds no read to them: the systems' records (a failing one's save is its
// recovery) and whether the registry calls it a monotributista (its cap is checked after
// issued invoices). Without it a save reads them itself.
export interface InvoiceSaveContext {
    states: readonly SyncState[];
    monotributista: boolean;
}

export type InvoiceSave = { kind: InvoiceKind; invoices: readonly InvoiceRecord[] };

export interface InvoiceRepository {
    list(clientId: number, kind: InvoiceKind, range: DateRange, page: PageRequest): Promise<Page<InvoiceRecord>>;
    // The period's invoices added up by currency and voucher type.
    totals(clientId: number, kind: InvoiceKind, range: DateRange): Promise<InvoiceTotals[]>;
    // Upserted by natural key (kind, issuer, type, point of sale, number): reruns never duplicate.
    save(clientId: number, kind: InvoiceKind, invoices: readonly InvoiceRecord[], syncedAt: Timestamp): Promise<void>;
    // Several kinds (each at most once) as save does each, all in one transaction: a sync's
    // issued and received invoices, written together with one commit.
    saveKinds(clientId: number, saves: readonly InvoiceSave[], syncedAt: Timestamp, known?: InvoiceSaveContext): Promise<void>;
}

export interface SctRepository {
    get(clientId: number): Promise<SctData>;
    replace(clientId: number, data: SctData, syncedAt: Timestamp): Promise<void>;
}

export interface CcmaRepository {
    getBalances(clientId: number): Promise<CcmaBalances | null>;
    // CCMA paging by period (docs/api.md, Reads): `limit` and `offset` count periods, newest
    // first, not movements; a page holds every movement of its periods, by orden within each,
    // and `total` is the number of periods.
    listMovementsByPeriod(clientId: number, page: PageRequest): Promise<Page<CcmaMovement>>;
    replace(clientId: number, balances: CcmaBalances, movements: readonly CcmaMovement[], syncedAt: Timestamp): Promise<void>;
    // The balances alone, when the movements could not be read: the system's syncedAt stays.
    saveBalances(clientId: number, balances: CcmaBalances): Promise<void>;
}

export interface NotificationRepository {
    list(clientId: number, page: PageRequest): Promise<Page<Notification>>;
    // One notification by the authority's id; null when the client has none with it.
    find(clientId: number, arcaId: string): Promise<Notification | null>;
    // Marks it read in the service (at `at`, keeping an earlier leidaAt) or, with null, unread,
    // raising the client's data version with it so no kept read hides the change; the
    // notification as stored after, null when the client has none with that id.
    setRead(clientId: number, arcaId: string, at: Timestamp | null): Promise<Notification | null>;
    // Upserted by the authority's id; a notification already stored keeps its leidaAt.
    save(clientId: number, notifications: readonly Notification[], syncedAt: Timestamp): Promise<void>;
}

export interface RegistryClassification {
    monotributista: boolean | null;
    autonomo: boolean | null;
    categoria: string | null;
}

export interface RegistryRepository {
    // With `meter`, ARCA's meter as read now replaces the client's last one (same transaction);
    // without it the last one stays (not read, or its read failed).
    save(clientId: number, classification: RegistryClassification, syncedAt: Timestamp, meter?: ArcaMeter): Promise<void>;
}

export interface SyncState {
    system: SyncSystem;
    syncedAt: Timestamp | null;
    lastAttemptAt: Timestamp | null;
    lastError: string | null;
    // The state the error names, stored with it (null: no error).
    lastState: HealthState | null;
    // When the current run of failures began, its cause unchanged (null while it succeeds).
    failingSince: Timestamp | null;
}

export interface SyncStateRepository {
    syncedAt(clientId: number, system: SyncSystem): Promise<Timestamp | null>;
    // When each system of the client was last synchronized (systems never synchronized: absent).
    syncedAtBySystem(clientId: number): Promise<Partial<Record<SyncSystem, Timestamp>>>;
    // Every system's state of the client that was ever attempted.
    list(clientId: number): Promise<SyncState[]>;
    // A failed attempt: the data and syncedAt stay; false when the client no longer exists.
    recordFailure(clientId: number, system: SyncSystem, error: string, at: Timestamp, state: HealthState): Promise<boolean>;
    // A CUIT's sync ended: what its systems' writes changed becomes one `sincronizacion.completada`
    // event (README: States and webhooks); false when there was nothing to announce.
    announceSyncCompleted(clientId: number, at: Timestamp): Promise<boolean>;
}

// The database itself: whether the demo created it (its clients' keys are made up).
export interface InstallationRepository {
    isSimulated(): Promise<boolean>;
    markSimulated(): Promise<void>;
    // The demo process serving this database ("host pid"), so that a second start never
    // changes the credentials the first one printed; null when none claimed it.
    demoProcess(): Promise<string | null>;
    claimDemo(process: string): Promise<void>;
    releaseDemo(process: string): Promise<void>;
}

// A client as its health is derived (core/domain/health.ts): what the sync recorded of it.
export interface HealthClientRow {
    id: number;
    cuit: Cuit;
    tipo: ClientType;
    displayName: string;
    representativeId: number | null;
    // The stored key's identity (clients.key_digest), null without one, and when it was stored.
    keyFingerprint: string | null;
    keyStoredAt: Timestamp | null;
    // The key the authority refused, while it was the one with this fingerprint.
    keyFailure: { fingerprint: string; kind: string; at: Timestamp } | null;
    systems: SyncState[];
}

export interface HealthRepository {
    // The ids of the clients the principal manages, in the CUIT list's order (name, then
    // internal id), a page of them; and how many there are.
    visibleIds(principal: Pick<Principal, 'accountId' | 'userId' | 'role'>, page: { limit: number; offset: number }): Promise<number[]>;
    countVisible(principal: Pick<Principal, 'accountId' | 'userId' | 'role'>): Promise<number>;
    // What the health of the account's clients `wanted` (by id or CUIT) is derived from: those
    // clients, the ones whose keys log in for them and every client those keys reach (a key's
    // state comes from all of them), and the login ledger's rows of `day` (the ARCA day) for
    // those keys, by CUIT. Clients of another account are left out.
    rows(accountId: number, wanted: { ids?: readonly number[]; cuits?: readonly string[] }, day: string): Promise<{
        clients: HealthClientRow[];
        // Today's logins of the clients' keys, by key identity.
        days: ReadonlyMap<string, KeyDay>;
    }>;
    // A page of the ids of the principal's clients whose CUIT state (cuitHealth on `day`, the
    // ARCA day) is one of `states`, in visibleIds' order, and how many there are: the state
    // computed where the records are, the same as the derivation's, so a filtered portfolio
    // pages without deriving every CUIT.
    pageByState(
        principal: Pick<Principal, 'accountId' | 'userId' | 'role'>,
        states: readonly HealthState[],
        day: string,
        page: { limit: number; offset: number }
    ): Promise<{ ids: number[]; total: number }>;
    // The panel's portfolio: every client the principal manages that `query` admits, with its
    // CUIT state (as pageByState computes it) and whether its Sistema Registral
    // synchronization ended; those synchronized first, each part in visibleIds' order.
    portfolio(
        principal: Pick<Principal, 'accountId' | 'userId' | 'role'>,
        query: ClientQuery,
        day: string
    ): Promise<PortfolioEntry[]>;
}

export interface PortfolioEntry {
    id: number;
    registrySynced: boolean;
    state: HealthState;
}

// Signed webhooks (migration 011): staff's endpoints, the outbox the sync fills, deliveries.
export interface WebhookEndpoint {
    id: number;
    accountId: number;
    url: string;
    events: string;                    // '*' or a comma-separated list
    createdAt: Timestamp;
    disabledAt: Timestamp | null;
    // The circuit breaker (migration 015): failed calls in a row, and while set, the endpoint
    // was set aside: no delivery of it is taken before then (after it, one call probes).
    consecutiveFailures: number;
    openUntil: Timestamp | null;
}

export interface OutboxEventRecord {
    id: number;
    publicId: string;
    accountId: number;
    clientId: number | null;
    cuit: string | null;
    type: string;
    system: SyncSystem | null;
    previousError: string | null;
    error: string | null;
    data: unknown;
    createdAt: Timestamp;
}

// A delivery a worker holds under its lease, with what calling it takes.
export interface ClaimedDelivery {
    id: number;
    attempts: number;
    event: OutboxEventRecord;
    endpoint: WebhookEndpoint & { sealedSecret: string };
}

export interface DeliveryListing {
    id: number;
    eventId: string;
    type: string;
    endpointId: number;
    url: string;
    cuit: string | null;
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    lastStatus: number | null;
    lastError: string | null;
    lastAttemptAt: Timestamp | null;
    nextAttemptAt: Timestamp | null;
    deliveredAt: Timestamp | null;
    createdAt: Timestamp;
}

export type DeliveryOutcome =
    | { status: 'delivered'; httpStatus: number }
    | { status: 'pending'; httpStatus: number | null; error: string; nextAttemptAt: Timestamp }
    | { status: 'failed'; httpStatus: number | null; error: string };

export interface WebhookRepository {
    createEndpoint(input: { accountId: number; url: string; events: string; sealedSecret: string; createdAt: Timestamp }): Promise<number>;
    listEndpoints(accountId?: number): Promise<WebhookEndpoint[]>;
    findEndpoint(id: number): Promise<(WebhookEndpoint & { sealedSecret: string }) | null>;
    disableEndpoint(id: number, at: Timestamp): Promise<boolean>;
    replaceSecret(id: number, sealedSecret: string): Promise<boolean>;
    // Signing secrets in endpoint id order after `afterId` (id, sealed secret), for re-sealing
    // under a new key (`arcasync secret rotate`), disabled endpoints' too.
    listSealedSecrets(afterId: number, limit: number): Promise<SealedKeyRow[]>;
    // Compare-and-set: false when the secret changed (rotated) or the endpoint went meanwhile.
    replaceSealedSecret(id: number, expected: string, next: string): Promise<boolean>;
    // A test event for one endpoint, due at once; its public id.
    enqueueTest(endpointId: number, at: Timestamp): Promise<string>;
    // New outbox events become a delivery for each active endpoint of their account that
    // listens to their type. Returns how many events were handled.
    fanOut(limit: number): Promise<number>;
    // Due deliveries, at most one per endpoint and none of `busyEndpoints`, taken under a lease:
    // endpoints without failures first, each group in turn (the endpoint taken longest ago
    // first, fleet-wide), at most `maxFailing` of endpoints with failures, none of an endpoint
    // set aside by its breaker (unless `probe`: staff's `webhook test`).
    claim(input: {
        owner: string;
        now: Timestamp;
        leaseMs: number;
        limit: number;
        busyEndpoints: readonly number[];
        endpointIds?: readonly number[];
        maxFailing?: number;
        probe?: boolean;
    }): Promise<ClaimedDelivery[]>;
    // false when the lease was lost meanwhile (another worker took the delivery).
    record(deliveryId: number, owner: string, at: Timestamp, outcome: DeliveryOutcome): Promise<boolean>;
    listDeliveries(filter: { endpointId?: number; accountId?: number; limit: number }): Promise<DeliveryListing[]>;
    // The breaker after a call: a 2xx ends the endpoint's run of failures (and its pause); a
    // failure lengthens it. Answers the run's length.
    noteCall(endpointId: number, ok: boolean): Promise<number>;
    // The breaker opens: no delivery of the endpoint is taken before `until`.
    pauseEndpoint(endpointId: number, until: Timestamp): Promise<void>;
    // Retention, one bounded batch: pending deliveries of events older than `expireBefore` given
    // up with `reason`; then events older than `before` with no pending delivery deleted with
    // their deliveries (at most `limit`), except each client's last key change (its next one is
    // told against it).
    prune(input: {
        before: Timestamp;
        expireBefore: Timestamp;
        at: Timestamp;
        reason: string;
        limit: number;
    }): Promise<{ expired: number; events: number; deliveries: number }>;
    // What waits for a deliverer: events older than `before` with a delivery never tried (to an
    // endpoint not set aside at `now`) or not yet fanned out.
    waiting(before: Timestamp, now: Timestamp): Promise<{ events: number; oldestAt: Timestamp | null }>;
}

// What the answers (docs/answers.md) read, added up by the database: their rules are core's
// (core/domain/monotributo.ts, iva.ts, agenda.ts); the SQL only sums by client and month.
export interface AnswerClient {
    id: number;
    cuit: Cuit;
    displayName: string;
    tipo: ClientType;
    monotributista: boolean | null;
    categoria: string | null;
}

export interface AnswersRepository {
    // Every category table loaded, by vigenciaDesde.
    categoryTables(): Promise<CategoryTable[]>;
    // A table for a vigenciaDesde already loaded replaces it.
    saveCategoryTable(table: CategoryTable, at: Timestamp): Promise<'created' | 'replaced'>;
    // The monotributistas the principal manages (by the registry), by nombre then id, each with
    // its months between `desde` and `hasta` (YYYY-MM) that had invoices: billing and purchases
    // in pesos, signed by billingTypes and purchaseTypes. With `only`, that client, or those
    // CUITs among them (a page of la cartera), still in one read.
    monotributoMonths(
        principal: Principal,
        range: { desde: string; hasta: string },
        only?: { clientId: number } | { cuits: readonly Cuit[] }
    ): Promise<{ client: AnswerClient; months: MonotributoMonth[] }[]>;
    // A client's vouchers between two months by month, kind and type: IVA in pesos and count.
    ivaTotals(clientId: number, range: { desde: string; hasta: string }): Promise<IvaTypeTotal[]>;
    // Every client the principal manages, by CUIT.
    // `clientId`: that one client only (a CUIT's agenda), still within what the principal sees.
    agendaClients(principal: Principal, clientId?: number): Promise<AgendaClient[]>;
    // Their SCT due dates, debts and sworn returns falling between two Buenos Aires days.
    sctAgenda(principal: Principal, range: { desde: string; hasta: string }, clientId?: number): Promise<SctAgendaRow[]>;
    // ARCA's own meter as last read for the client (null: never read).
    arcaMeter(clientId: number): Promise<ArcaMeterReading | null>;
}

// Each user's private iCalendar address (docs/answers.md, Agenda): one per user, its secret
// stored as a digest only.
export interface CalendarFeedRepository {
    // Replaces the user's address if it had one.
    replace(input: { userId: number; tokenHash: string; hint: string; createdAt: Timestamp }): Promise<void>;
    revoke(userId: number): Promise<boolean>;
    findUserId(tokenHash: string): Promise<number | null>;
}
