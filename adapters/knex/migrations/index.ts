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
        '013_key_events': keyEvents
    } as Record<string, Knex.Migration>
};

export const migrationSource: Knex.MigrationSource<string> = {
    getMigrations: async () => Object.keys(internals.migrations),
    getMigrationName: (name) => name,
    getMigration: async (name) => internals.migrations[name]!
};

export const migrateLatest = async (knex: Knex): Promise<string[]> => {

    await assertSupportedServer(knex);
    const [, applied] = await knex.migrate.latest({ migrationSource }) as [number, string[]];
    return applied;
};
