import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { dialectOf } from './connection.js';

// Whether a database may be migrated: only an empty one, or one whose migrations are
// arcasync's (knex_migrations names ours). DATABASE_URL pointed at MariaDB's own `mysql`
// database, or at a WordPress one, would otherwise get arcasync's tables (and knex's) beside
// the others at the first command. It is read without writing anything: on SQLite through a
// query-only connection of its own, since the pool's first connection already writes (WAL
// mode is kept in the file's header).

export interface DatabaseContents {
    tables: string[];
    // knex_migrations' names in the order applied; null without that table.
    migrations: string[] | null;
    // knex_migrations_lock says a migration runs.
    locked: boolean;
}

// 'migrating': a first migration holds the lock and its tables are there before its names.
export type Admission = 'empty' | 'ours' | 'migrating';

const internals = {
    knexTables: ['knex_migrations', 'knex_migrations_lock'],
    // How a table list reads in the refusal: the first few.
    shown: 3,
    // An arcasync migration's name (a newer version's, unknown to this one).
    ours: /^\d{3}_[a-z0-9_]+$/,
    advice: 'usá una base de datos vacía, o la de arcasync',

    tablesSql: {
        mysql: 'select table_name as name from information_schema.tables where table_schema = database() order by table_name',
        sqlite: "select name from sqlite_master where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\' order by name"
    },

    async read(query: (sql: string) => Promise<Record<string, unknown>[]>, dialect: 'mysql' | 'sqlite'): Promise<DatabaseContents> {

        const tables = (await query(internals.tablesSql[dialect])).map((row) => String(row.name));
        const migrations = tables.includes('knex_migrations')
            ? (await query('select name from knex_migrations order by id')).map((row) => String(row.name))
            : null;
        const locked = tables.includes('knex_migrations_lock')
            && (await query('select is_locked from knex_migrations_lock')).some((row) => Number(row.is_locked) === 1);
        return { tables, migrations, locked };
    },

    // Names from a database arcasync did not write reach a terminal: no control characters, no
    // endless names.
    quoted(name: string): string {

        const safe = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
        return `'${safe.length > 64 ? `${safe.slice(0, 63)}…` : safe}'`;
    },

    few(names: string[]): string {

        const shown = names.slice(0, internals.shown).map(internals.quoted).join(', ');
        return names.length > internals.shown ? `${shown} y ${names.length - internals.shown} más` : shown;
    },

    refusal: (message: string): Error => Object.assign(new Error(message), { code: 'ARCASYNC_FOREIGN_DATABASE' }),

    foreign(contents: DatabaseContents, unknown: string[]): Error {

        const others = contents.tables.filter((table) => !internals.knexTables.includes(table));
        if (!others.length) {
            return internals.refusal(`tiene migraciones que no son de arcasync (${internals.few(unknown)}; ${internals.advice})`);
        }

        return internals.refusal(others.length === 1
            ? `ya tiene una tabla ${internals.quoted(others[0]!)} que no creó arcasync (${internals.advice})`
            : `ya tiene ${others.length} tablas que no creó arcasync (${internals.few(others)}; ${internals.advice})`);
    }
};

// What the database holds, read without writing (a missing SQLite file: nothing, and it is not
// created).
export const databaseContents = async (knex: Knex): Promise<DatabaseContents> => {

    if (dialectOf(knex) === 'mysql') {
        return internals.read(async (sql) => (await knex.raw(sql) as [Record<string, unknown>[]])[0], 'mysql');
    }

    const filename = String((knex.client.config.connection as { filename: string }).filename);
    if (filename === ':memory:') {
        return internals.read(async (sql) => await knex.raw(sql) as Record<string, unknown>[], 'sqlite');
    }

    if (!existsSync(filename)) {
        return { tables: [], migrations: null, locked: false };
    }

    // Not opened read-only: on a WAL database (arcasync's) a read-only connection cannot remove
    // the -wal and -shm files it made as it closes. query_only refuses any write instead.
    const db = new Database(filename, { fileMustExist: true, timeout: 10_000 });
    try {
        db.pragma('query_only = ON');
        return await internals.read(async (sql) => db.prepare(sql).all(), 'sqlite');
    }
    finally {
        db.close();
    }
};

// Whether the database may be migrated with `known` (the service's migrations, in order); a
// database that is someone else's throws ARCASYNC_FOREIGN_DATABASE, its message naming a few
// of its tables (errors.ts says it as the cause).
export const admission = (contents: DatabaseContents, known: readonly string[]): Admission => {

    const { tables, migrations, locked } = contents;
    if (migrations?.length) {
        const unknown = migrations.filter((name) => !known.includes(name));
        if (!unknown.length) {
            return 'ours';
        }

        if (migrations.includes(known[0]!) && unknown.every((name) => internals.ours.test(name))) {
            throw internals.refusal(`la actualizó una versión más nueva de arcasync (migraciones ${internals.few(unknown)}): actualizá arcasync antes de usarla`);
        }

        throw internals.foreign(contents, unknown);
    }

    if (tables.every((table) => internals.knexTables.includes(table))) {
        return 'empty';
    }

    // knex's tables, its lock held, no migration recorded yet: another process's first
    // migration is half-way (MySQL commits each table as it is created).
    if (migrations && locked) {
        return 'migrating';
    }

    throw internals.foreign(contents, []);
};
