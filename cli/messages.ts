import type { Role, SubscriptionState } from '../core/domain/access.js';
import type { SyncSystem } from '../core/domain/sync-system.js';

// The command line's own texts: its summaries and its refusals of what was typed. The rules'
// messages are the core's (core/domain/messages.ts).

// A number and its noun, in the singular for one: "1 usuario", "2 usuarios".
export const counted = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

// What staff read where the machine values stand (the options take them, --json keeps them).
export const cliLabels = {
    subscription: {
        active: 'activa',
        paused: 'pausada (no se pudo cobrar el último pago)',
        ended: 'terminada',
        inactive: 'nunca activada'
    } satisfies Record<SubscriptionState, string> as Record<string, string>,
    role: { owner: 'titular', member: 'miembro' } satisfies Record<Role, string> as Record<string, string>,
    system: {
        registry: 'Padrón',
        issued_invoices: 'Comprobantes emitidos',
        received_invoices: 'Comprobantes recibidos',
        sct: 'Cuenta tributaria (SCT)',
        ccma: 'Cuenta corriente (CCMA)',
        dfe: 'Domicilio fiscal (DFE)'
    } satisfies Record<SyncSystem, string> as Record<string, string>,
    delivery: { pending: 'pendiente', delivered: 'entregado', failed: 'fallido' } as Record<string, string>
};

// The label of a machine value; the value itself if it has none.
export const labelOf = (labels: Record<string, string>, value: string): string => labels[value] ?? value;

