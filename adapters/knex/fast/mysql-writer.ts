// Fast path: MySQL saves on multi-statement connections. Earns it (2026-11-28, d097129,
// BENCH_CUITS=4 BENCH_LATENCY_MS=50,150 DATABASE_URL=mysql://root@127.0.0.1:3306/ npm run
// bench:sync, 3 rounds with and without (knex.transaction instead) A B, MariaDB shared with
// another bench): saves one at a time, back to back, median 12.8 ms with, 17.6 without (faster
// in 2 pairs of 3); the rates while storing (3,071 / 3,067 invoices/s) and of the write path
// alone (14,807 / 15,047) within the noise. Earlier: 11,283-12,023 -> 15,245-17,226
// invoices/s while storing (43f4b4f).

import type { Knex } from 'knex';
import mysql from 'mysql2';
import type { Pool, PoolConnection, PoolOptions } from 'mysql2';

// On MySQL the sync's bulk write transactions (statementsTransaction, statements.ts) run on
// connections of their own, which take several statements in one query: a save of invoices
// sends SET TRANSACTION, BEGIN, its writes and COMMIT in one round trip, where one statement
// per query made seven. While a sync parses the authority's answers, every round trip also
// waits for the busy event loop to read its reply, so the trips, not the database's work,
// were most of a save's time.
//
// Only that fixed SQL, every value bound by mysql2's escaping, ever runs on these connections;
// knex's pool, which serves everything else (and the API), keeps refusing a second statement
// in a query. The pool is opened on the first transaction (an API server never opens it) with
// the pool's own connection settings and limit, and closed with the database (closeDatabase).

const internals = {
    pools: new WeakMap<Knex, Pool>(),

    open(knex: Knex): Pool {

        const config = knex.client.config as Knex.Config;
        return mysql.createPool({
            ...config.connection as PoolOptions,
            multipleStatements: true,
            connectionLimit: config.pool?.max ?? 10,
            maxIdle: 1,
            idleTimeout: 60_000
        });
    }
};

export const mysqlWriterConnection = (knex: Knex): Promise<PoolConnection> => {

    let pool = internals.pools.get(knex);
    if (!pool) {
        pool = internals.open(knex);
        internals.pools.set(knex, pool);
    }

    const from = pool;
    return new Promise((resolve, reject) => from.getConnection((err, connection) => (err ? reject(err) : resolve(connection))));
};

export const closeMysqlWriter = async (knex: Knex): Promise<void> => {

    const pool = internals.pools.get(knex);
    internals.pools.delete(knex);
    await new Promise<void>((resolve) => (pool ? pool.end(() => resolve()) : resolve()));
};
