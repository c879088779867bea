// What operators read when configuration or the database is not what a process needs, and
// what the demo refuses before writing anything.

export const operatorMessages = {
    secretKeyMissing: 'Falta ARCASYNC_SECRET_KEY: es obligatoria cuando DATABASE_URL no es la base embebida. Generá una clave con `openssl rand -base64 32`.',
    noDatabase: (path: string): string => `No hay base de datos en ${path}: creala con 'arcasync migrate' (o 'npm start' para la demostración), o indicá otra con DATABASE_URL.`,
    demoForeignDatabase: (database: string, embedded: boolean): string => `La demostración no usa ${database}: esa base no está vacía y no la creó la demostración, y quedó como estaba. ${embedded ? 'Para la demostración indicá una base nueva con DATABASE_URL (por ejemplo DATABASE_URL=sqlite:./data/demo.sqlite)' : 'Para la demostración quitá DATABASE_URL o apuntala a una base vacía'}; para servir esta base usá 'arcasync serve'.`,
    demoRunning: (process: string): string => `La demostración ya está en marcha sobre esta base de datos (${process}): usá el token y la contraseña que imprimió, o detenela con Ctrl+C antes de iniciarla de nuevo.`,
    knexUndo: (command: string): string => `'${command}' no se usa con arcasync: deshace ${
        command === 'migrate:rollback' ? 'un lote entero de migraciones (en una instalación normal, todas: cada tabla con sus datos)' : 'una migración'
    } sin preguntar ni decir qué borra. Usá 'arcasync migrate --down', que deshace una sola, dice qué tablas borra y pide confirmación.`,
    databaseUnusable: (database: string, cause: string): string => `No se puede usar la base de datos ${database}: ${cause}.`
} as const;
