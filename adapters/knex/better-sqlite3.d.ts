// The part of better-sqlite3's API used directly, beside knex: the reads' own connection
// (sqlite-reader.ts) and the bench's lean floor (the package ships no types).
declare module 'better-sqlite3' {
    export interface Statement {
        all(...bindings: unknown[]): Record<string, unknown>[];
        get(...bindings: unknown[]): Record<string, unknown> | undefined;
        raw(toggle: boolean): Statement;
        readonly readonly: boolean;
    }

    class Database {
        constructor(filename: string);
        prepare(sql: string): Statement;
        pragma(sql: string): unknown;
        close(): void;
    }

    export default Database;
}
