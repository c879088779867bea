import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { assertSupportedServer } from '../connection.js';
import * as initial from './001_initial.js';
import * as sync from './002_sync.js';
import * as oauth from './003_oauth.js';
import * as dataVersions from './004_data_versions.js';
import * as invoiceDayCounts from './005_invoice_day_counts.js';
import * as throttles from './006_throttles.js';
import * as oauthDigests from './007_oauth_digests.js';
import * as installation from './008_installation.js';
import * as fleet from './009_fleet.js';
import * as hardening from './010_hardening.js';
import * as healthWebhooks from './011_health_webhooks.js';
import * as syncChanges from './012_sync_changes.js';
import * as keyEvents from './013_key_events.js';
import * as keyIdentity from './014_key_identity.js';
import * as eventSizes from './016_event_sizes.js';
import * as claimOrder from './017_claim_order.js';
import * as healthStates from './018_health_states.js';

// Migrations are listed here rather than found on disk, so the same list runs from the
// TypeScript sources (tests) and from the compiled build.
const internals = {
    migrations: {
        '001_initial': initial,
        '002_sync': sync,
        '003_oauth': oauth,
        '004_data_versions': dataVersions,
        '005_invoice_day_counts': invoiceDayCounts,
        '006_throttles': throttles,
        '007_oauth_digests': oauthDigests,
        '008_installation': installation,
        '009_fleet': fleet,
        '010_hardening': hardening,
        '011_health_webhooks': healthWebhooks,
        '012_sync_changes': syncChanges,
        '013_key_events': keyEvents,
        '014_key_identity': keyIdentity,
        '016_event_sizes': eventSizes,
        '017_claim_order': claimOrder,
        '018_health_states': healthStates
    } as Record<string, Knex.Migration>,
    // How long a process waits for another one's migration (an upgrade started on every
    // worker at once), and how often it looks whether that one has ended.
    lockWaitMs: 5 * 60_000,
    lockPollMs: 200,

    // knex's refusal to migrate while its lock row says another migration runs (or one cut
    // short left it so); knex names the way out in English, for its own CLI.
    locked: (err: unknown): boolean => (err as { name?: unknown } | null)?.name === 'MigrationLocked',

    // Two first migrations at once: both found knex's own tables missing and one created them.
    tableRace: (err: unknown): boolean => /knex_migrations(_lock)?\b.*already exists|already exists.*knex_migrations/i.test(String((err as { message?: unknown } | null)?.message)),

    lockedTooLong(waitMs: number): string {

        const waited = waitMs % 60_000 === 0 ? `${waitMs / 60_000} min` : `${Math.ceil(waitMs / 1000)} s`;
        return `otra migración la tiene bloqueada y no terminó en ${waited}; si ninguna está en curso (una se cortó a la mitad), liberala con 'arcasync migrate --unlock' y volvé a intentar`;
    },

    // Whether a migration holds knex's lock row. Two first migrations at once can each insert
    // one (knex looks, then inserts): knex never locks two rows again (it wants exactly one
    // updated), so the free ones past the first are dropped here.
    async lockHeld(knex: Knex): Promise<boolean> {

        const rows = await knex('knex_migrations_lock').select('index', 'is_locked').orderBy('index') as { index: number; is_locked: number | string }[];
        if (rows.some((row) => Number(row.is_locked) === 1)) {
            return true;
        }

        if (rows.length > 1) {
            await knex('knex_migrations_lock').where('index', '>', rows[0]!.index).andWhere('is_locked', 0).delete();
        }

        return false;
    }
};

export const migrationSource: Knex.MigrationSource<string> = {
    getMigrations: async () => Object.keys(internals.migrations),
    getMigrationName: (name) => name,
    getMigration: async (name) => internals.migrations[name]!
};

// Applies the migrations not yet applied; answers their names. Another process migrating the
// same database is waited for (its migrations are then found applied); a lock still held after
// lockWaitMs is an error naming the way out (ARCASYNC_MIGRATION_LOCKED, errors.ts).
export const migrateLatest = async (knex: Knex, options: { lockWaitMs?: number } = {}): Promise<string[]> => {

    await assertSupportedServer(knex);
    const waitMs = options.lockWaitMs ?? internals.lockWaitMs;
    const deadline = Date.now() + waitMs;
    let told = false;
    for (;;) {
        try {
            const [, applied] = await knex.migrate.latest({ migrationSource }) as [number, string[]];
            return applied;
        }
        catch (err) {
            if (!internals.locked(err) && !internals.tableRace(err)) {
                throw err;
            }

            if (!told) {
                knex.client.logger.warn?.('otra migración de esta base está en curso: se espera a que termine');
                told = true;
            }

            // After a table race the lock table may not be there yet: a moment, then again.
            while (internals.locked(err) && await internals.lockHeld(knex)) {
                if (Date.now() >= deadline) {
                    throw Object.assign(new Error(internals.lockedTooLong(waitMs)), { code: 'ARCASYNC_MIGRATION_LOCKED' });
                }

                await sleep(internals.lockPollMs);
            }

            // knex reports any failure to take the lock as a lock error: past the wait, that one.
            if (Date.now() >= deadline) {
                throw err;
            }

            await sleep(internals.lockPollMs);
        }
    }
};

// `arcasync migrate --unlock`: frees the lock a migration that was cut short left held.
export const unlockMigrations = async (knex: Knex): Promise<void> => {

    await knex.migrate.forceFreeMigrationsLock({ migrationSource });
};
