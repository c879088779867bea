// Fast path (with statements.ts, whose figure it shares): each statement prepared once.
//
// A SQLite connection's statements, each prepared once, and once more where its rows are read
// as arrays (raw mode is a setting of the prepared statement): on the pool's connections
// (statements.ts) and on the reads' own, in its thread (sqlite-read-worker.ts).

interface Preparable<S> {
    prepare(sql: string): S;
}

export const preparedStatement = <S extends { raw(toggle: boolean): unknown }>(
    cache: Map<string, S>,
    connection: Preparable<S>,
    sql: string,
    arrays: boolean
): S => {

    const key = arrays ? `arrays:${sql}` : sql;
    let statement = cache.get(key);
    if (!statement) {
        statement = connection.prepare(sql);
        if (arrays) {
            statement.raw(true);
        }

        cache.set(key, statement);
    }

    return statement;
};
