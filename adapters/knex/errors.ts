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

// Why a database cannot be used, by driver code, for the front ends' 503 (DatabaseStatus) and
// the CLI's one line: the connection refused or lost, the server or the database unknown, the
// user refused, a file that cannot be opened; or busy, another holding the lock it waits for.
const internals = {
    unavailable: new Set([
        'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE',
        'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT', 'ER_SERVER_SHUTDOWN', 'ER_CON_COUNT_ERROR', 'ER_TOO_MANY_USER_CONNECTIONS',
        'ER_BAD_DB_ERROR', 'ER_ACCESS_DENIED_ERROR', 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR', 'ER_DBACCESS_DENIED_ERROR',
        'SQLITE_CANTOPEN', 'SQLITE_IOERR', 'SQLITE_NOTADB', 'SQLITE_READONLY', 'SQLITE_FULL', 'ARCASYNC_UNSUPPORTED_SERVER'
    ]),
    busy: new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']),

    code(err: unknown): string {

        const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
        if (typeof code === 'string') {
            // SQLite's extended codes (SQLITE_IOERR_SHORT_READ, SQLITE_BUSY_SNAPSHOT) by their family.
            const family = /^(SQLITE_[A-Z]+)_/.exec(code)?.[1];
            return family && (internals.unavailable.has(family) || internals.busy.has(family)) ? family : code;
        }

        return name === 'KnexTimeoutError' ? 'KNEX_TIMEOUT' : '';
    }
};

export type DatabaseFailureKind = 'unavailable' | 'busy';

export const databaseFailureKind = (err: unknown): DatabaseFailureKind | null => {

    const code = internals.code(err);
    if (internals.busy.has(code) || code === 'KNEX_TIMEOUT') {
        return 'busy';
    }

    return internals.unavailable.has(code) ? 'unavailable' : null;
};

// What an operator reads on the CLI: the cause in Spanish, naming what to check; null when
// the error is not the database's.
export const databaseFailureCause = (err: unknown): string | null => {

    const code = internals.code(err);
    const { address, port, hostname, sqlMessage, message } = (err ?? {}) as {
        address?: unknown;
        port?: unknown;
        hostname?: unknown;
        sqlMessage?: unknown;
        message?: unknown;
    };
    // The first or the last name the server's message quotes: 'user'@'host' to database 'db'.
    const quoted = (text: unknown, last = false) => {

        const names = [...String(text ?? '').matchAll(/'([^']*)'/g)].map((match) => match[1]!);
        return (last ? names.at(-1) : names[0]) ?? '';
    };
    switch (code) {
        case 'ECONNREFUSED': return `el servidor rechazó la conexión${address ? ` en ${String(address)}:${String(port)}` : ''} (¿está en marcha y escucha en ese puerto?)`;
        case 'ENOTFOUND':
        case 'EAI_AGAIN': return `no se encontró el servidor ${String(hostname ?? '')} (revisá el nombre del host)`;
        case 'ETIMEDOUT':
        case 'EHOSTUNREACH':
        case 'ENETUNREACH':
        case 'KNEX_TIMEOUT':
        case 'PROTOCOL_SEQUENCE_TIMEOUT': return 'el servidor no respondió a tiempo';
        case 'ECONNRESET':
        case 'EPIPE':
        case 'PROTOCOL_CONNECTION_LOST':
        case 'ER_SERVER_SHUTDOWN': return 'el servidor cortó la conexión';
        case 'ER_CON_COUNT_ERROR':
        case 'ER_TOO_MANY_USER_CONNECTIONS': return 'el servidor no acepta más conexiones';
        case 'ER_BAD_DB_ERROR': return `no existe la base de datos '${quoted(sqlMessage)}' en el servidor (creala con CREATE DATABASE o corregí el nombre)`;
        case 'ER_ACCESS_DENIED_ERROR':
        case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR': return `el servidor rechazó el usuario '${quoted(sqlMessage)}' o su contraseña`;
        case 'ER_DBACCESS_DENIED_ERROR': return `el usuario no tiene acceso a la base de datos '${quoted(sqlMessage, true)}'`;
        case 'SQLITE_CANTOPEN': return 'no se puede abrir el archivo de la base de datos (¿existe su carpeta y se puede escribir en ella?)';
        case 'SQLITE_NOTADB': return 'el archivo no es una base de datos SQLite';
        case 'SQLITE_READONLY': return 'el archivo de la base de datos es de solo lectura';
        case 'SQLITE_FULL': return 'el disco de la base de datos está lleno';
        case 'SQLITE_IOERR': return 'error de lectura o escritura en el archivo de la base de datos';
        case 'SQLITE_BUSY':
        case 'SQLITE_LOCKED': return 'otro proceso tiene la base de datos bloqueada';
        case 'ARCASYNC_UNSUPPORTED_SERVER':
        case 'ARCASYNC_MIGRATION_LOCKED':
        case 'ARCASYNC_FOREIGN_DATABASE':
        case 'ARCASYNC_MIGRATION_MOVED': return String(message);
        default: return null;
    }
};
