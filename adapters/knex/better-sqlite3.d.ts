// The part of better-sqlite3's API used directly, beside knex's query builder: fixed SQL on
// the pool's connections (statements.ts), the reads' own connection (sqlite-reader.ts) and
// the bench's lean floor (the package ships no types).
declare module 'better-sqlite3' {
    export interface Statement {
        all(...bindings: unknown[]): Record<string, unknown>[];
        get(...bindings: unknown[]): Record<string, unknown> | undefined;
        run(...bindings: unknown[]): { changes: number; lastInsertRowid: number | bigint };
        raw(toggle: boolean): Statement;
        readonly readonly: boolean;
    }

    class Database {
        // fileMustExist: a look that creates nothing (migration-guard.ts); timeout: busy wait in ms.
        constructor(filename: string, options?: { fileMustExist?: boolean; timeout?: number });
        prepare(sql: string): Statement;
        pragma(sql: string): unknown;
        close(): void;
    }

    export default Database;
}
