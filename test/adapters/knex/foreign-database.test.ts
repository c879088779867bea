import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { connect } from '../../../adapters/knex/connection.js';
import { migrateLatest, migrationSource } from '../../../adapters/knex/migrations/index.js';
import type { CliResult } from '../../support/cli.js';
import { cliEnv, runCli, runInProcess, runKnexCli } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';

// DATABASE_URL pointed at another application's database (MariaDB's own `mysql`, a WordPress
// one) got arcasync's 32 tables beside its own at the first command, even `account list`.
// Every command that opens a database refuses one that is not empty and not arcasync's,
// before writing anything: one Spanish line naming a few of its tables, and the database as it
// was, byte for byte (no knex tables, no accounts; on SQLite not even the WAL mode).

const internals = {
    key: randomBytes(32).toString('base64'),
    advice: 'usá una base de datos vacía, o la de arcasync',

    // A knex on the test database as another application would have it (no arcasync pool).
    plain(url: string): Knex {

        if (url.startsWith('sqlite:')) {
            return knexFactory({ client: 'better-sqlite3', connection: { filename: url.slice('sqlite:'.length) }, useNullAsDefault: true });
        }

        return knexFactory({ client: 'mysql2', connection: url, pool: { min: 0, max: 1 } });
    },

    // Every row and the schema, and on SQLite the file's bytes and its folder (no -wal, -shm).
    dump(url: string): string {

        if (url.startsWith('sqlite:')) {
            const file = url.slice('sqlite:'.length);
            return [readdirSync(dirname(file)).sort().join(','), readFileSync(file).toString('base64')].join('\n');
        }

        const parsed = new URL(url);
        return execFileSync('mysqldump', [
            '--protocol=tcp', '-h', parsed.hostname, '-P', parsed.port || '3306', '-u', decodeURIComponent(parsed.username),
            '--skip-dump-date', '--skip-comments', parsed.pathname.slice(1)
        ], { encoding: 'utf8' });
    },

    async create(url: string, statements: string[]): Promise<void> {

        const knex = internals.plain(url);
        try {
            for (const sql of statements) {
                await knex.raw(sql);
            }
        }
        finally {
            await knex.destroy();
        }
    },

    label: (url: string): string => (url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url),

    // `serve` on the database: refused before it listens. Started anyway (what this refuses),
    // it is stopped so that the test fails instead of waiting.
    async serve(url: string): Promise<CliResult> {

        const listening = new AbortController();
        return runInProcess(['serve', '--host', '127.0.0.1', '--port', '0'], {
            env: cliEnv(url, { ARCASYNC_SECRET_KEY: internals.key, LOG_LEVEL: 'silent' }),
            signal: listening.signal,
            onStdout: (text) => text.includes('escuchando') && listening.abort()
        });
    }
};

