import type { Knex } from 'knex';
import { dialectOf } from './connection.js';

// Whose a database is, read without writing (not even a migration): the demo takes only an
// empty database or one it created itself, never one that holds anything else.
export type DatabaseOwner = 'empty' | 'demo' | 'other';

const internals = {

    async tables(knex: Knex): Promise<string[]> {

        if (dialectOf(knex) === 'mysql') {
            const [rows] = await knex.raw('select table_name as name from information_schema.tables where table_schema = database()') as [{ name: string }[]];
            return rows.map((row) => row.name);
        }

        const rows = await knex.raw(
            "select name from sqlite_master where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\'"
        ) as { name: string }[];
        return rows.map((row) => row.name);
    }
};

export const databaseOwner = async (knex: Knex): Promise<DatabaseOwner> => {

    const tables = await internals.tables(knex);
    if (!tables.length) {
        return 'empty';
    }

    if (!tables.includes('installation')) {
        return 'other';
    }

    const demo = await knex('installation').where({ name: 'authority', value: 'simulated' }).first();
    return demo ? 'demo' : 'other';
};
