import type { Knex } from 'knex';
import { jobQueue, syncTargetRepository } from './job-queue.js';
import { accountRepository } from './repositories/accounts.js';
import { answersRepository, calendarFeedRepository } from './repositories/answers.js';
import { ccmaRepository } from './repositories/ccma.js';
import { healthRepository } from './repositories/health.js';
import { webhookRepository } from './repositories/webhooks.js';
import { installationRepository } from './repositories/installation.js';
import { clientImportRepository } from './repositories/client-imports.js';
import { invitationRepository } from './repositories/invitations.js';
import { clientRepository } from './repositories/clients.js';
import { invoiceRepository } from './repositories/invoices.js';
import { notificationRepository } from './repositories/notifications.js';
import { oauthStore, userCredentialRepository } from './repositories/oauth.js';
import { sctRepository } from './repositories/sct.js';
import { syncStateRepository } from './repositories/sync-states.js';
import { tagRepository } from './repositories/tags.js';
import { tokenRepository } from './repositories/tokens.js';
import { userRepository } from './repositories/users.js';
import { rateLimitCounter } from './rate-limit-counter.js';
import { throttleCounter } from './throttle-counter.js';
import { databaseStatus } from './database-status.js';
import { fleetLimits } from './fleet-state.js';
import { loginLedger } from './login-ledger.js';
import { unitOfWork } from './unit-of-work.js';

export { closeDatabase, connect, dialectOf } from './connection.js';
export { admitDatabase, migrateDown, migrateLatest, migrationStates, planMigrationDown, unlockMigrations } from './migrations/index.js';
export type { MigrationDown, MigrationState } from './migrations/index.js';

// Every repository over one knex instance; `owner` is this process in the fleet's leases.
export const knexRepositories = (knex: Knex, owner: string) => ({
    accounts: accountRepository(knex),
    users: userRepository(knex),
    tokens: tokenRepository(knex),
    invitations: invitationRepository(knex),
    clients: clientRepository(knex),
    clientImports: clientImportRepository(knex),
    installation: installationRepository(knex),
    tags: tagRepository(knex),
    invoices: invoiceRepository(knex),
    sct: sctRepository(knex),
    ccma: ccmaRepository(knex),
    notifications: notificationRepository(knex),
    syncStates: syncStateRepository(knex),
    unitOfWork: unitOfWork(knex),
    jobQueue: jobQueue(knex),
    syncTargets: syncTargetRepository(knex),
    loginLedger: loginLedger(knex),
    fleetLimits: fleetLimits(knex, owner),
    health: healthRepository(knex),
    webhooks: webhookRepository(knex),
    rateLimitCounter: rateLimitCounter(knex),
    throttles: throttleCounter(knex),
    userCredentials: userCredentialRepository(knex),
    oauthStore: oauthStore(knex),
    database: databaseStatus(knex),
    answers: answersRepository(knex),
    calendarFeeds: calendarFeedRepository(knex)
});
