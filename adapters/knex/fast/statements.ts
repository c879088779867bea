// Fast path: fixed SQL straight to the driver. Earns it: invoices' saves a quarter less CPU on
// MariaDB and 7x faster on SQLite than the builder's 400-row inserts (bbb30ab); the SQLite
// rate-limit UPDATE of one turn took the authenticated hit from ~160 to ~105 µs of CPU (496f19d).
// Measure: npm run bench:sync (DATABASE_URL=mysql://… for MariaDB); npm run bench:api (against bbb30ab^).
// Not measured again as a whole (no cheap switch of every statement back to the builder); the
// paths that use it for speed carry their own figures (session-user.ts, health-reads.ts).

import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Knex } from 'knex';
import type { Dialect } from '../connection.js';
import { dialectOf } from '../connection.js';
import { retriedOnLockConflict } from '../lock-retries.js';
import { preparedStatement } from './sqlite-prepared.js';
import type { ValueRow } from './value-rows.js';
import { mysqlWriterConnection } from './mysql-writer.js';
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
// placeholders, numbers, strings and Buffers only (rows of values on MySQL only).

// A Buffer is sent as bytes. Rows (MySQL only) are written as `(…), (…)` for an
// INSERT … VALUES ? (value-rows.ts).
export type Binding = string | number | null | Buffer | readonly ValueRow[];

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
type Row = Record<string, unknown>;
interface Written {
    changes: number;
    id: bigint;
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
    // what LAST_INSERT_ID(expr) was given).
    write(sql: string, bindings: readonly Binding[]): Promise<Written>;
    // Writes in order, each what write() says. In a MySQL transaction (statementsTransaction)
    // all in one round trip; elsewhere one after another.
    batch(steps: readonly Step[]): Promise<Written[]>;
}

// A statement and its values.
export interface Step {
    sql: string;
    bindings: readonly Binding[];
}

// A transaction's statements, and its last writes sent with its COMMIT (on MySQL in the same
// round trip). Nothing may be sent after them.
export interface TransactionStatements extends Statements {
    commitWith(steps: readonly Step[]): Promise<Written[]>;
}

