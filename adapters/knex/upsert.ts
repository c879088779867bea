import type { Dialect } from './connection.js';
import { placeholders } from './statements.js';

// The fixed SQL of an insert of `rows` rows that updates `update` when a row's `key` (a unique
// index) is taken, for statements.ts: ON DUPLICATE KEY UPDATE on MySQL, ON CONFLICT DO UPDATE
// on SQLite. Bindings: each row's values in `columns` order, row after row. Identifiers are
// quoted (`system` is reserved in MySQL 8).

const internals = {
    quote: (dialect: Dialect, name: string): string => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
};

export const upsertSql = (dialect: Dialect, table: string, columns: readonly string[], key: readonly string[], update: readonly string[], rows = 1): string => {

    const quote = (name: string) => internals.quote(dialect, name);
    const tuple = `(${placeholders(columns.length)})`;
    const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ${new Array(rows).fill(tuple).join(', ')}`;
    return dialect === 'mysql'
        ? `${head} on duplicate key update ${update.map((column) => `${quote(column)} = values(${quote(column)})`).join(', ')}`
        : `${head} on conflict (${key.map(quote).join(', ')}) do update set ${update.map((column) => `${quote(column)} = excluded.${quote(column)}`).join(', ')}`;
};
