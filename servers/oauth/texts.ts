// What the OAuth authorization server says to people: its Spanish pages (sign-in and consent,
// errors) and the answers of its own endpoints.

export const texts = {
    pageTitle: 'Autorizar acceso a arcasync',
    heading: 'Autorizar una aplicación',
    clientAsks: (client: string): string => `La aplicación «${client}» pide acceso a tu cuenta de arcasync.`,
    scopeTitle: 'Podrá, en modo de solo lectura:',
    scopeItems: [
        'ver los CUIT que gestionás;',
        'consultar sus comprobantes emitidos y recibidos, la cuenta corriente (SCT), la cuenta de monotributo y autónomos (CCMA) y las notificaciones del domicilio fiscal electrónico (DFE).'
    ],
    scopeNoWrite: 'No podrá crear, modificar ni borrar nada.',
    redirectNote: (uri: string): string => `Al terminar, volverás a ${uri}.`,
    signInLegend: 'Ingresá con tu email y contraseña de arcasync',
    email: 'Email',
    password: 'Contraseña',
    allow: 'Permitir',
    deny: 'Denegar',
    invalidCredentials: 'El email o la contraseña no son correctos.',
    registrationThrottled: 'Se registraron demasiadas aplicaciones desde esta dirección. Esperá una hora y volvé a intentar.',
    registrationFull: 'No se pueden registrar más aplicaciones en este servidor. Escribinos para liberar espacio.',
    forbiddenForm: 'El formulario no se envió desde esta página. Volvé a iniciar la conexión desde la aplicación.',
    denied: 'El usuario denegó el acceso.',
    expired: 'La solicitud de autorización venció o ya fue usada. Volvé a iniciar la conexión desde la aplicación.',
    errorTitle: 'No se pudo completar la autorización',
    invalidTarget: 'El recurso solicitado no es válido: los tokens solo se emiten para el endpoint MCP.',
    unknownClient: 'aplicación sin nombre'
} as const;