// One query of `sqls` joined (several only on a connection that takes them) with all their
// values, and each statement's result in order.
type MysqlExchange = (sqls: readonly string[], bindings: readonly Binding[], rowsAsArray?: boolean) => Promise<unknown[]>;

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

        const write: Statements['write'] = (sql, bindings) => use(sql, (statement) => {

            const result = statement.run(...bindings);
            return { changes: result.changes, id: BigInt(result.lastInsertRowid) };
        });

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
            write,
            batch: (steps) => internals.oneByOne(write, steps)
        };
    },

    // Steps sent one after another, each by write().
    async oneByOne(write: Statements['write'], steps: readonly Step[]): Promise<Written[]> {

        const results: Written[] = [];
        for (const step of steps) {
            results.push(await write(step.sql, step.bindings));
        }

        return results;
    },

    // Steps as one query: their SQL in order and all their values.
    joined: (steps: readonly Step[]): [string[], Binding[]] => [steps.map((step) => step.sql), steps.flatMap((step) => step.bindings)],

    // What MySQL said of a write (Written). mysql2 hands an id past 2^53 as a string.
    written(result: unknown): Written {

        const header = result as { affectedRows: number; insertId: number | string };
        return { changes: header.affectedRows, id: BigInt(header.insertId) };
    },

    send: (
        connection: MysqlConnection,
        sql: string | { sql: string; rowsAsArray: boolean },
        bindings: readonly Binding[]
    ): Promise<unknown> => new Promise((resolve, reject) => connection.query(sql, bindings, (err, result) => (err ? reject(err) : resolve(result)))),

    // Statements over an exchange: one query of `sqls` (several only where the connection
    // takes them, `multi`) and each statement's result, in order.
    mysql(exchange: MysqlExchange, multi: boolean): Statements {

        const one = async (
            sql: string,
            bindings: readonly Binding[],
            rowsAsArray = false
        ): Promise<unknown> => (await exchange([sql], bindings, rowsAsArray))[0];
        const run = async (sql: string, bindings: readonly Binding[]): Promise<number> => (await one(sql, bindings) as { affectedRows: number }).affectedRows;
        const write: Statements['write'] = async (sql, bindings) => internals.written(await one(sql, bindings));
        return {
            dialect: 'mysql',
            all: async (sql, bindings) => await one(sql, bindings) as Row[],
            arrays: async (sql, bindings) => await one(sql, bindings, true) as unknown[][],
            first: async (sql, bindings) => (await one(sql, bindings) as Row[])[0],
            run,
            async each(sql, rows) {

                let changes = 0;
                for (const bindings of rows) {
                    changes += await run(sql, bindings);
                }

                return changes;
            },

            write,
            batch: async (steps) => (multi ? (await exchange(...internals.joined(steps))).map(internals.written) : await internals.oneByOne(write, steps))
        };
    },

    // Over knex's pool: each statement takes a connection and gives it back.
    mysqlPool: (client: PoolClient): Statements => internals.mysql(async ([sql], bindings, rowsAsArray = false) => {

        const connection = await client.acquireConnection() as MysqlConnection;
        try {
            return [await internals.send(connection, { sql: sql!, rowsAsArray }, bindings)];
        }
        finally {
            await client.releaseConnection(connection);
        }
    }, false),

    // A MySQL transaction on one of the writer's connections (mysql-writer.ts): SET TRANSACTION
    // and BEGIN go with its first statements, COMMIT with its last (commitWith) or alone.
    async mysqlTransaction<T>(
        connection: MysqlConnection,
        isolation: string,
        write: (sql: TransactionStatements) => Promise<T>,
        discard: () => void
    ): Promise<T> {

        const state = { begun: false, committed: false };
        const exchange = async (sqls: readonly string[], bindings: readonly Binding[], rowsAsArray = false, commit = false): Promise<unknown[]> => {

            if (state.committed) {
                throw new Error('la transacción ya terminó');
            }

            const opening = state.begun ? [] : [`SET TRANSACTION ISOLATION LEVEL ${isolation.toUpperCase()}`, 'BEGIN'];
            const all = [...opening, ...sqls, ...commit ? ['COMMIT'] : []];
            state.begun = true;
            const result = await internals.send(connection, { sql: all.join('; '), rowsAsArray }, bindings);
            const results = all.length === 1 ? [result] : result as unknown[];
            state.committed = commit;
            return results.slice(opening.length, opening.length + sqls.length);
        };

        const sql = internals.mysql(exchange, true);
        const commitWith: TransactionStatements['commitWith'] = async (steps) => (await exchange(
            ...internals.joined(steps),
            false,
            true
        )).map(internals.written);

        try {
            const result = await write({ ...sql, commitWith });
            if (state.begun && !state.committed) {
                await exchange([], [], false, true);
            }

            return result;
        }
        catch (err) {
            // A deadlock has already rolled the transaction back; a connection that cannot
            // roll back is not given back to the pool. Either way the write's own error is the
            // one to report.
            if (state.begun && !state.committed) {
                await internals.send(connection, 'ROLLBACK', []).catch(discard);
            }

            throw err;
        }
    }
};

export const statements = (knex: Knex): Statements => {

    const client = knex.client as unknown as PoolClient;
    return dialectOf(knex) === 'sqlite' ? internals.sqlite(client, () => sqliteReader(knex)) : internals.mysqlPool(client);
};

// A target of fixed SQL: a knex instance or transaction, or the Statements of one already.
export const statementsOf = (target: Knex | Statements): Statements => (typeof target === 'function' ? statements(target) : target);

// One transaction of fixed SQL, for the sync's writes. On MySQL it holds one of the writer's
// connections (mysql-writer.ts) and sends SET TRANSACTION, BEGIN, the statements and COMMIT
// (ROLLBACK on any error) straight to the driver, as few queries as the callback allows:
// under a busy event loop (a sync parsing the authority's answers) every round trip waits for
// the loop to read its reply. `isolation` is MySQL's level for this transaction only (SET
// TRANSACTION without SESSION), so the connection goes back as it was. SQLite:
// knex.transaction (one writer anyway), commitWith being the last writes before its COMMIT.
// One that loses to another over locks runs again, `write` and all (lock-retries.ts).
export const statementsTransaction = <T>(knex: Knex, isolation: 'read committed', write: (sql: TransactionStatements) => Promise<T>): Promise<T> => retriedOnLockConflict(async () => {

    if (dialectOf(knex) === 'sqlite') {
        return await knex.transaction((trx) => {

            const sql = statements(trx);
            return write({ ...sql, commitWith: sql.batch });
        });
    }

    const connection = await mysqlWriterConnection(knex);
    try {
        return await internals.mysqlTransaction(connection as unknown as MysqlConnection, isolation, write, () => connection.destroy());
    }
    finally {
        connection.release();
    }
});
