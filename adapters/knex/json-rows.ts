// MySQL: many rows as one value. The rows travel as one JSON array of arrays, bound as a
// Buffer (mysql2 writes it as a hex literal, natively) and read back as a table by JSON_TABLE
// (MySQL 8.0.4, MariaDB 10.6). Bound value by value, a save's few thousand values were each
// escaped and concatenated into the SQL text by JavaScript, most of a save's own CPU and a
// pile of garbage for the collector; JSON.stringify and the hex are done in C++.
//
// Every column is read as text and converted by the INSERT into its table column, exactly as
// a bound string or number would be, with the same strict-mode errors: JSON_TABLE's own typed
// columns cut a value too long for them, or turn one they cannot convert into NULL, with only
// a warning. JSON has no NaN or Infinity (JSON.stringify writes null), so a row must not
// carry them (finite()).

export type JsonRow = readonly (string | number | null)[];

// Strings must be well-formed UTF-16 (storableText, column-values.ts): JSON.stringify writes a
// lone surrogate as the escape \udXXX, which MySQL's JSON reader takes for the start of a
// character and, losing its place, reads the row's later values as NULL.
export const jsonRows = (rows: readonly JsonRow[]): Buffer => Buffer.from(JSON.stringify(rows));

// `json_table(…) alias` over one bound JSON value (jsonRows) whose rows' i-th value is the
// column columns[i]. The text is taken in the tables' character set and collation, so its
// columns compare with theirs through their indexes.
export const jsonTable = (columns: readonly string[], alias: string): string =>
    `json_table(convert(? using utf8mb4), '$[*]' columns (${columns.map((column, i) => `\`${column}\` text collate utf8mb4_unicode_ci path '$[${i}]'`).join(', ')})) ${alias}`;

export const finite = (value: number, what: string): number => {

    if (!Number.isFinite(value)) {
        throw new TypeError(`${what} no es un número finito`);
    }

    return value;
};
