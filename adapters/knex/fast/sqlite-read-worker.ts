// With sqlite-reader.ts, for the reason and figure given there: the reads' thread.

import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { preparedStatement } from './sqlite-prepared.js';

// The thread of SQLite's reads (sqlite-reader.ts): one read-only connection to the file,
// answering each statement sent to it in turn. A statement that would write is sent back.

export type ReadMode = 'all' | 'get' | 'arrays';
export interface ReadMessage { id: number; sql: string; bindings: readonly unknown[]; mode: ReadMode }
export type ReadAnswer = { id: number; rows: unknown } | { id: number; writes: true } | { id: number; error: { message: string; code?: string } };

const internals = {
    db: null as InstanceType<typeof Database> | null,
    prepared: new Map<string, Statement>(),

    // Opened on the first statement, and again after a failed open: a file that cannot be
    // opened now (an outage) is each read's error with SQLite's code, until it can.
    open(): InstanceType<typeof Database> {

        if (!internals.db) {
            const db = new Database((workerData as { filename: string }).filename);
            db.pragma('query_only = ON');
            db.pragma('busy_timeout = 10000');
            internals.db = db;
        }

        return internals.db;
    },

    answer(message: ReadMessage): ReadAnswer {

        try {
            const statement = preparedStatement(internals.prepared, internals.open(), message.sql, message.mode === 'arrays');
            if (!statement.readonly) {
                return { id: message.id, writes: true };
            }

            return { id: message.id, rows: message.mode === 'get' ? statement.get(...message.bindings) : statement.all(...message.bindings) };
        }
        catch (err) {
            return { id: message.id, error: { message: (err as Error).message, code: (err as { code?: string }).code } };
        }
    }
};

parentPort!.on('message', (message: ReadMessage) => parentPort!.postMessage(internals.answer(message)));
