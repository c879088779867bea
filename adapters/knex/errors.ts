// Unique-index violations, told apart per driver: SQLite's constraint code, MySQL's 1062.
export const isUniqueViolation = (err: unknown): boolean => {

    if (typeof err !== 'object' || err === null) {
        return false;
    }

    const code = (err as { code?: unknown }).code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'ER_DUP_ENTRY';
};
