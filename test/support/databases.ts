import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mysqlServerAdmin } from './mysql-server.js';
import type { Knex } from 'knex';

// The databases every suite runs on: SQLite always, MySQL/MariaDB when TEST_MYSQL_URL is
// set (CI sets it). Each suite gets a database of its own, dropped afterwards.

export interface TestDatabase {
    name: 'sqlite' | 'mysql';
    // A fresh, empty database URL; call release() when done.
    create(): Promise<{ url: string; release(): Promise<void> }>;
}

const internals = {
    mysqlUrl: process.env.TEST_MYSQL_URL || null
};

const sqlite: TestDatabase = {
    name: 'sqlite',
    async create() {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-test-'));
        return {
            url: `sqlite:${join(dir, 'test.sqlite')}`,
            async release() {

                rmSync(dir, { recursive: true, force: true });
            }
        };
    }
};

const mysql = (baseUrl: string): TestDatabase => ({
    name: 'mysql',
    async create() {

        const name = `arcasync_test_${randomBytes(5).toString('hex')}`;
        const admin = mysqlServerAdmin(baseUrl);

        await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        const url = new URL(baseUrl);
        url.pathname = `/${name}`;
        return {
            url: url.toString(),
            async release() {

                await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
                await admin.destroy();
            }
        };
    }
});

export const testDatabases = (): TestDatabase[] => (internals.mysqlUrl ? [sqlite, mysql(internals.mysqlUrl)] : [sqlite]);

// What the run says once, before its tests, about the databases it leaves out.
export const databasesNotice = (): string | null => (internals.mysqlUrl ? null : '  MySQL omitido: TEST_MYSQL_URL no está definida; las pruebas corren solo sobre SQLite.\n');

// A TCP port nothing listens on (bound, then released): a database server that is down.
export const closedPort = async (): Promise<number> => {

    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
};

// The tables of a test database, on either engine.
export const tableNames = async (knex: Knex): Promise<string[]> => {

    if (knex.client.config.client === 'mysql2') {
        const [rows] = await knex.raw('select table_name as name from information_schema.tables where table_schema = database()') as [{ name: string }[]];
        return rows.map((row) => row.name);
    }

    const rows = await knex('sqlite_master').select('name').where({ type: 'table' }).andWhereNot('name', 'like', 'sqlite_%') as { name: string }[];
    return rows.map((row) => row.name);
};