export const cliMessages = {
    secretUnreadable: (count: number, ids: string): string => (count === 1
        ? `1 credencial guardada no se pudo descifrar (cliente ${ids}): agregá la clave con que se cifró a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`
        : `${count} credenciales guardadas no se pudieron descifrar (clientes ${ids}): agregá la clave con que se cifraron a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`),
    webhookSecretUnreadable: (count: number, ids: string): string => (count === 1
        ? `1 secreto de firma de webhooks no se pudo descifrar (webhook ${ids}): agregá la clave con que se cifró a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`
        : `${count} secretos de firma de webhooks no se pudieron descifrar (webhooks ${ids}): agregá la clave con que se cifraron a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`),
    oauthSecretUnreadable: (count: number, ids: string): string => (count === 1
        ? `1 clave del servidor OAuth no se pudo descifrar (${ids}): agregá la clave con que se cifró a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`
        : `${count} claves del servidor OAuth no se pudieron descifrar (${ids}): agregá la clave con que se cifraron a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`),
    invalidConcurrency: 'La concurrencia debe ser un entero entre 1 y 200.',
    syncSummary: (run: { synced: number; failed: number; waiting: number; invoices: number }): string => `Sincronizados: ${run.synced} CUIT; con error: ${run.failed} CUIT; ${
        run.waiting ? `esperan su turno en ARCA: ${run.waiting} CUIT (se sincronizan solos, sin reintentos que bloqueen la clave); ` : ''}comprobantes guardados: ${run.invoices}.`,
    // New (unproven) keys of a CUIT tried at ARCA this week, against the cap (docs/scaling.md).
    newKeys: (cuit: string, keys: { postsThisWeek: number; cap: number; waiting: boolean }): string => `claves nuevas probadas en ARCA en 7 días: ${keys.postsThisWeek} de ${keys.cap}.${
        keys.waiting ? ` Las claves nuevas del CUIT esperan (no fueron rechazadas) hasta que ingrese una clave que ya funcionó, o hasta 'arcasync sync unblock ${cuit}' si el cliente confirmó su clave con ARCA.` : ''}`,
    newKeysUnblocked: (cuit: string): string => `Las claves nuevas del CUIT ${cuit} pueden volver a probarse en ARCA (una por cuenta y día). Confirmá antes con el cliente que su clave es la correcta: ARCA bloquea la clave fiscal tras varios intentos fallidos.`,
    syncByOthers: (count: number): string => `Otro trabajador sincronizó ${count} CUIT de esta corrida al mismo tiempo; su resultado está en 'arcasync sync status'.`,
    // `authority probe` when no login of the key may start (docs/scaling.md): why (`what`, the
    // failure's Spanish text), and from when it may be tried (null: once a new key is stored).
    probeNotTried: (input: { keyCuit: string; day: string; reason: string; what: string | null; retryDay: string | null; relogins: number }): string => {

        const why = {
            logins_used: `la clave de ${input.keyCuit} ya inició sesión en ARCA hoy (${input.day}) todas las veces permitidas (1 más ${counted(input.relogins, 'reingreso', 'reingresos')}).`,
            day_ended: `la clave de ${input.keyCuit} no vuelve a ingresar a ARCA hoy (${input.day}): ${input.what ?? ''}`,
            key_refused: `la clave de ${input.keyCuit} quedó rechazada: ${input.what ?? ''}`
        }[input.reason] ?? '';
        const when = input.retryDay ? `Se puede probar de nuevo desde el ${input.retryDay} a las 00:00 (hora de Buenos Aires).` : 'Se puede probar de nuevo cuando se guarde una clave nueva.';
        return `No se probó el ingreso: ${why} ${when}`;
    },
    syncFailed: (count: number): string => `${count} CUIT ${count === 1 ? 'terminó' : 'terminaron'} con error (detalle en la salida y en 'arcasync sync status').`,
    addressInUse: (address: string, port: string): string => `El puerto ${port} de ${address} ya está en uso: elegí otro con --port (o PORT; METRICS_PORT para las métricas) o detené el proceso que lo ocupa.`,
    databaseFailure: (database: string, cause: string): string => `No se puede usar la base de datos ${database}: ${cause}.`,
    foreignTable: (table: string): string => `ya tiene una tabla '${table}' que no creó arcasync (usá una base de datos vacía, o la de arcasync)`,
    databaseRefused: (code: string): string => `rechazó una operación (${code})`,
    migrationsUnlocked: 'Bloqueo de migraciones liberado: la próxima migración puede empezar (arcasync migrate).',
    passwordPrompt: (userId: number, min: number): string => `Contraseña para el usuario ${userId} (al menos ${min} caracteres; no se muestra): `,
    passwordAgain: 'Repetila para confirmar: ',
    passwordMismatch: 'Las dos contraseñas no coinciden: la contraseña no cambió. Volvé a ejecutar el comando.',
    noToken: 'Falta ARCASYNC_TOKEN: definí un token de acceso a la API para usar el servidor MCP por stdio.',
    invalidPort: '--port debe ser un número de puerto entre 0 y 65535 (0: uno libre).',
    // `webhook test` when the receiver did not answer 2xx: what happened, and what follows.
    webhookTest: (input: { eventId: string; id: number; status: string; httpStatus: number | null; error: string | null }): string => (input.status === 'delivered'
        ? `Evento de prueba ${input.eventId} al webhook ${input.id}: entregado (respondió ${input.httpStatus}).`
        : `Evento de prueba ${input.eventId} al webhook ${input.id}: no entregado. ${input.error ?? 'Todavía sin intento.'}${
            input.status === 'pending' ? ' Los trabajadores lo reintentan.' : ''}`),
    migrateOneAction: 'Elegí una sola de --status, --down y --unlock.',
    migrateYesAlone: '--yes solo confirma --down: sin --down, migrate no borra nada.',
    migrationStates: (database: string, states: { name: string; batch: number | null }[]): string => {

        const applied = states.filter((state) => state.batch !== null).length;
        const width = Math.max(...states.map((state) => state.name.length));
        return [
            `Migraciones de ${database}: ${counted(applied, 'aplicada', 'aplicadas')}, ${counted(states.length - applied, 'pendiente', 'pendientes')}.`,
            ...states.map((state) => `  ${state.name.padEnd(width)}  ${state.batch === null ? 'pendiente' : `aplicada (lote ${state.batch})`}`)
        ].join('\n');
    },
    nothingToUndo: 'No hay migraciones aplicadas: no hay nada que deshacer.',
    // What undoing the last migration drops, said before it is done.
    downPlan: (plan: { name: string; tables: { name: string; rows: number }[]; columns: string[] }): string => {

        const spoken = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} y ${items.at(-1)!}` : items[0]!);
        const parts = [
            ...plan.tables.length ? [`${plan.tables.length === 1 ? 'la tabla' : 'las tablas'} ${spoken(plan.tables.map((table) => `${table.name} (${counted(table.rows, 'fila', 'filas')})`))}`] : [],
            ...plan.columns.length ? [`${plan.columns.length === 1 ? 'la columna' : 'las columnas'} ${spoken(plan.columns)}`] : []
        ];
        return parts.length
            ? `Deshacer la migración ${plan.name} borra ${parts.join(' y ')}, con todos sus datos.`
            : `Deshacer la migración ${plan.name} no borra tablas ni columnas (puede quitar índices, o borrar o cambiar filas).`;
    },
    downQuestion: '¿La deshago? Escribí "si" para confirmar: ',
    downNeedsYes: (plan: string): string => `${plan} No se deshizo nada: sin una terminal donde preguntar, confirmalo con --yes.`,
    downDeclined: 'No se deshizo ninguna migración.',
    downDone: (name: string): string => `Migración deshecha: ${name}. 'arcasync migrate' la vuelve a aplicar (sin los datos que se borraron).`,
    // Cron's `sync` delivers the outbox before it exits (README: States and webhooks).
    webhooksDelivering: (capMs: number): string => `Entregando los eventos de webhooks pendientes (hasta ${Math.round(capMs / 1000)} s)…`,
    webhooksDelivered: (run: { delivered: number; notDelivered: number }): string => `Webhooks: ${counted(run.delivered, 'evento entregado', 'eventos entregados')}${
        run.notDelivered ? `; ${counted(run.notDelivered, 'intento fallido', 'intentos fallidos')} (se reintentan más tarde)` : ''}.`,
    webhooksWaiting: (events: number, oldestAt: string): string => `Atención: ${counted(events, 'evento de webhooks espera', 'eventos de webhooks esperan')
    } sin ningún intento de entrega desde ${oldestAt}; los entregan 'arcasync sync worker', 'arcasync serve --worker' y, al terminar, 'arcasync sync': corré alguno.`
} as const;
