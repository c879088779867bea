// The part of better-sqlite3's API the bench's lean floor uses (the package ships no types).
declare module 'better-sqlite3' {
    interface Statement {
        all(...bindings: unknown[]): Record<string, unknown>[];
        get(...bindings: unknown[]): Record<string, unknown> | undefined;
    }

    class Database {
        constructor(filename: string);
        prepare(sql: string): Statement;
        pragma(sql: string): unknown;
        close(): void;
    }

    export default Database;
}
