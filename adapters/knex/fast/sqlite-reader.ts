// Kept for what it does, not for speed: SQLite's reads on a connection and thread of their own,
// so a read never waits behind a sync's write transaction (test/sqlite-reader.test.ts). Its
// speed no longer shows: 2026-11-28 on d097129, npm run bench:api -- --db sqlite --workload
// endpoints --read-cache-mb 0, 3 rounds with and without A B (machine loaded 10-14 on 2 cores,
// the ceiling swinging 1,200-7,500 req/s): req/s against the ceiling .09 / .12 / .18 with,
// .10 / .13 / .27 without (lists, emitidos, sct); CPU 1,149 / 989 / 532 µs a request with,
// 1,127 / 756 / 487 without (the rows cross threads). It earned its place in the integrators'
// pass on a quieter machine (9ed007d: the statements were half the API server's CPU).

import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { ReadAnswer, ReadMessage, ReadMode } from './sqlite-read-worker.js';

// On SQLite, the fixed-SQL reads made outside a transaction (statements.ts) go to a
// connection of their own, in a thread of their own (sqlite-read-worker.ts). The pool has one
// connection, the only writer: through it, every read of the API took a turn of the pool and
// waited whole behind a sync's write transaction. Under WAL a second connection reads the last
// committed state at each statement, whatever the writer holds open, and never writes
// (query_only). In its own thread, the statements' time is no longer the event loop's: the
// requests' own work (HTTP, auth, mapping, JSON) runs beside them on the other core, and a
// long read does not hold up every other request. An in-memory database has no second
// connection.

export type { ReadMode };

// What `read` answers for a statement that writes: it goes to the pool instead.
export const writes = Symbol('writes');

export interface SqliteReader {
    read(sql: string, bindings: readonly unknown[], mode: ReadMode): Promise<unknown>;
    close(): void;
}

const internals = {
    readers: new WeakMap<object, SqliteReader | null>(),
    // The thread's module beside this one: compiled JavaScript, or TypeScript where this runs
    // as TypeScript (tests, development), loaded through tsx, which a thread does not inherit.
    script: new URL(`./sqlite-read-worker${import.meta.url.slice(import.meta.url.lastIndexOf('.'))}`, import.meta.url),

    open(filename: string, forget: () => void): SqliteReader {

        const worker = internals.script.pathname.endsWith('.ts')
            ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(internals.script.href)}); })`, { eval: true, workerData: { filename } })
            : new Worker(internals.script, { workerData: { filename } });
        const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
        const writing = new Set<string>();
        let next = 0;
        // The thread keeps the process alive only while a read waits for it.
        worker.unref();

        const settle = (id: number) => {

            const waiting = pending.get(id);
            pending.delete(id);
            if (!pending.size) {
                worker.unref();
            }

            return waiting;
        };

        worker.on('message', (answer: ReadAnswer) => {

            const waiting = settle(answer.id);
            if ('rows' in answer) {
                waiting?.resolve(answer.rows);
            }
            else if ('writes' in answer) {
                waiting?.resolve(writes);
            }
            else {
                waiting?.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
            }
        });

        // A thread that ended fails what waited for it; the next read starts another.
        const fail = (err: Error) => {

            forget();
            for (const id of [...pending.keys()]) {
                settle(id)?.reject(err);
            }
        };

        worker.on('error', fail);
        worker.on('exit', (code) => fail(new Error(`El hilo de lecturas de SQLite terminó (código ${code}).`)));

        return {
            read(sql, bindings, mode) {

                if (writing.has(sql)) {
                    return Promise.resolve(writes);
                }

                const id = next++;
                return new Promise((resolve, reject) => {

                    if (!pending.size) {
                        worker.ref();
                    }

                    pending.set(id, {
                        resolve: (value) => {

                            if (value === writes) {
                                writing.add(sql);
                            }

                            resolve(value);
                        },
                        reject
                    });
                    worker.postMessage({ id, sql, bindings, mode } satisfies ReadMessage);
                });
            },

            close() {

                forget();
                void worker.terminate();
            }
        };
    }
};

// The reader of a knex instance (not of a transaction: those read their own writes), opened
// on its first read.
export const sqliteReader = (knex: Knex): SqliteReader | null => {

    if (knex.isTransaction) {
        return null;
    }

    const key = knex.client as object;
    let reader = internals.readers.get(key);
    if (reader === undefined) {
        const filename = (knex.client.config.connection as { filename: string }).filename;
        const opened = filename === ':memory:' ? null : internals.open(filename, () => {

            if (internals.readers.get(key) === opened) {
                internals.readers.delete(key);
            }
        });
        reader = opened;
        internals.readers.set(key, reader);
    }

    return reader;
};

export const closeSqliteReader = (knex: Knex): void => {

    internals.readers.get(knex.client as object)?.close();
};
