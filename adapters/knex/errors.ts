// Unique-index violations, told apart per driver: SQLite's constraint code, MySQL's 1062.
export const isUniqueViolation = (err: unknown): boolean => {

    if (typeof err !== 'object' || err === null) {
        return false;
    }

    const code = (err as { code?: unknown }).code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'ER_DUP_ENTRY';
};

// A row still referenced by a foreign key (delete), or a reference to a row that is gone
// (insert, update): SQLite's constraint code, MySQL's 1451 and 1452.
export const isForeignKeyViolation = (err: unknown): boolean => {

    if (typeof err !== 'object' || err === null) {
        return false;
    }

    const code = (err as { code?: unknown }).code;
    return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'ER_ROW_IS_REFERENCED_2' || code === 'ER_NO_REFERENCED_ROW_2';
};

// A transaction that lost to another over locks and is worth running again: MySQL's deadlock
// (1213) and lock wait timeout (1205), SQLite's busy database.
export const isLockConflict = (err: unknown): boolean => {

    const code = (err as { code?: unknown } | null)?.code;
    return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY';
};
