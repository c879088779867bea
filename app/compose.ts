import type { Knex } from 'knex';
import { connect, knexRepositories, migrateLatest } from '../adapters/knex/index.js';
import { memoryReadCache } from '../adapters/memory/read-cache.js';
import type { Clock, Ports } from '../core/ports/index.js';
import { systemClock } from '../core/ports/clock.js';
import type { Config } from './config.js';
import { loadKeyring, secretBoxFor } from './secret-keys.js';

// The composition root: adapters built from configuration, handed to whichever front end
// runs (REST server, MCP server, CLI).

export interface App {
    config: Config;
    knex: Knex;
    ports: Ports;
    close(): Promise<void>;
}

export interface ComposeOptions {
    clock?: Clock;
    migrate?: boolean;
    pool?: { max?: number };
}

export const composeApp = async (config: Config, options: ComposeOptions = {}): Promise<App> => {

    const secretBox = secretBoxFor(loadKeyring(config));
    const knex = connect(config.databaseUrl, options.pool);
    if (options.migrate !== false) {
        await migrateLatest(knex);
    }

    const ports: Ports = {
        ...knexRepositories(knex),
        rateLimits: config.rateLimits,
        readCache: memoryReadCache({ maxBytes: config.readCacheBytes }),
        clock: options.clock ?? systemClock,
        secretBox
    };

    return {
        config,
        knex,
        ports,
        close: () => knex.destroy()
    };
};
