import { connect, migrateLatest, unlockMigrations } from '../adapters/knex/index.js';
import type { Config } from './config.js';
import { databaseLog } from './logger.js';

// The database as commands see it before (or without) an app: migrations, and what a failure
// to reach it means, in the words of core/domain/messages.ts.

export { databaseFailureCause } from '../adapters/knex/errors.js';
export { servingBusyTimeoutMs } from '../adapters/knex/connection.js';

// Applies the migrations not yet applied; answers their names.
export const migrateDatabase = async (config: Pick<Config, 'databaseUrl' | 'logLevel'>): Promise<string[]> => {

    const knex = connect(config.databaseUrl, {}, databaseLog(config.logLevel));
    try {
        return await migrateLatest(knex);
    }
    finally {
        await knex.destroy();
    }
};

// Frees the migration lock a migration cut short left held (`arcasync migrate --unlock`).
export const unlockDatabaseMigrations = async (config: Pick<Config, 'databaseUrl' | 'logLevel'>): Promise<void> => {

    const knex = connect(config.databaseUrl, {}, databaseLog(config.logLevel));
    try {
        await unlockMigrations(knex);
    }
    finally {
        await knex.destroy();
    }
};
