import knexFactory from 'knex';
import type { Knex } from 'knex';

// A connection to the MySQL/MariaDB server a URL names, on no schema: what creates and drops the
// scratch databases of the suites (databases.ts) and the benchmarks (bench/). One connection.
export const mysqlServerAdmin = (url: string): Knex => {

    const base = new URL(url);
    return knexFactory({
        client: 'mysql2',
        connection: {
            host: base.hostname,
            port: Number(base.port || 3306),
            user: decodeURIComponent(base.username),
            password: decodeURIComponent(base.password)
        },
        pool: { min: 0, max: 1 }
    });
};
