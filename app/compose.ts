import { argentineHolidays } from '../adapters/holidays/argentina.js';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Knex } from 'knex';
import { admitDatabase, closeDatabase, connect, dialectOf, knexRepositories, migrateLatest } from '../adapters/knex/index.js';
import type { PoolOptions } from '../adapters/knex/connection.js';
import { memoryReadCache } from '../adapters/memory/read-cache.js';
import type { ArcaClientOptions } from '../adapters/authority/arca/index.js';
import type { Clock, Ports } from '../core/ports/index.js';
import type { HostGate } from '../core/ports/fleet.js';
import { systemClock } from '../core/ports/clock.js';
import { withSystemWrites } from '../core/use-cases/sync/system-writes.js';
import type { ConfiguredAuthority, Relations } from './authority.js';
import { createAuthorityClient } from './authority.js';
import { hostGate } from '../adapters/knex/fleet-state.js';
import type { Config } from './config.js';
import { sqliteFileOf } from './config.js';
import { databaseLog } from './logger.js';
import { loadKeyring, secretBoxFor } from './secret-keys.js';
import { operatorMessages } from './messages.js';
import { createKeyIdentity, digestStoredKeys } from '../core/use-cases/key-identity.js';

// The composition root: adapters built from configuration, handed to whichever front end
// runs (REST server, MCP server, CLI).

export interface App {
    config: Config;
    ports: Ports;
    // One authority client per app (with AUTHORITY=simulated and no AUTHORITY_URL, one
    // simulated authority in this process, started at the first login), shared by its workers.
    authority: ConfiguredAuthority;
    close(): Promise<void>;
}

// Who this process is in the database's leases and holds.
export const processOwner = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export interface ComposeOptions {
    clock?: Clock;
    migrate?: boolean;
    // busyTimeoutMs: a serving process's, short (servingBusyTimeoutMs); migrating waits as long as usual.
    pool?: PoolOptions;
    // false: a missing SQLite file is an error naming it; nothing (file, folder, key) is created.
    create?: boolean;
    // For a simulated authority started in this process (the demo's portfolio).
    authorityRelations?: Relations;
}

const internals = {
    migrated: new Map<string, Promise<unknown>>(),
    // Each app's own connection, for testOnlyDatabaseOf.
    databases: new WeakMap<App, Knex>(),
    // Each app's host gate, for its other authority clients (authorityClientOf).
    gates: new WeakMap<App, HostGate>(),
    // Once per database and process: apps composed side by side in one process (a command run
    // in-process next to a server) would otherwise race for SQLite's migration lock.
    migrate(databaseUrl: string, knex: Knex): Promise<unknown> {

        let migration = internals.migrated.get(databaseUrl);
        if (!migration) {
            migration = migrateLatest(knex);
            internals.migrated.set(databaseUrl, migration);
            migration.catch(() => internals.migrated.delete(databaseUrl));
        }

        return migration;
    }
};

// Every command but `migrate` and the demo works on a database that exists: a SQLite file
// missing where DATABASE_URL (or the default, under the working directory) says is an error
// that names it, before anything (file, folder, key) is created.
export const assertDatabaseExists = (config: Pick<Config, 'databaseUrl'>): void => {

    const file = sqliteFileOf(config.databaseUrl);
    if (file && !existsSync(file)) {
        throw new Error(operatorMessages.noDatabase(file));
    }
};

export const composeApp = async (config: Config, options: ComposeOptions = {}): Promise<App> => {

    if (options.create === false) {
        assertDatabaseExists(config);
    }

    const secretBox = secretBoxFor(loadKeyring(config));
    const knex = connect(config.databaseUrl, options.pool, databaseLog(config.logLevel));
    if (options.migrate !== false) {
        // Before the pool's first connection, which already writes to a SQLite file (WAL mode):
        // another application's database is refused untouched.
        await admitDatabase(knex).catch(async (err: unknown) => {

            await knex.destroy();
            throw err;
        });
        const shortWait = options.pool?.busyTimeoutMs !== undefined && dialectOf(knex) === 'sqlite';
        if (shortWait) {
            await knex.raw('pragma busy_timeout = 10000');
        }

        await internals.migrate(config.databaseUrl, knex);
        if (shortWait) {
            await knex.raw(`pragma busy_timeout = ${options.pool!.busyTimeoutMs!}`);
        }
    }

    const repositories = knexRepositories(knex, processOwner());
    const ports: Ports = {
        ...withSystemWrites(repositories),
        rateLimits: config.rateLimits,
        readCache: memoryReadCache({ maxBytes: config.readCacheBytes }),
        clock: options.clock ?? systemClock,
        secretBox,
        keyIdentity: createKeyIdentity({ oauthStore: repositories.oauthStore, secretBox }),
        holidays: argentineHolidays
    };
    if (options.migrate !== false) {
        // Keys stored before identities were kept; without the secret key they wait for a
        // process that has it (the sync refuses a key it cannot open anyway).
        await digestStoredKeys(ports).catch(() => 0);
    }

    // Every request the authority client sends honours the fleet's blocks and per-host caps.
    const gate = hostGate(knex, { perHost: config.fleet.hostInFlight, slotLeaseMs: 2 * 60_000, owner: processOwner() });
    const authority = createAuthorityClient(config, { hostGate: gate, blockWaitMs: config.fleet.blockWaitMs }, options.authorityRelations);
    const app: App = {
        config,
        ports,
        authority,
        async close() {

            await authority.close();
            await closeDatabase(knex);
        }
    };
    internals.databases.set(app, knex);
    internals.gates.set(app, gate);
    return app;
};

// Another authority client of the app (the probe's, which prints each exchange): its requests
// honour the fleet's blocks and per-host caps like the app's own (docs/scaling.md).
export const authorityClientOf = (app: App, overrides: ArcaClientOptions): ConfiguredAuthority => createAuthorityClient(
    app.config,
    { hostGate: internals.gates.get(app)!, blockWaitMs: app.config.fleet.blockWaitMs, ...overrides }
);

// For tests only (test/support/app.ts): the app's own connection, to set rows up and read what
// a request stored. Everything the service does goes through `ports`; a test's second
// connection would meet SQLite's single writer busy where the app's pool serializes.
export const testOnlyDatabaseOf = (app: App): Knex => internals.databases.get(app)!;
