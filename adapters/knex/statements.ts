import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Knex } from 'knex';
import type { Dialect } from './connection.js';
import { dialectOf } from './connection.js';
import { preparedStatement } from './sqlite-prepared.js';
import { sqliteReader, writes } from './sqlite-reader.js';
import type { ReadMode, SqliteReader } from './sqlite-reader.js';

// Fixed SQL for the queries every request runs (token -> principal, the rate-limit UPDATE,
// the visible client, the list pages) and for the sync's bulk writes, sent straight to the
// driver on a connection taken from knex's own pool, or a transaction's (statements(trx)): no
// query building or compiling per request, and on SQLite each statement is prepared once per
// connection. Writes go through the pool, which keeps knex's rules (a transaction holding
// SQLite's connection is waited for, never joined); SQLite's reads outside a transaction have
// a connection and a thread of their own (sqlite-reader.ts). The SQL must be valid on both databases (the
// upsert, which is not, is built per dialect by upsert.ts): plain identifiers (columns
// qualified by their table's alias where a name is reserved in MySQL 8, like `system`), `?`
// placeholders, numbers and strings only.

export type Binding = string | number | null;

// `?, ?, ?` for an IN list of `count` values.
export const placeholders = (count: number): string => new Array(count).fill('?').join(', ');

// Fixed SQL whose text depends on a shape (a dialect, how many rows or values it takes), built
// once per shape for the first `max` shapes asked for: what every request or save runs is not
// rebuilt each time, and a caller that meets many shapes (batches of any size) keeps few.
export const sqlByShape = <Shape extends readonly (string | number)[]>(build: (...shape: Shape) => string, max = 64): ((...shape: Shape) => string) => {

    const built = new Map<string, string>();
    return (...shape) => {

        const key = shape.join(':');
        let sql = built.get(key);
        if (sql === undefined) {
            sql = build(...shape);
            if (built.size < max) {
                built.set(key, sql);
            }
        }

        return sql;
    };
};
export type Row = Record<string, unknown>;
export interface Written {
    changes: number;
    id: bigint;
    duplicates: number | null;
}

export interface Statements {
    dialect: Dialect;
    all(sql: string, bindings: readonly Binding[]): Promise<Row[]>;
    // The same rows as arrays of their columns in the SELECT's order: on the read path's
    // pages the drivers build an array much faster than an object keyed by column name, and
    // the repository maps each row to its record anyway.
    arrays(sql: string, bindings: readonly Binding[]): Promise<unknown[][]>;
    first(sql: string, bindings: readonly Binding[]): Promise<Row | undefined>;
    run(sql: string, bindings: readonly Binding[]): Promise<number>;     // rows affected
    // The same statement once per row of bindings, in order (rows affected, summed). On SQLite
    // one prepared statement run in a loop, the fastest way to write many rows there; on MySQL
    // one round trip per row, so callers send many rows in one statement instead.
    each(sql: string, rows: readonly (readonly Binding[])[]): Promise<number>;
    // A write and what the database said of it: rows affected; the insert id (on MySQL also
    // what LAST_INSERT_ID(expr) was given); and, for an insert of several rows, how many met a
    // row already there (an upsert's update), from MySQL's note "Records: N  Duplicates: D
    // Warnings: W", null when the database did not say (SQLite; MySQL for a single row).
    write(sql: string, bindings: readonly Binding[]): Promise<Written>;
}

// knex's better-sqlite3 connection: a Database.
type SqliteConnection = Pick<Database, 'prepare'>;

interface MysqlConnection {
    query(sql: string | { sql: string; rowsAsArray: boolean }, bindings: readonly Binding[], callback: (err: Error | null, result: unknown) => void): void;
}

interface PoolClient {
    acquireConnection(): Promise<unknown>;
    releaseConnection(connection: unknown): Promise<unknown>;
}

