// Dialect differences in what rows carry: SQLite and MySQL both hand booleans back as 0/1.

export const toBoolean = (value: unknown): boolean => value === true || value === 1 || value === '1';

export const toNullableBoolean = (value: unknown): boolean | null => (value === null || value === undefined ? null : toBoolean(value));

export const toNumber = (value: unknown): number => Number(value);

export const toNullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export const countOf = (row: Record<string, unknown> | undefined): number => Number(row?.count ?? 0);
