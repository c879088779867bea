// Fast path (with upsert.ts, whose figure it shares; 99f2cf6).
//
// MySQL: many rows in one INSERT … VALUES ?, the rows bound as one value that mysql2 writes as
// `(…), (…)`, each value escaped as any bound value is. MariaDB stores a save's few hundred
// invoices this way in about four fifths of the time it took to read the same rows out of a
// JSON value with JSON_TABLE (bench/sync.ts's saves' SQL replayed, 197 invoices a save:
// 27-33k invoices/s against 21-24k), and the text it parses is half as long as the JSON's hex.
//
// A number is written as JavaScript prints it, and MySQL converts it to its column with the
// same strict-mode errors as any bound value; there is no literal for NaN or Infinity, so a
// row must not carry them (finite()).

export type ValueRow = readonly (string | number | null)[];

export const finite = (value: number, what: string): number => {

    if (!Number.isFinite(value)) {
        throw new TypeError(`${what} no es un número finito`);
    }

    return value;
};
