import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { assertSupportedServer, connect } from '../connection.js';
import type { Admission } from '../migration-guard.js';
import { admission, databaseContents } from '../migration-guard.js';
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
import * as webhookDelivery from './015_webhook_delivery.js';
import * as eventSizes from './016_event_sizes.js';
import * as claimOrder from './017_claim_order.js';
import * as healthStates from './018_health_states.js';
import * as answers from './019_answers.js';
import * as healthKinds from './020_health_kinds.js';
import * as capLevels from './021_monotributo_cap_levels.js';
import * as invitations from './022_invitations.js';
import * as tokenLastUsed from './023_token_last_used.js';
import * as arcaMeters from './024_arca_meters.js';
import * as clientImports from './025_client_imports.js';
import * as sqliteActiveKey from './026_sqlite_active_key.js';
import * as userSigninEmail from './027_user_signin_email.js';

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
        '015_webhook_delivery': webhookDelivery,
        '016_event_sizes': eventSizes,
        '017_claim_order': claimOrder,
        '018_health_states': healthStates,
        '019_answers': answers,
        '020_health_kinds': healthKinds,
        '021_monotributo_cap_levels': capLevels,
        '022_invitations': invitations,
        '023_token_last_used': tokenLastUsed,
        '024_arca_meters': arcaMeters,
        '025_client_imports': clientImports,
        '026_sqlite_active_key': sqliteActiveKey,
        '027_user_signin_email': userSigninEmail
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

    downMoved: (expected: string, last: string | null): string => `la última migración aplicada ya no es ${expected} (${last === null ? 'no queda ninguna' : `ahora es ${last}`}): otro proceso migró mientras tanto; no se deshizo nada, volvé a ejecutar el comando`,
    downLocked: "otra migración de esta base está en curso (o una se cortó a la mitad: 'arcasync migrate --unlock'); no se deshizo nada",

    // Each table and its columns, on SQLite (the scratch database of planMigrationDown).
    async schema(knex: Knex): Promise<Map<string, string[]>> {

        const tables = await knex.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'") as { name: string }[];
        const schema = new Map<string, string[]>();
        for (const { name } of tables) {
            const columns = await knex.raw(`select name from pragma_table_info('${name.replace(/'/g, "''")}')`) as { name: string }[];
            schema.set(name, columns.map((column) => column.name));
        }

        return schema;
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

// The same list for the knex CLI (knexfile.ts): its migrate:status names a pending migration
// by its `file`, which a name alone does not have (it printed `undefined`).
export const knexCliMigrationSource: Knex.MigrationSource<{ file: string }> = {
    getMigrations: async () => Object.keys(internals.migrations).map((file) => ({ file })),
    getMigrationName: (migration) => migration.file,
    getMigration: async (migration) => internals.migrations[migration.file]!
};

// Whether this database may be migrated (migration-guard.ts): checked before anything is
// written, knex's own tables included; another application's database throws
// ARCASYNC_FOREIGN_DATABASE naming a few of its tables.
export const admitDatabase = async (knex: Knex): Promise<Admission> => {

    await assertSupportedServer(knex);
    return admission(await databaseContents(knex), Object.keys(internals.migrations));
};

// Applies the migrations not yet applied; answers their names. Only on an empty database or
// arcasync's (admitDatabase). Another process migrating the same database is waited for (its
// migrations are then found applied); a lock still held after lockWaitMs is an error naming
// the way out (ARCASYNC_MIGRATION_LOCKED, errors.ts).
export const migrateLatest = async (knex: Knex, options: { lockWaitMs?: number } = {}): Promise<string[]> => {

    const waitMs = options.lockWaitMs ?? internals.lockWaitMs;
    const deadline = Date.now() + waitMs;
    let told = false;
    for (;;) {
        let err: unknown;
        try {
            if (await admitDatabase(knex) !== 'migrating') {
                const [, applied] = await knex.migrate.latest({ migrationSource }) as [number, string[]];
                return applied;
            }

            // Another process's first migration, half-way: waited for as its lock would be.
            err = { name: 'MigrationLocked' };
        }
        catch (failure) {
            err = failure;
        }

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
};

export interface MigrationState {
    name: string;
    // The batch it was applied in; null: pending.
    batch: number | null;
}

// Every migration of the service, applied (with its batch) or pending, read without writing:
// knex's own listing creates its tables first.
export const migrationStates = async (knex: Knex): Promise<MigrationState[]> => {

    await assertSupportedServer(knex);
    const contents = await databaseContents(knex);
    admission(contents, Object.keys(internals.migrations));
    const rows = contents.migrations ? await knex('knex_migrations').select('name', 'batch') as { name: string; batch: number | string }[] : [];
    const batches = new Map(rows.map((row) => [row.name, Number(row.batch)]));
    return Object.keys(internals.migrations).map((name) => ({ name, batch: batches.get(name) ?? null }));
};

export interface MigrationDown {
    name: string;
    // What undoing it drops, data and all: tables with their rows now, and table.column.
    tables: { name: string; rows: number }[];
    columns: string[];
}

// What undoing the last applied migration drops; null when none is applied. Found by doing it
// on a scratch in-memory SQLite database brought to the same migrations (each migration's down
// is the only list of what it drops), the rows counted on this one.
export const planMigrationDown = async (knex: Knex): Promise<MigrationDown | null> => {

    const states = await migrationStates(knex);
    const applied = states.filter((state) => state.batch !== null).map((state) => state.name);
    const name = applied.at(-1);
    if (!name) {
        return null;
    }

    // Its notices are no one's business: the operator reads what it found.
    const quiet = () => undefined;
    const scratch = connect('sqlite::memory:', {}, { warn: quiet, error: quiet, deprecate: quiet, debug: quiet });
    try {
        const source: Knex.MigrationSource<string> = { ...migrationSource, getMigrations: async () => applied };
        await scratch.migrate.latest({ migrationSource: source });
        const before = await internals.schema(scratch);
        await scratch.migrate.down({ migrationSource: source });
        const after = await internals.schema(scratch);
        const dropped = [...before.keys()].filter((table) => !after.has(table) && !table.startsWith('knex_'));
        const columns = [...after].flatMap(([table, now]) => (before.get(table) ?? []).filter((column) => !now.includes(column)).map((column) => `${table}.${column}`));
        const tables = [];
        for (const table of dropped) {
            const row = await knex(table).count({ rows: '*' }).first() as { rows: number | string } | undefined;
            tables.push({ name: table, rows: Number(row?.rows ?? 0) });
        }

        return { name, tables, columns };
    }
    finally {
        await scratch.destroy();
    }
};

// Undoes the last applied migration, only if it is still `expected` (the one planned and
// confirmed: another process may have migrated since). Answers its name.
export const migrateDown = async (knex: Knex, expected: string): Promise<string> => {

    const applied = (await migrationStates(knex)).filter((state) => state.batch !== null).map((state) => state.name);
    if (applied.at(-1) !== expected) {
        throw Object.assign(new Error(internals.downMoved(expected, applied.at(-1) ?? null)), { code: 'ARCASYNC_MIGRATION_MOVED' });
    }

    try {
        const [, undone] = await knex.migrate.down({ migrationSource }) as [number, string[]];
        return undone[0] ?? expected;
    }
    catch (err) {
        if (internals.locked(err)) {
            throw Object.assign(new Error(internals.downLocked), { code: 'ARCASYNC_MIGRATION_LOCKED' });
        }

        throw err;
    }
};

// `arcasync migrate --unlock`: frees the lock a migration that was cut short left held.
export const unlockMigrations = async (knex: Knex): Promise<void> => {

    await admitDatabase(knex);
    await knex.migrate.forceFreeMigrationsLock({ migrationSource });
};