const internals = {
    // Per connection, for every Statements over it: a transaction's (statements(trx)) reuses
    // what the pool's prepared on the same connection.
    prepared: new WeakMap<SqliteConnection, Map<string, Statement>>(),

    // `sql` prepared once per connection (sqlite-prepared.ts).
    prepare(connection: SqliteConnection, sql: string, arrays = false): Statement {

        let cache = internals.prepared.get(connection);
        if (!cache) {
            cache = new Map();
            internals.prepared.set(connection, cache);
        }

        return preparedStatement(cache, connection, sql, arrays);
    },

    // Writes, and reads in a transaction, on the pool's connection; other reads on the
    // reads' own connection, in a thread of its own (sqlite-reader.ts), when there is one.
    sqlite(client: PoolClient, reader: () => SqliteReader | null): Statements {

        const use = async <T>(sql: string, fn: (statement: Statement) => T, arrays = false): Promise<T> => {

            const connection = await client.acquireConnection() as SqliteConnection;
            try {
                return fn(internals.prepare(connection, sql, arrays));
            }
            finally {
                await client.releaseConnection(connection);
            }
        };

        // A statement that writes (an UPDATE … RETURNING read with first()) goes to the pool.
        const read = async <T>(sql: string, bindings: readonly Binding[], mode: ReadMode, fn: (statement: Statement) => T): Promise<T> => {

            const thread = reader();
            const rows = thread ? await thread.read(sql, bindings, mode) : writes;
            return rows === writes ? await use(sql, fn, mode === 'arrays') : rows as T;
        };

        return {
            dialect: 'sqlite',
            all: (sql, bindings) => read(sql, bindings, 'all', (statement) => statement.all(...bindings)),
            arrays: (sql, bindings) => read(sql, bindings, 'arrays', (statement) => statement.all(...bindings) as unknown as unknown[][]),
            first: (sql, bindings) => read(sql, bindings, 'get', (statement) => statement.get(...bindings)),
            run: (sql, bindings) => use(sql, (statement) => statement.run(...bindings).changes),
            each: (sql, rows) => use(sql, (statement) => rows.reduce((changes, bindings) => changes + statement.run(...bindings).changes, 0)),
            write: (sql, bindings) => use(sql, (statement) => {

                const result = statement.run(...bindings);
                return { changes: result.changes, id: BigInt(result.lastInsertRowid), duplicates: null };
            })
        };
    },

    send: (connection: MysqlConnection, sql: string | { sql: string; rowsAsArray: boolean }, bindings: readonly Binding[]): Promise<unknown> => new Promise((resolve, reject) => connection.query(sql, bindings, (err, result) => (err ? reject(err) : resolve(result)))),

    // Over the pool (each statement takes a connection and gives it back), or over the one
    // connection a transaction holds.
    mysql(client: PoolClient | MysqlConnection): Statements {

        const query = async (sql: string | { sql: string; rowsAsArray: boolean }, bindings: readonly Binding[]): Promise<unknown> => {

            if (!('acquireConnection' in client)) {
                return await internals.send(client, sql, bindings);
            }

            const connection = await client.acquireConnection() as MysqlConnection;
            try {
                return await internals.send(connection, sql, bindings);
            }
            finally {
                await client.releaseConnection(connection);
            }
        };

        const run = async (sql: string, bindings: readonly Binding[]): Promise<number> => (await query(sql, bindings) as { affectedRows: number }).affectedRows;
        const duplicates = (info: string | undefined): number | null => {

            const match = /^Records: (\d+) +Duplicates: (\d+) +Warnings: \d+$/.exec((info ?? '').trim());
            return match ? Number(match[2]) : null;
        };

        return {
            dialect: 'mysql',
            all: async (sql, bindings) => await query(sql, bindings) as Row[],
            arrays: async (sql, bindings) => await query({ sql, rowsAsArray: true }, bindings) as unknown[][],
            first: async (sql, bindings) => (await query(sql, bindings) as Row[])[0],
            run,
            async each(sql, rows) {

                let changes = 0;
                for (const bindings of rows) {
                    changes += await run(sql, bindings);
                }

                return changes;
            },

            async write(sql, bindings) {

                // mysql2 hands an id past 2^53 as a string.
                const result = await query(sql, bindings) as { affectedRows: number; insertId: number | string; info?: string };
                return { changes: result.affectedRows, id: BigInt(result.insertId), duplicates: duplicates(result.info) };
            }
        };
    }
};

export const statements = (knex: Knex): Statements => {

    const client = knex.client as unknown as PoolClient;
    return dialectOf(knex) === 'sqlite' ? internals.sqlite(client, () => sqliteReader(knex)) : internals.mysql(client);
};

// A target of fixed SQL: a knex instance or transaction, or the Statements of one already.
export const statementsOf = (target: Knex | Statements): Statements => (typeof target === 'function' ? statements(target) : target);

// One transaction of fixed SQL, for the sync's writes. On MySQL it holds one connection of the
// pool and sends SET TRANSACTION, BEGIN, the statements and COMMIT (ROLLBACK on any error)
// straight to the driver: under a busy event loop (a sync parsing the authority's answers;
// measured with 4 ms of CPU taken every 10 ms) a save of 85 invoices through knex.transaction
// took about a quarter longer than the same statements on a bare connection. `isolation` is
// MySQL's level for this transaction only (SET TRANSACTION without SESSION), so the pooled
// connection goes back as it was. SQLite: knex.transaction (one writer anyway).
export const statementsTransaction = async <T>(knex: Knex, isolation: 'read committed', write: (sql: Statements) => Promise<T>): Promise<T> => {

    if (dialectOf(knex) === 'sqlite') {
        return await knex.transaction((trx) => write(statements(trx)));
    }

    const client = knex.client as unknown as PoolClient;
    const connection = await client.acquireConnection() as MysqlConnection;
    try {
        await internals.send(connection, `SET TRANSACTION ISOLATION LEVEL ${isolation.toUpperCase()}`, []);
        await internals.send(connection, 'BEGIN', []);
        let result: T;
        try {
            result = await write(internals.mysql(connection));
            await internals.send(connection, 'COMMIT', []);
        }
        catch (err) {
            // A deadlock has already rolled the transaction back; a lost connection is dropped
            // by the pool's validation. Either way the write's own error is the one to report.
            await internals.send(connection, 'ROLLBACK', []).catch(() => undefined);
            throw err;
        }

        return result;
    }
    finally {
        await client.releaseConnection(connection);
    }
};
