import { existsSync } from 'node:fs';
import type { Knex } from 'knex';
import type { MigrationDown, MigrationState } from '../adapters/knex/index.js';
import { admitDatabase, closeDatabase, connect, migrateDown, migrateLatest, migrationStates, planMigrationDown, unlockMigrations } from '../adapters/knex/index.js';
import type { Config } from './config.js';
import { databaseLabel, sqliteFileOf } from './config.js';
import { databaseFailureCause } from '../adapters/knex/errors.js';
import { databaseLog } from './logger.js';
import { operatorMessages } from './messages.js';

// The database as commands see it before (or without) an app: migrations, and what a failure
// to reach it means, in the words of core/domain/messages.ts.

export { databaseFailureCause };
export { servingBusyTimeoutMs } from '../adapters/knex/connection.js';
export type { MigrationDown, MigrationState };

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'logLevel'>;

const internals = {
    async on<T>(config: DatabaseConfig, work: (knex: Knex) => Promise<T>): Promise<T> {

        const knex = connect(config.databaseUrl, {}, databaseLog(config.logLevel));
        try {
            return await work(knex);
        }
        finally {
            await closeDatabase(knex);
        }
    },

    // The knex CLI's commands that undo migrations: a whole batch at once (on a normal
    // installation every migration is batch 1, so every table), with no question asked.
    knexUndo: /^migrate:(rollback|down)$/,
    // The ones that may create the database, as `arcasync migrate` does.
    knexCreate: /^migrate:(latest|up|to|before)$/
};

// Applies the migrations not yet applied; answers their names.
export const migrateDatabase = (config: DatabaseConfig): Promise<string[]> => internals.on(config, (knex) => migrateLatest(knex));

// Frees the migration lock a migration cut short left held (`arcasync migrate --unlock`).
export const unlockDatabaseMigrations = (config: DatabaseConfig): Promise<void> => internals.on(config, unlockMigrations);

// `arcasync migrate --status`: every migration, applied or pending.
export const databaseMigrationStates = (config: DatabaseConfig): Promise<MigrationState[]> => internals.on(config, migrationStates);

// `arcasync migrate --down`: what undoing the last migration drops (null: none applied), then
// undoing it once confirmed.
export const planDatabaseDown = (config: DatabaseConfig): Promise<MigrationDown | null> => internals.on(config, planMigrationDown);

export const undoDatabaseMigration = (config: DatabaseConfig, expected: string): Promise<string> => internals.on(config, (knex) => migrateDown(knex, expected));

// What the knex CLI (knexfile.ts, `npm run knex -- …`) refuses before it connects, in one
// Spanish line, or null: undoing migrations (arcasync migrate --down asks, and undoes one),
// a missing SQLite file for anything but migrating (knex would create it, empty), and another
// application's database.
export const knexCliRefusal = async (config: DatabaseConfig, argv: readonly string[]): Promise<string | null> => {

    const command = argv.find((arg) => arg.startsWith('migrate:') || arg.startsWith('seed:')) ?? '';
    if (internals.knexUndo.test(command)) {
        return operatorMessages.knexUndo(command);
    }

    const file = sqliteFileOf(config.databaseUrl);
    if (file && !existsSync(file)) {
        return internals.knexCreate.test(command) ? null : operatorMessages.noDatabase(file);
    }

    try {
        await internals.on(config, admitDatabase);
        return null;
    }
    catch (err) {
        const cause = databaseFailureCause(err);
        if (!cause) {
            throw err;
        }

        return operatorMessages.databaseUnusable(databaseLabel(config.databaseUrl), cause);
    }
};