for (const database of testDatabases()) {

    describe(`commands on a database that is not arcasync's (${database.name})`, function () {

        this.timeout(120_000);

        it('a WordPress database: account list, sync, migrate, serve and the knex CLI refuse it in one line and leave it as it was', async () => {

            const db = await database.create();
            try {
                await internals.create(db.url, [
                    'create table wp_posts (id integer primary key, post_title varchar(200))',
                    'create table wp_users (id integer primary key, user_login varchar(60))',
                    'create table wp_options (option_name varchar(191) primary key, option_value text)',
                    'create table wp_postmeta (meta_id integer primary key, post_id integer)',
                    "insert into wp_posts (id, post_title) values (1, 'Hola mundo')",
                    "insert into wp_users (id, user_login) values (1, 'admin')"
                ]);
                const before = internals.dump(db.url);
                const line = `Error: No se puede usar la base de datos ${internals.label(db.url)}: ya tiene 4 tablas que no creó arcasync `
                    + `('wp_options', 'wp_postmeta', 'wp_posts' y 1 más; ${internals.advice}).\n`;

                const key = { ARCASYNC_SECRET_KEY: internals.key };
                const runs: Record<string, CliResult> = {
                    'account list': await runCli(db.url, ['account', 'list'], key),
                    'account create': await runCli(db.url, ['account', 'create', '--name', 'Estudio'], key),
                    'sync --all': await runCli(db.url, ['sync', '--all'], { ...key, AUTHORITY: 'simulated' }),
                    'sync status': await runCli(db.url, ['sync', 'status'], key),
                    migrate: await runCli(db.url, ['migrate']),
                    'migrate --status': await runCli(db.url, ['migrate', '--status']),
                    'migrate --down --yes': await runCli(db.url, ['migrate', '--down', '--yes']),
                    'migrate --unlock': await runCli(db.url, ['migrate', '--unlock']),
                    serve: await internals.serve(db.url)
                };
                for (const [command, result] of Object.entries(runs)) {
                    expect({ command, ...result }).to.deep.equal({ command, code: 1, stdout: '', stderr: line });
                }

                const json = await runCli(db.url, ['--json', 'account', 'list'], key);
                expect(JSON.parse(json.stderr)).to.deep.equal({ error: line.slice('Error: '.length, -1) });

                for (const args of [['migrate:latest'], ['migrate:status'], ['migrate:unlock']]) {
                    expect(runKnexCli(db.url, args), args[0]).to.deep.equal({ code: 1, stdout: '', stderr: line });
                }

                expect(internals.dump(db.url)).to.equal(before);
            }
            finally {
                await db.release();
            }
        });

        it('a database with one table of the same name as arcasync\'s, or another application\'s knex migrations: refused, nothing created', async () => {

            const db = await database.create();
            const other = await database.create();
            try {
                await internals.create(db.url, ['create table accounts (numero integer)']);
                await internals.create(other.url, [
                    'create table knex_migrations (id integer primary key, name varchar(255), batch integer, migration_time timestamp null)',
                    "insert into knex_migrations (id, name, batch) values (1, '20240101_create_posts.js', 1)"
                ]);
                const before = [internals.dump(db.url), internals.dump(other.url)];

                const same = await runCli(db.url, ['account', 'list'], { ARCASYNC_SECRET_KEY: internals.key });
                expect(same.stderr).to.equal(`Error: No se puede usar la base de datos ${internals.label(db.url)}: ya tiene una tabla 'accounts' que no creó arcasync (${internals.advice}).\n`);
                const knexApp = await runCli(other.url, ['migrate']);
                expect(knexApp.stderr).to.equal(
                    `Error: No se puede usar la base de datos ${internals.label(other.url)}: tiene migraciones que no son de arcasync ('20240101_create_posts.js'; ${internals.advice}).\n`
                );
                expect([internals.dump(db.url), internals.dump(other.url)]).to.deep.equal(before);
            }
            finally {
                await db.release();
                await other.release();
            }
        });

        it('names from the other database reach the terminal escaped', async () => {

            const db = await database.create();
            try {
                const quote = database.name === 'mysql' ? '`' : '"';
                await internals.create(db.url, [`create table ${quote}x\u001b]0;owned\u0007${quote} (id integer)`]);
                const result = await runCli(db.url, ['migrate']);
                expect(result.code).to.equal(1);
                expect(result.stderr).to.include("ya tiene una tabla 'x\\x1b]0;owned\\x07' que no creó arcasync");
                expect(result.stderr).to.not.match(/[\u0000-\u0009\u000b-\u001f]/);
            }
            finally {
                await db.release();
            }
        });

        it('an empty database is migrated, and arcasync\'s own with a table of the operator\'s beside it keeps working', async () => {

            const db = await database.create();
            try {
                // On SQLite an empty database is a file with nothing in it yet.
                await internals.create(db.url, ['select 1']);
                const migrated = await runCli(db.url, ['account', 'list'], { ARCASYNC_SECRET_KEY: internals.key });
                expect(migrated).to.deep.include({ code: 0, stderr: '' });
                expect(migrated.stdout.trim()).to.equal('(sin cuentas)');
                await internals.create(db.url, ['create table informes_propios (id integer)']);
                expect((await runCli(db.url, ['account', 'create', '--name', 'Estudio'], { ARCASYNC_SECRET_KEY: internals.key })).code).to.equal(0);
                expect((await runCli(db.url, ['migrate'])).stdout).to.equal('La base de datos ya estaba al día.\n');
            }
            finally {
                await db.release();
            }
        });

        it('a first migration half-way in another process (its lock held, its first tables made) is waited for, not refused', async () => {

            const db = await database.create();
            const knex = connect(db.url);
            try {
                await knex.migrate.list({ migrationSource });
                await knex('knex_migrations_lock').update({ is_locked: 1 });
                await knex.raw('create table accounts (id integer primary key)');
                const waited = await migrateLatest(knex, { lockWaitMs: 300 }).catch((err: unknown) => err);
                expect((waited as { code?: unknown }).code).to.equal('ARCASYNC_MIGRATION_LOCKED');
            }
            finally {
                await knex.destroy();
                await db.release();
            }
        });

        it('a database a newer arcasync migrated: refused, saying to upgrade', async () => {

            const db = await database.create();
            try {
                expect((await runCli(db.url, ['migrate'])).code).to.equal(0);
                const knex = internals.plain(db.url);
                try {
                    await knex('knex_migrations').insert({ name: '099_future', batch: 2, migration_time: new Date() });
                }
                finally {
                    await knex.destroy();
                }

                const before = internals.dump(db.url);
                const result = await runCli(db.url, ['account', 'list'], { ARCASYNC_SECRET_KEY: internals.key });
                expect(result.code).to.equal(1);
                expect(result.stderr).to.equal(
                    `Error: No se puede usar la base de datos ${internals.label(db.url)}: la actualizó una versión más nueva de arcasync (migraciones '099_future'): actualizá arcasync antes de usarla.\n`
                );
                expect(internals.dump(db.url)).to.equal(before);
            }
            finally {
                await db.release();
            }
        });
    });
}
