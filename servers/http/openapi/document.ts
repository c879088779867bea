import type { Server } from '@hapi/hapi';
import { maxAgendaDays } from '../../../core/domain/agenda.js';
import { messages } from '../../../core/domain/messages.js';
import { maxIvaMonths } from '../../../core/use-cases/iva-position.js';
import { maxLimit, pageDefaults } from '../../../core/domain/pagination.js';
import { defaultRateLimits } from '../../../core/domain/rate-limit.js';
import type { ReadParameterName } from '../../../core/domain/read-request.js';
import { cuitPathParameter, monthRangeParameters, parameterSchemas, periodPageSchemas } from '../../contract/parameters.js';
import type { Schema } from '../../contract/parameters.js';
import type { BodySchemaName } from '../../contract/schemas.js';
import { answerSchemas, bodySchemas, componentSchemas, newCuitBody, requestSchemas } from '../../contract/schemas.js';
import { httpMessages } from '../messages.js';

// The published OpenAPI 3.1 document (docs/api.md). Each read route names the parameters its use
// case parses; they and the bodies are described once in servers/contract, which the MCP tools
// share. Every route of the API must have an entry below, or building the document fails:
// the document cannot silently fall behind the code. Operations come in the spec's order.

const readErrors = [400, 401, 403, 404, 429, 500] as const;

interface Operation {
    // A stable, readable name for generated clients.
    operationId: string;
    // For bodies the core validates (the write side): the schema generated from the contract
    // (../../contract/schemas.ts) and the examples /docs offers, by name.
    requestBody?: { schema: Schema; examples: Record<string, { summary: string; value: unknown }> };
    // The messages a status answers here, when they are not the usual ones (errorExamples).
    errorExamples?: Partial<Record<number, Record<string, string>>>;
    summary: string;
    description: string;
    tag: 'Salud' | 'CUIT' | 'Comprobantes' | 'Cuentas' | 'Notificaciones' | 'Etiquetas' | 'Estado' | 'Monotributo' | 'Vencimientos' | 'IVA';
    success: { status: 200 | 201 | 204; body: BodySchemaName | 'text' | null; description: string };
    errors: readonly number[];
}

const examples = {
    // A request body's, as the contract gives it (../../contract/schemas.ts).
    body: (component: string, index: number): unknown => (requestSchemas[component]!.examples as unknown[])[index],

    subscription: {
        'suscripcion-pausada': messages.subscriptionPaused,
        'suscripcion-inactiva': messages.subscriptionInactive
    },

    // Storing a clave fiscal while the installation's secret behind its identity cannot be read.
    keyStore: { 'clave-de-cifrado': messages.clientWrite.keyIdentityUnavailable }
};

