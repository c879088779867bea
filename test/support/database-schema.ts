import type { Knex } from 'knex';
import type { ColumnSpec, TableSpec } from '../../adapters/knex/schema.js';

// What a database has, table by table, in the words of adapters/knex/schema.ts, and the
// differences between the two as sentences that name the table and the column or index
// (test/schema-integrity.test.ts). Each column is written as its engine shows it ("varchar(200)
// not null", "int unsigned auto_increment not null"), and the description is written the same
// way for that engine, so the two compare as text.

type Dialect = 'sqlite' | 'mysql';

interface TableFound {
    columns: Record<string, string>;
    primary: string[];
    indexes: Record<string, string>;
}

const internals = {
    sqliteTypes: {
        increments: 'integer', bigIncrements: 'integer', integer: 'integer', bigInteger: 'bigint', boolean: 'boolean', decimal: 'float', text: 'text', mediumtext: 'text'
    } as Record<string, string>,

    mysqlTypes: {
        increments: 'int unsigned auto_increment', bigIncrements: 'bigint unsigned auto_increment', integer: 'int', bigInteger: 'bigint', boolean: 'tinyint',
        text: 'text', mediumtext: 'mediumtext'
    } as Record<string, string>,

    column(spec: ColumnSpec, dialect: Dialect): string {

        const nullable = spec.nullable ? 'null' : 'not null';
        if (spec.type === 'string') {
            return `varchar(${spec.size}) ${nullable}`;
        }

        if (dialect === 'sqlite') {
            return `${internals.sqliteTypes[spec.type]} ${nullable}`;
        }

        const type = spec.type === 'decimal' ? `decimal(${spec.precision},${spec.scale})` : internals.mysqlTypes[spec.type];
        return `${type}${spec.unsigned ? ' unsigned' : ''} ${nullable}`;
    },

    index: (columns: readonly string[], unique: boolean | undefined): string => `${unique ? 'unique ' : ''}(${columns.join(', ')})`,

    async sqlite(knex: Knex): Promise<Record<string, TableFound>> {

        const tables = await knex.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'knex_%' order by name") as { name: string }[];
        const found: Record<string, TableFound> = {};
        for (const { name } of tables) {
            const columns = await knex.raw(`pragma table_info(${name})`) as { name: string; type: string; notnull: number; pk: number }[];
            const indexes = await knex.raw(`pragma index_list(${name})`) as { name: string; unique: number; origin: string }[];
            const table: TableFound = {
                columns: Object.fromEntries(columns.map((column) => [column.name, `${column.type.toLowerCase()} ${column.notnull ? 'not null' : 'null'}`])),
                primary: columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name),
                indexes: {}
            };
            // The primary key's own index (origin pk) is the primary key, read above.
            for (const index of indexes.filter((entry) => entry.origin !== 'pk')) {
                const parts = await knex.raw(`pragma index_info(${index.name})`) as { seqno: number; name: string }[];
                table.indexes[index.name] = internals.index(parts.sort((a, b) => a.seqno - b.seqno).map((part) => part.name), index.unique === 1);
            }

            found[name] = table;
        }

        return found;
    },

    async mysql(knex: Knex): Promise<Record<string, TableFound>> {

        const [columns] = await knex.raw(
            'select table_name as t, column_name as c, data_type as type, column_type as full_type, is_nullable as nullable, character_maximum_length as length, ' +
            'numeric_precision as num_precision, numeric_scale as num_scale, extra from information_schema.columns ' +
            "where table_schema = database() and table_name not like 'knex\\_%' order by table_name, ordinal_position"
        ) as [Record<string, string>[]];
        const [indexes] = await knex.raw(
            'select table_name as t, index_name as i, non_unique as non_unique, column_name as c from information_schema.statistics ' +
            "where table_schema = database() and table_name not like 'knex\\_%' order by table_name, index_name, seq_in_index"
        ) as [Record<string, string>[]];
        const found: Record<string, TableFound> = {};
        for (const column of columns) {
            const table = found[column.t] ??= { columns: {}, primary: [], indexes: {} };
            const size = column.type === 'varchar' ? `(${column.length})` : column.type === 'decimal' ? `(${column.num_precision},${column.num_scale})` : '';
            const unsigned = /unsigned/.test(column.full_type) ? ' unsigned' : '';
            const auto = /auto_increment/.test(column.extra) ? ' auto_increment' : '';
            table.columns[column.c] = `${column.type}${size}${unsigned}${auto} ${column.nullable === 'YES' ? 'null' : 'not null'}`;
        }

        const grouped = new Map<string, { t: string; i: string; unique: boolean; columns: string[] }>();
        for (const row of indexes) {
            const entry = grouped.get(`${row.t}.${row.i}`) ?? { t: row.t, i: row.i, unique: Number(row.non_unique) === 0, columns: [] as string[] };
            entry.columns.push(row.c);
            grouped.set(`${row.t}.${row.i}`, entry);
        }

        for (const entry of grouped.values()) {
            if (entry.i === 'PRIMARY') {
                found[entry.t]!.primary = entry.columns;
            }
            // MySQL's own index behind a foreign key that had none (schema.ts leaves it out).
            else if (!entry.i.endsWith('_foreign')) {
                found[entry.t]!.indexes[entry.i] = internals.index(entry.columns, entry.unique);
            }
        }

        return found;
    }
};

// Every difference between the database and the description, one sentence each (none: equal).
export const schemaDifferences = async (knex: Knex, described: Readonly<Record<string, TableSpec>>): Promise<string[]> => {

    const dialect: Dialect = knex.client.config.client === 'mysql2' ? 'mysql' : 'sqlite';
    const found = dialect === 'mysql' ? await internals.mysql(knex) : await internals.sqlite(knex);
    const differences: string[] = [];
    const compare = (what: string, has: Record<string, string>, wants: Record<string, string>) => {

        for (const name of new Set([...Object.keys(wants), ...Object.keys(has)])) {
            if (!(name in has)) {
                differences.push(`${what} ${name}: described as ${wants[name]}, missing in the database`);
            }
            else if (!(name in wants)) {
                differences.push(`${what} ${name}: in the database as ${has[name]}, not described in adapters/knex/schema.ts`);
            }
            else if (has[name] !== wants[name]) {
                differences.push(`${what} ${name}: ${has[name]} in the database, described as ${wants[name]}`);
            }
        }
    };

    for (const table of new Set([...Object.keys(described), ...Object.keys(found)])) {
        const spec = described[table];
        const has = found[table];
        if (!spec || !has) {
            differences.push(spec ? `table ${table}: described, missing in the database` : `table ${table}: in the database, not described in adapters/knex/schema.ts`);
            continue;
        }

        compare('column', Object.fromEntries(Object.entries(has.columns).map(([name, text]) => [`${table}.${name}`, text])),
            Object.fromEntries(Object.entries(spec.columns).map(([name, column]) => [`${table}.${name}`, internals.column(column, dialect)])));
        compare('primary key of', { [table]: has.primary.join(', ') }, { [table]: spec.primary.join(', ') });
        compare('index', Object.fromEntries(Object.entries(has.indexes).map(([name, text]) => [`${table}.${name}`, text])),
            Object.fromEntries(Object.entries(spec.indexes).map(([name, index]) => [`${table}.${name}`, internals.index(index.columns, index.unique)])));
    }

    return differences;
};
