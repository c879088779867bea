import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { closeDatabase, connect, migrateLatest } from '../../adapters/knex/index.js';
import { mysqlServerAdmin } from './mysql-server.js';
import type { Knex } from 'knex';

// The databases every suite runs on: SQLite always, MySQL/MariaDB when TEST_MYSQL_URL is
// set (CI sets it). Each suite gets a database of its own, dropped afterwards.
//
// A database the service will migrate anyway (a composed app, a started server) is asked for
// `migrated`: it is then a copy of one database this process migrated once (a file copy on
// SQLite, the tables' own CREATE statements and rows on MariaDB), instead of the migrations
// replayed again each time — seconds per database on MariaDB, most of the suite's time
// (docs/development.md). Suites about migrating itself ask for an empty one.

export interface TestDatabase {
    name: 'sqlite' | 'mysql';
    // A fresh database URL, empty or already migrated to the latest schema; call release()
    // when done.
    create(options?: { migrated?: boolean }): Promise<{ url: string; release(): Promise<void> }>;
}

interface MysqlTemplate {
    name: string;
    // The script that builds a copy in the current database: the tables' CREATE statements,
    // then the rows of those that have any (knex's own, the published category tables).
    script: string;
}

const internals = {
    mysqlUrl: process.env.TEST_MYSQL_URL || null,
    // This run's templates carry its id (set once by the run's global setup, inherited by its
    // workers): the run's teardown drops them, never another run's on the same server.
    run: (process.env.ARCASYNC_TEST_RUN ??= randomBytes(4).toString('hex')),
    sqliteTemplate: null as Promise<string> | null,
    mysqlTemplateMade: null as Promise<MysqlTemplate> | null,

    templatePrefix: (): string => `arcasync_tpl_${internals.run}_`,

    async migrated(url: string): Promise<void> {

        const knex = connect(url);
        try {
            await migrateLatest(knex);
        }
        finally {
            await knex.destroy();
        }
    },

    async sqliteTemplateFile(): Promise<string> {

        const dir = join(tmpdir(), `${internals.templatePrefix()}${process.pid}`);
        mkdirSync(dir, { recursive: true });
        const file = join(dir, 'template.sqlite');
        await internals.migrated(`sqlite:${file}`);
        return file;
    },

    async mysqlTemplate(baseUrl: string): Promise<MysqlTemplate> {

        const name = `${internals.templatePrefix()}${process.pid}`;
        const admin = mysqlServerAdmin(baseUrl);
        try {
            await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
            await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
            await internals.migrated(internals.urlOf(baseUrl, name));
            const [tables] = await admin.raw(
                "select table_name as name, table_rows as approxRows from information_schema.tables where table_schema = ? and table_type = 'BASE TABLE'", [name]
            ) as [{ name: string }[]];
            const creates: string[] = [];
            const copies: string[] = [];
            for (const { name: table } of tables) {
                const [[shown]] = await admin.raw(`SHOW CREATE TABLE \`${name}\`.\`${table}\``) as [{ 'Create Table': string }[]];
                creates.push(shown!['Create Table'].replace(/ AUTO_INCREMENT=\d+/, ''));
                const [[count]] = await admin.raw(`select count(*) as n from \`${name}\`.\`${table}\``) as [{ n: number }[]];
                if (Number(count!.n) > 0) {
                    copies.push(`INSERT INTO \`${table}\` SELECT * FROM \`${name}\`.\`${table}\``);
                }
            }

            // Foreign keys are checked once every table is there, not in creation order.
            return { name, script: ['SET FOREIGN_KEY_CHECKS = 0', ...creates, ...copies, 'SET FOREIGN_KEY_CHECKS = 1'].join(';\n') };
        }
        finally {
            await admin.destroy();
        }
    },

    urlOf(baseUrl: string, database: string): string {

        const url = new URL(baseUrl);
        url.pathname = `/${database}`;
        return url.toString();
    }
};

const sqlite: TestDatabase = {
    name: 'sqlite',
    async create(options = {}) {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-test-'));
        const file = join(dir, 'test.sqlite');
        if (options.migrated) {
            internals.sqliteTemplate ??= internals.sqliteTemplateFile();
            copyFileSync(await internals.sqliteTemplate, file);
        }

        return {
            url: `sqlite:${file}`,
            async release() {

                rmSync(dir, { recursive: true, force: true });
            }
        };
    }
};

const mysql = (baseUrl: string): TestDatabase => ({
    name: 'mysql',
    async create(options = {}) {

        const name = `arcasync_test_${randomBytes(5).toString('hex')}`;
        const admin = mysqlServerAdmin(baseUrl);

        await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        const url = internals.urlOf(baseUrl, name);
        if (options.migrated) {
            internals.mysqlTemplateMade ??= internals.mysqlTemplate(baseUrl);
            const { script } = await internals.mysqlTemplateMade;
            const base = new URL(baseUrl);
            const connection = await createConnection({
                host: base.hostname,
                port: Number(base.port || 3306),
                user: decodeURIComponent(base.username),
                password: decodeURIComponent(base.password),
                database: name,
                multipleStatements: true
            });
            try {
                await connection.query(script);
            }
            finally {
                await connection.end();
            }
        }

        return {
            url,
            async release() {

                await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
                await admin.destroy();
            }
        };
    }
});

// A knex on a database of its own for a suite's tests (`each`: a new one for every test),
// handed to `opened`; migrated with the migrations themselves when asked (never a template
// copy: these suites test what the migrations build). Closed and dropped afterwards.
export const useKnex = (database: TestDatabase, opened: (knex: Knex) => void, options: { migrate?: boolean; each?: boolean } = {}): void => {

    let close: (() => Promise<void>) | undefined;
    (options.each ? beforeEach : before)(async () => {

        const db = await database.create();
        const knex = connect(db.url);
        close = async () => {

            await closeDatabase(knex);
            await db.release();
        };
        if (options.migrate) {
            await migrateLatest(knex);
        }

        opened(knex);
    });

    (options.each ? afterEach : after)(async () => {

        await close?.();
        close = undefined;
    });
};

// The run's templates, dropped by its global teardown (contract-hooks.ts) once every worker
// is done with them.
export const dropTemplates = async (): Promise<void> => {

    for (const entry of readdirSync(tmpdir()).filter((name) => name.startsWith(internals.templatePrefix()))) {
        rmSync(join(tmpdir(), entry), { recursive: true, force: true });
    }

    if (internals.mysqlUrl) {
        const admin = mysqlServerAdmin(internals.mysqlUrl);
        try {
            const [rows] = await admin.raw('select schema_name as name from information_schema.schemata where schema_name like ?', [`${internals.templatePrefix().replaceAll('_', String.raw`\_`)}%`]) as [{ name: string }[]];
            for (const { name } of rows) {
                await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
            }
        }
        finally {
            await admin.destroy();
        }
    }
};

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
