import { schema, sizesOf } from './schema.js';

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

// The characters the columns that hold the authority's texts take: MySQL refuses a longer
// text (ER_DATA_TOO_LONG, which failed a CUIT's save on every retry), SQLite keeps any
// length (a 1 MB name answered in every page). Cut to the same size on both databases: the
// columns' sizes in the current schema.
export const textSizes = {
    invoices: sizesOf(schema.invoices, ['counterpart_name']),
    sct: { ...sizesOf(schema.sct_debts, ['establecimiento', 'impuesto', 'concepto', 'subconcepto']), ...sizesOf(schema.sct_due_dates, ['detalle']) },
    ccma: sizesOf(schema.ccma_movements, ['impuesto', 'concepto', 'subconcepto', 'descripcion']),
    dfe: sizesOf(schema.dfe_notifications, ['tipo', 'asunto', 'organismo'])
};

// A storable text of at most `max` characters (code points, as MySQL counts them); a cut
// text ends in "…".
export const fittedText = <T extends string | null>(text: T, max: number): T => {

    const storable = storableText(text);
    if (storable === null || storable.length <= max) {
        return storable;
    }

    const points = Array.from(storable);
    return (points.length <= max ? storable : `${points.slice(0, max - 1).join('')}…`) as T;
};

// A row to insert or update with every text in it storable (storableText), those of `sizes`
// fitted to their columns; the row itself when all of them already are, as they nearly
// always are.
export const storableRow = <T extends Record<string, unknown>>(row: T, sizes: Readonly<Record<string, number>> = {}): T => {

    let copy: Record<string, unknown> | null = null;
    for (const [column, value] of Object.entries(row)) {
        const max = sizes[column];
        const text = typeof value === 'string' ? (max === undefined ? storableText(value) : fittedText(value, max)) : value;
        if (text !== value) {
            copy ??= { ...row };
            copy[column] = text;
        }
    }

    return (copy ?? row) as T;
};
