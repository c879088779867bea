// Dialect differences in what rows carry: SQLite and MySQL both hand booleans back as 0/1.

export const toBoolean = (value: unknown): boolean => value === true || value === 1 || value === '1';

export const toNullableBoolean = (value: unknown): boolean | null => (value === null || value === undefined ? null : toBoolean(value));

export const toNumber = (value: unknown): number => Number(value);

export const toNullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export const countOf = (row: Record<string, unknown> | undefined): number => Number(row?.count ?? 0);

// A text as every database stores it: a lone UTF-16 surrogate (half of a pair, which no
// encoding holds alone) becomes U+FFFD, as UTF-8 encoders (mysql2's among them) write it;
// SQLite would keep its bytes as they are (read back as three U+FFFD). The check is native
// and cheap: a save asks it of every text it writes.
export const storableText = <T extends string | null>(text: T): T => (text === null || text.isWellFormed() ? text : text.toWellFormed() as T);

// A row to insert or update with every text in it storable (storableText); the row itself
// when all of them already are, as they nearly always are.
export const storableRow = <T extends Record<string, unknown>>(row: T): T => {

    let copy: Record<string, unknown> | null = null;
    for (const [column, value] of Object.entries(row)) {
        const text = typeof value === 'string' ? storableText(value) : value;
        if (text !== value) {
            copy ??= { ...row };
            copy[column] = text;
        }
    }

    return (copy ?? row) as T;
};
