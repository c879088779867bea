import Database from 'better-sqlite3';
import mysql from 'mysql2';

// How many statements this process sends to the database, whichever layer sends them (knex's
// query builder, adapters/knex/statements.ts, the lean floor): the drivers' own methods are
// wrapped, so the bench can print statements per request beside the time they cost.

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

export const statementsSent = (): number => internals.count;