const internals = {
    // How a user gets a token (issue 38): staff create it today; the panel's tokens page comes
    // with the issue that adds the panel's management pages.
    bearerDescription: 'Token de acceso de un usuario, en `Authorization: Bearer <token>`. Cómo se obtiene: hoy lo crea el equipo de arcasync ' +
        'para el usuario (`arcasync token create --user ID`) y se muestra una sola vez; pedilo a quien administra tu cuenta. El token ve lo ' +
        'mismo que su usuario en el panel (`/panel`): el dueño, todos los CUIT de la cuenta; un miembro, los asignados. La página de tokens ' +
        'del panel, donde cada usuario generará y revocará los suyos, llega más adelante. Los clientes MCP también pueden obtenerlo con ' +
        'OAuth 2.1: el usuario ingresa con su e-mail y la contraseña del panel.',


    // The message each status answers, as the API says it, unless an operation says others.
    get errorExamples(): Record<number, Record<string, string>> {

        return {
            400: { 'limit-invalido': messages.field.limit, 'parametro-desconocido': messages.unknownParameter('fromDate') },
            401: { 'token-invalido': messages.unauthenticated },
            403: examples.subscription,
            404: { 'cuit-inexistente': messages.notFound },
            409: { conflicto: messages.cuitTaken },
            415: { 'tipo-de-contenido': httpMessages.unsupportedMediaType },
            429: { 'limite-superado': messages.rateLimited },
            500: { 'error-interno': messages.internal }
        };
    },

    errorDescriptions: {
        400: 'Parámetros o cuerpo inválidos; el mensaje nombra cada campo que falla.',
        401: `Token ausente o inválido: "${messages.unauthenticated}"`,
        403: 'Suscripción no activa (pausada por falta de pago, o finalizada o nunca activada), o escritura por API no habilitada.',
        404: `CUIT inexistente o de otra cuenta (respuesta idéntica): "${messages.notFound}"`,
        409: 'Conflicto con el estado actual.',
        415: 'El cuerpo no se envió como application/json.',
        429: `Límite de solicitudes superado: "${messages.rateLimited}"`,
        500: `Error interno: "${messages.internal}"`
    } as Record<number, string>,

    operations: {
        'GET /healthcheck': {
            operationId: 'healthcheck',
            summary: 'Estado del servicio',
            description: 'Sin autenticación; no consume cuota.',
            tag: 'Salud',
            success: { status: 200, body: 'text', description: 'El servicio está en funcionamiento y su base de datos responde.' },
            errors: []
        },
        'GET /v1/cuits': {
            operationId: 'listCuits',
            summary: 'Listar CUIT',
            description: 'Los CUIT que gestiona el usuario del token, ordenados por nombre y, a igual nombre, por identificador interno. Los filtros se combinan con Y; varias etiquetas, con O.',
            tag: 'CUIT',
            success: { status: 200, body: 'cuitList', description: 'Página de CUIT.' },
            errors: [400, 401, 403, 429, 500]
        },
        'POST /v1/cuits': {
            operationId: 'createCuit',
            summary: 'Crear un CUIT',
            description: 'Crea un cliente (persona física o jurídica, según `tipo`) y dispara su primera sincronización. Requiere la escritura por API habilitada.',
            requestBody: {
                schema: newCuitBody,
                examples: {
                    'persona-fisica': { summary: 'Persona física (con su clave fiscal)', value: examples.body('NewPhysicalPerson', 0) },
                    'persona-juridica': { summary: 'Persona jurídica (con su representante)', value: examples.body('NewLegalEntity', 0) }
                }
            },
            errorExamples: {
                400: { 'campo-obligatorio': messages.clientWrite.required('clave_arca'), 'representante': messages.clientWrite.representativeNotFound },
                403: { 'escritura-deshabilitada': messages.writingDisabled, ...examples.subscription },
                409: { 'cuit-registrado': messages.cuitTaken },
                503: examples.keyStore
            },
            tag: 'CUIT',
            success: { status: 201, body: 'cuit', description: 'CUIT creado.' },
            errors: [400, 401, 403, 409, 415, 429, 500]
        },
        'PATCH /v1/cuits/{cuit}': {
            operationId: 'updateCuit',
            summary: 'Editar un CUIT',
            description: 'Semántica merge-patch (RFC 7396): un campo ausente queda igual; `null` borra y solo se admite en `email` y `telefono`. Requiere la escritura por API habilitada.',
            requestBody: {
                schema: { $ref: '#/components/schemas/CuitPatch' },
                examples: {
                    contacto: { summary: 'Cambiar el email y borrar el teléfono', value: examples.body('CuitPatch', 0) },
                    nombre: { summary: 'Persona física: cambiar el nombre', value: examples.body('CuitPatch', 1) },
                    representante: { summary: 'Persona jurídica: cambiar el representante', value: examples.body('CuitPatch', 2) }
                }
            },
            errorExamples: {
                400: {
                    'sin-campos': messages.clientWrite.emptyPatch,
                    'no-se-borra': messages.clientWrite.notNullable('nombre'),
                    'cuit-o-tipo': messages.clientWrite.immutable
                },
                403: { 'escritura-deshabilitada': messages.writingDisabled, ...examples.subscription },
                503: examples.keyStore
            },
            tag: 'CUIT',
            success: { status: 200, body: 'cuit', description: 'CUIT actualizado.' },
            errors: [400, 401, 403, 404, 415, 429, 500]
        },
        'DELETE /v1/cuits/{cuit}': {
            operationId: 'deleteCuit',
            summary: 'Eliminar un CUIT',
            description: 'Elimina el CUIT y todo lo sincronizado de él; cancela sus sincronizaciones pendientes. Irreversible. Requiere la escritura por API habilitada.',
            tag: 'CUIT',
            success: { status: 204, body: null, description: 'Eliminado; sin cuerpo.' },
            errorExamples: {
                400: { 'cuit-invalido': messages.field.cuitPath },
                403: { 'escritura-deshabilitada': messages.writingDisabled, ...examples.subscription },
                409: { 'representante': messages.clientWrite.representsEntities }
            },
            errors: [400, 401, 403, 404, 409, 429, 500]
        },
        'GET /v1/cuits/{cuit}/mis-comprobantes/emitidos': {
            operationId: 'listIssuedInvoices',
            summary: 'Comprobantes emitidos',
            description: 'Comprobantes emitidos del período, ordenados por fecha. `from_date` y `to_date` van juntos o ninguno; sin ellos, el mes en curso (UTC).',
            tag: 'Comprobantes',
            success: { status: 200, body: 'issuedInvoices', description: 'Página de comprobantes emitidos.' },
            errorExamples: { 400: { 'periodo-incompleto': messages.dateRangeIncomplete } },
            errors: readErrors
        },
        'GET /v1/cuits/{cuit}/mis-comprobantes/recibidos': {
            operationId: 'listReceivedInvoices',
            summary: 'Comprobantes recibidos',
            description: 'Comprobantes recibidos del período, ordenados por fecha. Mismas reglas que los emitidos.',
            tag: 'Comprobantes',
            success: { status: 200, body: 'receivedInvoices', description: 'Página de comprobantes recibidos.' },
            errorExamples: { 400: { 'periodo-incompleto': messages.dateRangeIncomplete } },
            errors: readErrors
        },
        'GET /v1/cuits/{cuit}/sct': {
            operationId: 'getSct',
            summary: 'Sistema de Cuentas Tributarias',
            description: 'Deudas, vencimientos y declaraciones juradas. `data` es null si nunca se sincronizó.',
            tag: 'Cuentas',
            success: { status: 200, body: 'sct', description: 'Estado de la cuenta tributaria.' },
            errorExamples: { 400: { 'cuit-invalido': messages.field.cuitPath } },
            errors: readErrors
        },
        'GET /v1/cuits/{cuit}/ccma': {
            operationId: 'getCcmaBalances',
            summary: 'Saldos de la CCMA',
            description: 'Saldo deudor y acreedor de la cuenta corriente de monotributo y autónomos. Un saldo null significa que la autoridad no lo informó, distinto de cero.',
            tag: 'Cuentas',
            success: { status: 200, body: 'ccma', description: 'Saldos.' },
            errorExamples: { 400: { 'cuit-invalido': messages.field.cuitPath } },
            errors: readErrors
        },
        'GET /v1/cuits/{cuit}/ccma/movimientos': {
            operationId: 'listCcmaMovements',
            summary: 'Movimientos de la CCMA',
            description: 'Paginados por período: `limit` y `offset` cuentan períodos, del más reciente al más antiguo; cada página trae todos los movimientos de sus períodos, por `orden`.',
            tag: 'Cuentas',
            success: { status: 200, body: 'ccmaMovements', description: 'Movimientos de los períodos de la página.' },
            errors: readErrors
        },
        'GET /v1/cuits/{cuit}/dfe': {
            operationId: 'listNotifications',
            summary: 'Notificaciones del domicilio fiscal electrónico',
            description: 'Notificaciones, de la más reciente a la más antigua.',
            tag: 'Notificaciones',
            success: { status: 200, body: 'notifications', description: 'Página de notificaciones.' },
            errors: readErrors
        },
        'GET /v1/tags': {
            operationId: 'listTags',
            summary: 'Etiquetas',
            description: 'Las etiquetas de la cuenta, ordenadas por nombre.',
            tag: 'Etiquetas',
            success: { status: 200, body: 'tags', description: 'Página de etiquetas.' },
            errors: [400, 401, 403, 429, 500]
        },
        'GET /v1/cuits/{cuit}/estado': {
            operationId: 'getCuitHealth',
            summary: 'Estado de sincronización de un CUIT',
            description: 'Si arcasync puede leer el CUIT en ARCA y, si no, por qué y qué hacer: el estado de cada sistema (desde cuándo, la última sincronización exitosa y el último intento) y el de la clave fiscal con que se ingresa, que comparten todos los CUIT que esa clave alcanza. No programa ni fuerza sincronizaciones.',
            tag: 'Estado',
            success: { status: 200, body: 'cuitHealth', description: 'Estado del CUIT.' },
            errors: readErrors
        },
        'GET /v1/estados': {
            operationId: 'listPortfolioHealth',
            summary: 'Estado de sincronización de la cartera',
            description: 'El estado de cada CUIT que gestiona el usuario, en el orden del listado de CUIT. `estado` (repetible, se combinan con O) y `requiere_atencion` filtran; por ejemplo `requiere_atencion=true` responde qué CUIT necesitan que alguien haga algo.',
            tag: 'Estado',
            success: { status: 200, body: 'portfolioHealth', description: 'Página de estados.' },
            errors: [400, 401, 403, 429, 500]
        },
        'GET /v1/cuits/{cuit}/monotributo': {
            operationId: 'getMonotributoControl',
            summary: 'Control de monotributo de un CUIT',
            description: 'Para un monotributista (según el sistema registral): lo facturado en los 12 meses completos anteriores al actual (hora de Buenos Aires) contra el tope de su categoría en la tabla vigente hoy y contra el de K, la categoría que corresponde a lo facturado, las compras contra los umbrales de exclusión (80 % bienes, 40 % servicios del tope de K), la próxima recategorización y el mes en que se superaría el tope al ritmo de los últimos 3 meses; al lado, `data.arca`: el facturómetro y la ventana de recategorización que informa ARCA, leídos en la sincronización diaria (null si nunca se leyeron). Si no es monotributista, `data.aplica` es false y `data.motivo` dice por qué. Reglas y fuentes: docs/answers.md.',
            tag: 'Monotributo',
            success: { status: 200, body: 'monotributo', description: 'Control de monotributo.' },
            errorExamples: { 400: { 'cuit-invalido': messages.field.cuitPath } },
            errors: readErrors
        },
        'GET /v1/monotributo': {
            operationId: 'listMonotributoPortfolio',
            summary: 'Control de monotributo de la cartera',
            description: 'Los monotributistas que gestiona el usuario, del mayor uso del tope de su categoría al menor (los de categoría desconocida al final; a igual uso, por nombre). `riesgo` filtra (repetible, se combinan con O): por ejemplo `riesgo=tope_cerca&riesgo=tope_superado` responde quién está cerca del tope o lo pasó.',
            tag: 'Monotributo',
            success: { status: 200, body: 'monotributoPortfolio', description: 'Página del control de la cartera.' },
            errorExamples: { 400: { 'riesgo-invalido': messages.field.riesgo } },
            errors: [400, 401, 403, 429, 500]
        },
        'GET /v1/vencimientos': {
            operationId: 'listAgenda',
            summary: 'Vencimientos de la cartera',
            description: `Lo que vence entre \`desde\` y \`hasta\` (por omisión, de hoy a 30 días) para todos los CUIT que gestiona el usuario, ordenado por fecha y CUIT: vencimientos, deudas y declaraciones juradas del SCT, el pago mensual del monotributo (día 20, o el hábil siguiente si cae en fin de semana o feriado nacional) y el último día de cada recategorización. Hasta ${maxAgendaDays} días por consulta.`,
            tag: 'Vencimientos',
            success: { status: 200, body: 'agenda', description: 'Página de vencimientos.' },
            errorExamples: { 400: { 'periodo-largo': messages.answerRange.tooManyDays(maxAgendaDays), 'periodo-invertido': messages.answerRange.inverted } },
            errors: [400, 401, 403, 429, 500]
        },
        'GET /v1/cuits/{cuit}/iva': {
            operationId: 'getIvaPosition',
            summary: 'Posición de IVA de un Responsable Inscripto',
            description: 'Por mes entre `desde` y `hasta` (AAAA-MM; por omisión los 12 meses que terminan en el actual): débito fiscal (A, B y M emitidos, notas de crédito restando), crédito fiscal (A y M recibidos, notas de crédito restando; B y C no dan crédito), saldo técnico y comprobantes contados, en pesos (`iva` × `tipoCambio`). `data.excluye` dice lo que no incluye (percepciones, retenciones, saldos a favor anteriores). Para un monotributista `data.aplica` es false.',
            tag: 'IVA',
            success: { status: 200, body: 'iva', description: 'Posición de IVA.' },
            errorExamples: { 400: { 'mes-invalido': messages.field.desdeMes, 'periodo-largo': messages.answerRange.tooManyMonths(maxIvaMonths) } },
            errors: readErrors
        }
    } as Record<string, Operation>,

    introduction: [
        'Datos fiscales sincronizados una vez por día desde ARCA para los CUIT que gestiona cada cuenta: comprobantes emitidos y recibidos, cuenta corriente tributaria (SCT), cuenta de monotributo y autónomos (CCMA), notificaciones del domicilio fiscal electrónico (DFE) y clasificación registral. Cada respuesta trae `syncedAt`, el momento de la última sincronización exitosa.',
        '',
        '## Tokens',
        'Cada solicitud, salvo `GET /healthcheck`, lleva `Authorization: Bearer <token>`. Por ahora los tokens los crea el equipo de arcasync para un usuario (`arcasync token create --user ID`); el panel permitirá que cada usuario genere los suyos. El token actúa con los permisos de su usuario: solo ve los CUIT que ese usuario gestiona. Un CUIT ajeno responde igual que uno inexistente (404).',
        '',
        '## Límites',
        `Por usuario (no por token): ${defaultRateLimits.perMinute} solicitudes por minuto y ${defaultRateLimits.perMonth} por mes calendario en UTC. Cada respuesta a una solicitud autenticada trae \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` y \`X-RateLimit-Reset\` del límite más cercano a agotarse. Al superarlo, 429 con \`Retry-After\`; si \`X-RateLimit-Limit\` es ${defaultRateLimits.perMonth}, esperar segundos no ayuda.`,
        '',
        '## Paginación',
        `\`limit\` (1 a ${maxLimit}, ${pageDefaults.limit} por omisión) y \`offset\` (desde ${pageDefaults.offset}); \`pagination.total\` cuenta todos los registros de la consulta. El orden es estable, así que recorrer las páginas no saltea ni repite registros. Cada página consume una solicitud de la cuota.`,
        '',
        '## Errores',
        'Siempre `{"error": "<mensaje en castellano>"}`; si fallan varios parámetros, sus mensajes van juntos. Reintentá 429 y 503 (tras `Retry-After`) y 500 (con espera exponencial); no reintentes 400, 401, 403, 404, 409 ni 415.'
    ].join('\n'),

    tagDescriptions: {
        Salud: 'Estado del servicio.',
        CUIT: 'Los clientes (CUIT) de la cuenta: listado y, con la escritura por API habilitada, alta, edición y baja.',
        Comprobantes: 'Mis Comprobantes: facturas emitidas y recibidas.',
        Cuentas: 'Sistema de Cuentas Tributarias (SCT) y cuenta corriente de monotributo y autónomos (CCMA).',
        Notificaciones: 'Domicilio fiscal electrónico (DFE).',
        Etiquetas: 'Etiquetas de la cuenta.',
        Estado: 'Salud de la sincronización: qué CUIT no se pueden leer en ARCA, desde cuándo y qué tiene que hacer el contador.',
        Monotributo: 'Control de topes, exclusión y recategorización de monotributistas.',
        Vencimientos: 'La agenda de vencimientos de la cartera.',
        IVA: 'Posición de IVA de Responsables Inscriptos.'
    } satisfies Record<Operation['tag'], string>,

    // On every answer to a counted request (not the health check): the limit closest to
    // running out.
    usageHeaders: {
        'X-RateLimit-Limit': { description: `el límite más cercano a agotarse: ${defaultRateLimits.perMinute} (por minuto) o ${defaultRateLimits.perMonth} (por mes calendario UTC)`, schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'solicitudes que quedan de ese límite', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'instante Unix en que se renueva ese límite', schema: { type: 'integer' } }
    },

    rateLimitHeaders: {
        'Retry-After': { description: 'segundos a esperar', schema: { type: 'integer' } },
        'X-RateLimit-Limit': { description: `el límite superado: ${defaultRateLimits.perMinute} (por minuto) o ${defaultRateLimits.perMonth} (por mes calendario UTC)`, schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'siempre 0 en un 429', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'instante Unix en que se libera el límite', schema: { type: 'integer' } }
    },

    // A {cuit} in the path is the path's; every other parameter is the query's. A write route
    // checks its {cuit} itself and names no parameters.
    parameters(route: RouteLike): Schema[] {

        const app = route.settings.app ?? {};
        const names = new Set<ReadParameterName>(app.parameters ?? []);
        if (route.path.includes('{cuit}')) {
            names.add('cuit');
        }

        return [...names].map((name) => {

            const inPath = name === 'cuit' && route.path.includes('{cuit}');
            const schema = inPath ? cuitPathParameter
                : (app.pagesCount === 'periods' && (name === 'limit' || name === 'offset')) ? periodPageSchemas[name]
                    : (app.variant === 'months' && (name === 'desde' || name === 'hasta')) ? monthRangeParameters[name] : parameterSchemas[name];
            const { description, examples, ...rest } = schema as Schema & { description: string; examples?: unknown[] };
            return {
                name,
                in: inPath ? 'path' : 'query',
                required: inPath,
                description,
                ...(rest.type === 'array' ? { style: 'form', explode: true } : {}),
                schema: rest,
                ...(examples ? { example: examples[0] } : {})
            };
        });
    },

    responses(operation: Operation): Schema {

        const responses: Schema = {};
        const { success } = operation;
        const usage = operation.errors.includes(429) ? { headers: internals.usageHeaders } : {};
        if (success.body === 'text') {
            responses[success.status] = { description: success.description, content: { 'text/plain': { schema: { type: 'string', const: 'OK' } } } };
        }
        else if (success.body === null) {
            responses[success.status] = { description: success.description, ...usage };
        }
        else {
            responses[success.status] = { description: success.description, ...usage, content: { 'application/json': { schema: { $ref: `#/components/schemas/${internals.bodyName(success.body)}` } } } };
        }

        for (const status of operation.errors) {
            const messagesOf = operation.errorExamples?.[status] ?? internals.errorExamples[status]!;
            responses[status] = {
                description: internals.errorDescriptions[status],
                ...(status === 429 ? { headers: internals.rateLimitHeaders } : {}),
                content: {
                    'application/json': {
                        schema: { $ref: '#/components/schemas/Error' },
                        examples: Object.fromEntries(Object.entries(messagesOf).map(([name, message]) => [name, { value: { error: message } }]))
                    }
                }
            };
        }

        // Every operation, the health check included, while the database cannot be reached;
        // those that store a clave fiscal also while its identity secret cannot be read.
        const retryAfter = { 'Retry-After': { description: 'segundos a esperar antes de reintentar', schema: { type: 'integer' } } };
        const keyStore = operation.errorExamples?.[503];
        const examples503 = { 'sin-base-de-datos': messages.unavailable, ...keyStore };
        responses[503] = success.body === 'text'
            ? { description: `La base de datos no responde: "${messages.unavailable}"`, headers: retryAfter, content: { 'text/plain': { schema: { type: 'string' } } } }
            : {
                description: keyStore
                    ? `Servicio no disponible por ahora: la base de datos no responde ("${messages.unavailable}"), o no se puede leer el secreto de las claves fiscales ("${messages.clientWrite.keyIdentityUnavailable}", \`Retry-After\` de 300: lo resuelve quien administra el servicio; no se guardó nada).`
                    : `Servicio no disponible por ahora (la base de datos no responde): "${messages.unavailable}"`,
                headers: retryAfter,
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples: Object.fromEntries(Object.entries(examples503).map(([name, message]) => [name, { value: { error: message } }])) } }
            };
        return responses;
    },

    // PATCH also takes RFC 7396's own media type. The first example is what /docs puts in
    // Try it out.
    bodyContent: (key: string, body: NonNullable<Operation['requestBody']>): Schema => {

        const media = { schema: body.schema, examples: body.examples };
        return key.startsWith('PATCH ') ? { 'application/json': media, 'application/merge-patch+json': media } : { 'application/json': media };
    },

    bodyName: (name: BodySchemaName): string => `${name[0]!.toUpperCase()}${name.slice(1)}Response`
};

