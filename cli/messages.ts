// The command line's own texts: its summaries and its refusals of what was typed. The rules'
// messages are the core's (core/domain/messages.ts).

export const cliMessages = {
    secretUnreadable: (count: number, ids: string): string => `${count} credenciales guardadas no se pudieron descifrar (clientes ${ids}): agregá la clave con que se cifraron a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`,
    webhookSecretUnreadable: (count: number, ids: string): string => `${count} secretos de firma de webhooks no se pudieron descifrar (webhooks ${ids}): agregá la clave con que se cifraron a ARCASYNC_SECRET_KEYS y volvé a ejecutar el comando.`,
    invalidConcurrency: 'La concurrencia debe ser un entero entre 1 y 200.',
    syncSummary: (run: { synced: number; failed: number; invoices: number }): string => `Sincronizados: ${run.synced} CUIT; con error: ${run.failed} CUIT; comprobantes guardados: ${run.invoices}.`,
    syncByOthers: (count: number): string => `Otro trabajador sincronizó ${count} CUIT de esta corrida al mismo tiempo; su resultado está en 'arcasync sync status'.`,
    syncFailed: (count: number): string => `${count} CUIT ${count === 1 ? 'terminó' : 'terminaron'} con error (detalle en la salida y en 'arcasync sync status').`,
    addressInUse: (address: string, port: string): string => `El puerto ${port} de ${address} ya está en uso: elegí otro con --port (o PORT; METRICS_PORT para las métricas) o detené el proceso que lo ocupa.`,
    databaseFailure: (database: string, cause: string): string => `No se puede usar la base de datos ${database}: ${cause}.`,
    noToken: 'Falta ARCASYNC_TOKEN: definí un token de acceso a la API para usar el servidor MCP por stdio.'
} as const;
