import type { RateLimits } from '../domain/rate-limit.js';
import type { Clock } from './clock.js';
import type { DatabaseStatus } from './database.js';
import type { FleetLimits, LoginLedger } from './fleet.js';
import type { JobQueue, SyncTargetRepository } from './job-queue.js';
import type { KeyIdentity } from './key-identity.js';
import type { OAuthStore, UserCredentialRepository } from './oauth.js';
import type { RateLimitCounter } from './rate-limit-counter.js';
import type { ReadCache } from './read-cache.js';
import type { SecretBox } from './secret-box.js';
import type { ThrottleCounter } from './throttle-counter.js';
import type { HolidayCalendar } from './holidays.js';
import type { UnitOfWork } from './unit-of-work.js';
import type {
    AccountRepository,
    AnswersRepository,
    CalendarFeedRepository,
    CcmaRepository,
    ClientImportRepository,
    ClientRepository,
    HealthRepository,
    InstallationRepository,
    InvitationRepository,
    InvoiceRepository,
    NotificationRepository,
    RegistryRepository,
    SctRepository,
    SyncStateRepository,
    TagRepository,
    TokenRepository,
    UserRepository,
    WebhookRepository
} from './repositories.js';

export type * from './repositories.js';
export type { Clock } from './clock.js';
export type { DatabaseStatus } from './database.js';
export type { OAuthEntry, OAuthStore, UserCredentialRepository } from './oauth.js';
export type { RateLimitCounter, RateLimitOutcome, RateLimitUsage } from './rate-limit-counter.js';
export type { SecretBox } from './secret-box.js';
export type { ThrottleCounter } from './throttle-counter.js';

// Everything the use cases may need; each use case names the part it uses.
export interface Ports {
    accounts: AccountRepository;
    users: UserRepository;
    tokens: TokenRepository;
    invitations: InvitationRepository;
    clients: ClientRepository;
    // Imports uploaded in the panel, waiting for confirmation.
    clientImports: ClientImportRepository;
    installation: InstallationRepository;
    tags: TagRepository;
    invoices: InvoiceRepository;
    sct: SctRepository;
    ccma: CcmaRepository;
    notifications: NotificationRepository;
    registry: RegistryRepository;
    syncStates: SyncStateRepository;
    // A client's synchronized data and the events about it, written together (unit-of-work.ts).
    unitOfWork: UnitOfWork;
    // The synchronization's queue and the clients as the sync reads them.
    jobQueue: JobQueue;
    syncTargets: SyncTargetRepository;
    // What the whole fleet shares towards the authority (fleet.ts): one login per key per ARCA
    // day, counted in the login ledger, and the fleet's login starts per minute.
    loginLedger: LoginLedger;
    fleetLimits: FleetLimits;
    health: HealthRepository;
    webhooks: WebhookRepository;
    rateLimitCounter: RateLimitCounter;
    throttles: ThrottleCounter;
    readCache: ReadCache;
    userCredentials: UserCredentialRepository;
    oauthStore: OAuthStore;
    rateLimits: RateLimits;
    clock: Clock;
    secretBox: SecretBox;
    // Who a stored clave fiscal is (its keyed hash): what sessions and the ledger are scoped by.
    keyIdentity: KeyIdentity;
    database: DatabaseStatus;
    // The answers' sums, category tables and calendar addresses (docs/answers.md).
    answers: AnswersRepository;
    calendarFeeds: CalendarFeedRepository;
    holidays: HolidayCalendar;
}
export type { WebhookSender } from './webhook-sender.js';
