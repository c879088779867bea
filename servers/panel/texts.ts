import type { SubscriptionState } from '../../core/domain/access.js';
import type { HealthState } from '../../core/domain/health.js';
import { formatCount } from './format.js';

// What the panel says (es-AR). Templates take these as values, so they are escaped like
// everything else a page shows.

export const panelTexts = {
    product: 'arcasync',
    skipToContent: 'Saltar al contenido',
    signInTitle: 'Ingresar al panel',
    signInHeading: 'Ingresá a tu estudio',
    email: 'E-mail',
    password: 'Contraseña',
    signInButton: 'Ingresar',
    signOutButton: 'Salir',
    wrongCredentials: 'El e-mail o la contraseña no son correctos.',
    missingCredentials: 'Escribí tu e-mail y tu contraseña.',
    signedOut: 'Cerraste la sesión.',
    sessionEnded: 'Tu sesión terminó. Volvé a ingresar.',
    formExpired: 'El formulario venció o no vino de esta página. Volvé a intentarlo.',
    notFound: 'No encontramos esta página.',
    badPage: 'El número de página no es válido.',
    unavailable: 'El panel no está disponible en este momento. Probá de nuevo en unos minutos.',
    errorTitle: 'Algo salió mal',
    backToPortfolio: 'Volver a la cartera',
    // The copy buttons of what is shown once (copy-once.ts).
    copy: 'Copiar',
    copied: 'Copiado.',
    copyFailed: 'No se pudo copiar: seleccioná el texto y copialo.',
    portfolioTitle: 'La cartera',
    mainNav: 'Principal',
    navTokens: 'Tokens de la API',
    navConnections: 'Asistentes',
    navTags: 'Etiquetas',
    navTeam: 'Equipo',
    select: 'Seleccionar',
    selectionTags: 'Etiqueta para los seleccionados',
    assignTag: 'Asignar a los seleccionados',
    unassignTag: 'Quitar a los seleccionados',
    manageTags: 'Administrar etiquetas',
    importClients: 'Importar clientes desde una planilla',
    clientTags: 'Etiqueta del cliente',
    assignOne: 'Asignar',
    unassignOne: 'Quitar',
    counts: (total: number, attention: number): string => `${formatCount(total)} ${total === 1 ? 'CUIT' : 'CUITs'} · ${formatCount(attention)} ${attention === 1 ? 'requiere' : 'requieren'} atención`,
    summary: 'Resumen de la cartera',
    emptyPortfolio: 'Todavía no hay CUITs en la cartera.',
    nothingMatches: 'Ningún CUIT coincide con la búsqueda o los filtros.',
    search: 'Buscar',
    searchHint: 'Nombre o CUIT, con o sin guiones',
    stateFilter: 'Estado',
    attentionFilter: 'Requiere atención',
    attentionChoices: { true: 'Sí', false: 'No' },
    // The health model's states (core/domain/health.ts), as the filter names them.
    states: {
        ok: 'Al día',
        pendiente: 'Pendiente de sincronizar',
        sin_clave: 'Sin clave fiscal',
        clave_rechazada: 'Clave rechazada',
        clave_bloqueada: 'Clave bloqueada',
        clave_vencida: 'Clave vencida',
        captcha: 'CAPTCHA de ARCA',
        segundo_factor: 'Segundo factor de ARCA',
        no_adherido: 'Servicio no adherido',
        sin_representacion: 'Sin representación',
        irregularidades: 'Irregularidades en ARCA',
        arca_bloqueo: 'ARCA bloqueó los pedidos',
        arca_no_disponible: 'ARCA no disponible',
        formato_desconocido: 'Formato de ARCA desconocido',
        espera_arca: 'En espera de ARCA',
        cuit_invalido: 'CUIT inválido',
        error: 'Error del servicio'
    } satisfies Record<HealthState, string>,
    synced: 'Clientes',
    others: 'Otros',
    othersNote: 'Su primera sincronización con el Sistema Registral todavía no terminó.',
    columns: { name: 'Cliente', cuit: 'CUIT', tags: 'Etiquetas', regime: 'Régimen', lastSync: 'Última sincronización', state: 'Estado' },
    monotributista: (categoria: string | null): string => (categoria ? `Monotributista, categoría ${categoria}` : 'Monotributista'),
    autonomo: 'Autónomo',
    unknownRegime: 'Sin datos',
    never: 'Nunca',
    semaphore: { ok: 'Al día', waiting: 'En espera', attention: 'Requiere atención' },
    filters: 'Filtrar la cartera',
    tagFilter: 'Etiqueta',
    regimeFilter: 'Régimen',
    categoryFilter: 'Categoría',
    any: 'Todas',
    anyRegime: 'Todos',
    regimes: { monotributista: 'Monotributistas', autonomo: 'Autónomos' },
    apply: 'Filtrar',
    clear: 'Quitar filtros',
    pages: 'Páginas',
    previous: 'Anterior',
    next: 'Siguiente',
    pageOf: (page: number, pages: number): string => `Página ${page} de ${pages}`,
    signedInAs: (email: string): string => `Ingresaste como ${email}`,

    accountTitle: 'Mi cuenta',
    changePassword: 'Cambiar la contraseña',
    passwordRules: (min: number): string => `La contraseña nueva debe tener al menos ${min} caracteres. Al cambiarla se cierran todas tus sesiones y se revocan los accesos que autorizaste (por ejemplo, a asistentes por MCP); este navegador sigue con una sesión nueva.`,
    currentPassword: 'Contraseña actual',
    newPassword: 'Contraseña nueva',
    repeatPassword: 'Repetí la contraseña nueva',
    changePasswordButton: 'Cambiar la contraseña',
    passwordChanged: 'Cambiaste tu contraseña. Cerramos tus otras sesiones y revocamos los accesos autorizados con la anterior.',

    subscriptionTitle: 'Suscripción',
    whatToDo: 'Qué hacer',
    accessReturns: 'Cuando la suscripción vuelva a estar activa, el acceso al panel, a la API y a MCP vuelve en el siguiente pedido: no hace falta volver a ingresar ni cambiar los tokens.',
    subscription: {
        active: {
            label: 'Activa',
            explanation: 'Tu suscripción está activa: el panel, la API y MCP funcionan con normalidad.',
            todo: null
        },
        paused: {
            label: 'Pausada por un pago no procesado',
            explanation: 'No se pudo procesar el último pago, así que el acceso a los datos está pausado. Los CUIT y sus datos se conservan.',
            todo: 'Actualizá el medio de pago con el equipo de arcasync (respondé el correo de facturación o escribinos); cuando el pago se procese, reactivamos la suscripción.'
        },
        ended: {
            label: 'Finalizada',
            explanation: 'Tu suscripción finalizó: el panel, la API y MCP no muestran datos.',
            todo: 'Para volver a usar el servicio, pedile al equipo de arcasync que reactive la suscripción.'
        },
        inactive: {
            label: 'Nunca activada',
            explanation: 'Tu suscripción todavía no se activó: el panel, la API y MCP no muestran datos hasta entonces.',
            todo: 'Pedile al equipo de arcasync que active la suscripción para empezar a usar el servicio.'
        }
    } satisfies Record<SubscriptionState, { label: string; explanation: string; todo: string | null }>,
    billedCuits: (count: number): string => (count === 1 ? 'Se factura 1 CUIT.' : `Se facturan ${formatCount(count)} CUITs: todos los de la cuenta, los gestione quien los gestione.`)
};
