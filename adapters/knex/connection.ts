import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { retriedOnLockConflict } from './lock-retries.js';
import { closeMysqlWriter } from './fast/mysql-writer.js';
import { closeSqliteReader } from './fast/sqlite-reader.js';

// One knex instance from DATABASE_URL: `sqlite:PATH` (embedded default, better-sqlite3) or
// `mysql://user:pass@host:port/db` (MySQL 8 / MariaDB 10.6+ through mysql2). Dialect
// differences stay inside adapters/knex.

export type Dialect = 'sqlite' | 'mysql';

export interface PoolOptions {
    max?: number;
    // SQLite: how long a write waits for another process's lock before SQLITE_BUSY.
    busyTimeoutMs?: number;
}

// A serving process's: its writes (rate-limit counters, throttles, OAuth entries) run on the
// event loop every request shares, so a lock held by another process (a backup, the sqlite3
// shell, a long sync save) is answered 503 with Retry-After after this long instead of
// freezing every request for seconds.
export const servingBusyTimeoutMs = 200;

export const dialectOf = (knex: Knex): Dialect => (knex.client.config.client === 'mysql2' ? 'mysql' : 'sqlite');

const internals = {

    sqlite(path: string, pool: PoolOptions): Knex.Config {

        if (path !== ':memory:') {
            mkdirSync(dirname(path), { recursive: true });
        }

        return {
            client: 'better-sqlite3',
            connection: { filename: path },
            useNullAsDefault: true,
            pool: {
                min: 1,
                max: pool.max ?? 1,
                // WAL lets the server, workers and the CLI share the file; NORMAL sync is safe
                // under WAL and keeps per-request counter writes cheap.
                afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {

                    conn.pragma('journal_mode = WAL');
                    conn.pragma('synchronous = NORMAL');
                    conn.pragma('foreign_keys = ON');
                    // better-sqlite3 waits for another process's lock on the calling thread.
                    conn.pragma(`busy_timeout = ${pool.busyTimeoutMs ?? 10_000}`);
                    done(null, conn);
                }
            }
        };
    },

    mysql(url: URL, pool: { max?: number }): Knex.Config {

        return {
            client: 'mysql2',
            connection: {
                host: url.hostname,
                port: url.port ? Number(url.port) : 3306,
                user: decodeURIComponent(url.username),
                password: decodeURIComponent(url.password),
                database: decodeURIComponent(url.pathname.replace(/^\//, '')),
                charset: 'utf8mb4',
                timezone: 'Z',
                decimalNumbers: true,       // DECIMAL as JS numbers, as the API returns them
                supportBigNumbers: true,
                bigNumberStrings: false
            },
            pool: { min: 0, max: pool.max ?? 10 }
        };
    }
};

const knexConfig = (databaseUrl: string, pool: PoolOptions = {}): Knex.Config => {

    if (databaseUrl.startsWith('sqlite:')) {
        return internals.sqlite(databaseUrl.slice('sqlite:'.length), pool);
    }

    if (databaseUrl.startsWith('mysql:') || databaseUrl.startsWith('mariadb:')) {
        return internals.mysql(new URL(databaseUrl), pool);
    }

    throw new Error(`DATABASE_URL no reconocida: use sqlite:RUTA o mysql://usuario:clave@host:3306/base`);
};

// What a MySQL server must be to hold arcasync: MySQL 8.0.4 or later, MariaDB 10.6 or later.
// Nothing older is tested, and those older series are past their end of life. The error that
// names the server
// found, or null. `version` is what SELECT VERSION() says: 8.0.36, 10.11.6-MariaDB-0+deb12u1.
export const unsupportedServer = (version: string): string | null => {

    const [major = 0, minor = 0, patch = 0] = (/^(\d+)\.(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
    const mariadb = /mariadb/i.test(version);
    const at = major * 1e6 + minor * 1e3 + patch;
    const supported = mariadb ? at >= 10_006_000 : at >= 8_000_004;
    return supported ? null : `el servidor de base de datos es ${mariadb ? 'MariaDB' : 'MySQL'} ${version}: arcasync requiere MySQL 8.0.4 o posterior, o MariaDB 10.6 o posterior`;
};

// The knex CLI's configuration (knexfile.ts): the same connection and migration list as the
// service, and on MySQL the server checked as each connection opens, since the CLI migrates
// without migrateLatest's check.
export const knexCliConfig = (databaseUrl: string, migrations: Knex.MigratorConfig): Knex.Config => {

    const config = knexConfig(databaseUrl);
    if (config.client !== 'mysql2') {
        return { ...config, migrations };
    }

    type Connection = { query(sql: string, done: (err: Error | null, rows: { version: string }[]) => void): void };
    const afterCreate = (conn: Connection, done: (err: Error | null, conn: Connection) => void) => {

        conn.query('select version() as version', (err, rows) => {

            const refused = err ? null : unsupportedServer(String(rows[0]?.version ?? ''));
            done(err ?? (refused ? Object.assign(new Error(refused), { code: 'ARCASYNC_UNSUPPORTED_SERVER' }) : null), conn);
        });
    };
    return { ...config, pool: { ...config.pool, afterCreate }, migrations };
};

// Checked before migrating (migrations/index.ts): an older server would fail later, at a
// sync's first save.
export const assertSupportedServer = async (knex: Knex): Promise<void> => {

    if (dialectOf(knex) === 'mysql') {
        const [rows] = await knex.raw('select version() as version') as [{ version: string }[]];
        const refused = unsupportedServer(String(rows[0]?.version ?? ''));
        if (refused) {
            throw Object.assign(new Error(refused), { code: 'ARCASYNC_UNSUPPORTED_SERVER' });
        }
    }
};

// Where knex's own warnings go (a pool or migration notice): the process's logger, as JSON
// lines, never knex's default console lines.
export type DatabaseLog = NonNullable<Knex.Config['log']>;

export const connect = (databaseUrl: string, pool: PoolOptions = {}, log?: DatabaseLog): Knex => knexFactory({
    ...knexConfig(databaseUrl, pool),
    ...(log ? { log } : {})
});

// The pool and, on SQLite, the reads' own connection (sqlite-reader.ts), on MySQL the sync
// writer's (mysql-writer.ts).
export const closeDatabase = async (knex: Knex): Promise<void> => {

    closeSqliteReader(knex);
    await closeMysqlWriter(knex);
    await knex.destroy();
};

// The transaction that writes one client's synchronized rows (a replace or an upsert, after
// raising the client's data version, which queues any other writer of that client). On MySQL
// it runs at READ COMMITTED: no gap locks, so writers of neighbouring clients never deadlock
// on the boundary between their rows (REPEATABLE READ's DELETE and INSERT ... SELECT lock
// those gaps). SQLite has one writer at a time anyway. Writes of fixed SQL take the same
// level through statementsTransaction (statements.ts). A transaction that loses to another
// over locks (a deletion of the client, another writer) runs again (lock-retries.ts).
export const clientDataIsolation = 'read committed';

export const clientDataTransaction = <T>(knex: Knex, write: (trx: Knex.Transaction) => Promise<T>): Promise<T> => retriedOnLockConflict(
    () => (dialectOf(knex) === 'mysql' ? knex.transaction(write, { isolationLevel: clientDataIsolation }) : knex.transaction(write))
);

// A query put on one connection (a transaction's, or one held for a named lock).
export type OnConnection = <Q extends Knex.QueryBuilder | Knex.Raw>(query: Q) => Q;

// SQLite: a transaction that takes the write lock as it begins (BEGIN IMMEDIATE), so that it
// waits out busy_timeout for another process's writer like any single write. knex's BEGIN is
// deferred, and a transaction that reads before it writes cannot wait: its first write while
// another process holds the lock, or after one wrote since its read, is SQLITE_BUSY at once
// ("database is locked"). For read-then-write transactions that several processes run (two
// workers' schedulers, a worker and cron).
export const immediateTransaction = async <T>(knex: Knex, work: (on: OnConnection) => Promise<T>): Promise<T> => {

    const connection = await knex.client.acquireConnection();
    const on: OnConnection = (query) => query.connection(connection) as typeof query;
    try {
        await on(knex.raw('BEGIN IMMEDIATE'));
        try {
            const result = await work(on);
            await on(knex.raw('COMMIT'));
            return result;
        }
        catch (err) {
            await on(knex.raw('ROLLBACK')).catch(() => undefined);
            throw err;
        }
    }
    finally {
        await knex.client.releaseConnection(connection);
    }
};