interface RouteLike {
    method: string;
    path: string;
    settings: { app?: { parameters?: readonly ReadParameterName[]; pagesCount?: 'periods'; variant?: 'months' } };
}

export const isDocumentedPath = (path: string): boolean => path === '/healthcheck' || path.startsWith('/v1/');

const buildOpenApiDocument = (routes: readonly RouteLike[], options: { serverUrl: string }): Schema => {

    const operations = new Map<string, { path: string; method: string; item: Schema }>();
    for (const route of routes) {
        if (!isDocumentedPath(route.path)) {
            continue;
        }

        const key = `${route.method.toUpperCase()} ${route.path}`;
        const operation = internals.operations[key];
        if (!operation) {
            throw new Error(`La ruta ${key} no está descripta en servers/http/openapi/document.ts`);
        }

        const body = operation.requestBody ?? null;
        const item: Schema = {
            operationId: operation.operationId,
            summary: operation.summary,
            description: operation.description,
            tags: [operation.tag],
            parameters: internals.parameters(route),
            ...(body ? { requestBody: { required: true, content: internals.bodyContent(key, body) } } : {}),
            responses: internals.responses(operation),
            ...(route.path === '/healthcheck' ? { security: [] } : {})
        };

        operations.set(key, { path: route.path, method: route.method.toLowerCase(), item });
    }

    const paths: Record<string, Record<string, Schema>> = {};
    for (const key of Object.keys(internals.operations)) {
        const operation = operations.get(key);
        if (operation) {
            paths[operation.path] ??= {};
            paths[operation.path]![operation.method] = operation.item;
        }
    }

    const bodies = Object.fromEntries(Object.entries(bodySchemas).map(([name, schema]) => [internals.bodyName(name as BodySchemaName), schema]));
    return {
        openapi: '3.1.0',
        info: {
            title: 'arcasync API',
            version: '1.0.0',
            description: internals.introduction,
            license: { name: 'Propietaria', identifier: 'LicenseRef-Propietaria' }
        },
        servers: [{ url: options.serverUrl }],
        security: [{ bearerAuth: [] }],
        tags: Object.entries(internals.tagDescriptions).map(([name, description]) => ({ name, description })),
        paths,
        components: {
            securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: internals.bearerDescription } },
            schemas: { ...componentSchemas, ...answerSchemas, ...requestSchemas, ...bodies }
        }
    };
};

export const openApiDocumentFor = (server: Server, serverUrl: string): Schema => {

    return buildOpenApiDocument(server.table() as unknown as RouteLike[], { serverUrl });
};
