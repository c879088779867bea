import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import mysql from 'mysql2';

// How many statements this process sends to the database, whichever layer sends them (knex's
// query builder, adapters/knex/fast/statements.ts, the lean floor): the drivers' own methods are
// wrapped, so the bench can print statements per request beside the time they cost. SQLite's
// reads run in a thread of their own (adapters/knex/fast/sqlite-reader.ts), where this module is
// not loaded: each statement posted to it is counted as it leaves.

type Method = (this: unknown, ...args: unknown[]) => unknown;

const internals = {
    count: 0,

    wrap(proto: Record<string, unknown>, names: string[]): void {

        for (const name of names) {
            const original = proto[name] as Method;
            proto[name] = function (this: unknown, ...args: unknown[]) {

                internals.count++;
                return original.apply(this, args);
            };
        }
    }
};

internals.wrap(mysql.Connection.prototype as unknown as Record<string, unknown>, ['query', 'execute']);
const probe = new Database(':memory:');
internals.wrap(Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>, ['all', 'get', 'run', 'iterate']);
probe.close();
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {

    if (typeof (message as { sql?: unknown } | null)?.sql === 'string') {
        internals.count++;
    }

    return (post as (this: Worker, ...args: unknown[]) => void).call(this, message, ...rest);
};

export const statementsSent = (): number => internals.count;
