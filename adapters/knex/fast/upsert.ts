// Fast path: upserts as fixed SQL per dialect (the builder's onConflict().merge() counts no rows
// met). Earns it: with value-rows.ts, a save's SQL replayed 19,890 -> 26,407 invoices/s and
// bench:sync on MariaDB 19,847 -> 20,282 invoices/s while syncing (99f2cf6).
// Measure: DATABASE_URL=mysql://root@127.0.0.1:3306/ npm run bench:sync.

import type { Dialect } from '../connection.js';
import { placeholders } from './statements.js';

// The fixed SQL of an insert of `rows` rows that updates `update` when a row's `key` (a unique
// index) is taken, for statements.ts: ON DUPLICATE KEY UPDATE on MySQL, ON CONFLICT DO UPDATE
// on SQLite. Bindings: each row's values in `columns` order, row after row. Identifiers are
// quoted (`system` is reserved in MySQL 8).

const internals = {
    quote: (dialect: Dialect, name: string): string => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`),

    // MySQL: `column` takes the value the insert gave it.
    inserted: (column: string): string => `${internals.quote('mysql', column)} = values(${internals.quote('mysql', column)})`
};

export const upsertSql = (dialect: Dialect, table: string, columns: readonly string[], key: readonly string[], update: readonly string[], rows = 1): string => {

    const quote = (name: string) => internals.quote(dialect, name);
    const tuple = `(${placeholders(columns.length)})`;
    const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ${new Array(rows).fill(tuple).join(', ')}`;
    return dialect === 'mysql'
        ? `${head} on duplicate key update ${update.map(internals.inserted).join(', ')}`
        : `${head} on conflict (${key.map(quote).join(', ')}) do update set ${update.map((column) => `${quote(column)} = excluded.${quote(column)}`).join(', ')}`;
};

// MySQL: the same upsert of the rows `source` gives (a SELECT or `values ?`, columns in
// `columns` order). `counter`, a user variable, is raised by one for every row that met a row
// already there, whether the update changes it or not (a row listed twice in the source meets
// its first copy): MySQL evaluates the UPDATE's assignments once for each such row, and the
// IF in the first one, never true, is only there to raise it. Nothing else tells them apart:
// affected rows count an unchanged row like a new one, and INSERT … SELECT's note
// "Duplicates: D" leaves unchanged rows out. MySQL 8.0.13+ warns (1287) that assignments
// inside expressions are deprecated, and still runs them (9.x included); MariaDB does not warn.
// `tallies`, assignments to further user variables that never give a negative number, are
// evaluated for each such row too, before any column is updated (`table`.`column` is still
// the stored value there).
export const upsertCountingSql = (
    table: string,
    columns: readonly string[],
    update: readonly string[],
    source: string,
    counter: string,
    tallies: readonly string[] = []
): string => {

    const quote = (name: string) => internals.quote('mysql', name);
    const [first, ...rest] = update;
    const met = [`(${counter} := ${counter} + 1) = 0`, ...tallies.map((tally) => `(${tally}) < 0`)].join(' or ');
    return `insert into ${quote(table)} (${columns.map(quote).join(', ')}) ${source} on duplicate key update ` +
        [`${quote(first!)} = if(${met}, ${quote(table)}.${quote(first!)}, values(${quote(first!)}))`, ...rest.map(internals.inserted)].join(', ');
};

// SQLite: the same upsert as upsertSql that leaves a row whose values are all the same as
// stored untouched, so the rows it reports changed are the new ones and those it changed.
export const upsertChangedSql = (table: string, columns: readonly string[], key: readonly string[], update: readonly string[]): string => {

    const quote = (name: string) => internals.quote('sqlite', name);
    return `${upsertSql('sqlite', table, columns, key, update)} where ${update.map((column) => `${quote(table)}.${quote(column)} is not excluded.${quote(column)}`).join(' or ')}`;
};
