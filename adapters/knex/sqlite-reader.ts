import Database from 'better-sqlite3';
import type { Knex } from 'knex';

// On SQLite, the fixed-SQL reads made outside a transaction (statements.ts) go to a
// connection of their own, used synchronously. The pool has one connection, the only writer:
// through it, every read of the API took a turn of the pool (promises, a pending operation
// with its timer) and waited whole behind a sync's write transaction. Under WAL a second
// connection reads the last committed state at each statement, whatever the writer holds
// open, and never writes (query_only). An in-memory database has no second connection.

export interface SqliteReader {
    prepare(sql: string): unknown;
    close(): void;
}

const internals = {
    readers: new WeakMap<object, SqliteReader | null>()
};

// The reader of a knex instance (not of a transaction: those read their own writes), opened
// on its first read.
export const sqliteReader = (knex: Knex): SqliteReader | null => {

    if (knex.isTransaction) {
        return null;
    }

    let reader = internals.readers.get(knex.client as object);
    if (reader === undefined) {
        const filename = (knex.client.config.connection as { filename: string }).filename;
        if (filename === ':memory:') {
            reader = null;
        }
        else {
            const db = new Database(filename);
            db.pragma('query_only = ON');
            db.pragma('busy_timeout = 10000');
            reader = db;
        }

        internals.readers.set(knex.client as object, reader);
    }

    return reader;
};

export const closeSqliteReader = (knex: Knex): void => {

    internals.readers.get(knex.client as object)?.close();
    internals.readers.delete(knex.client as object);
};
