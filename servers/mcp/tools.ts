import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../core/domain/access.js';
import { invalid, isDomainError } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import { summarizeSct } from '../../core/domain/sct.js';
import { formatDate } from '../../core/domain/time.js';
import type { RawParameters } from '../../core/domain/read-request.js';
import { parseReadRequest } from '../../core/contract/read-parameters.js';
import type { Ports } from '../../core/ports/index.js';
import { getCcmaBalances, getCcmaBalancesParameters } from '../../core/use-cases/get-ccma-balances.js';
import { getSct, getSctParameters } from '../../core/use-cases/get-sct.js';
import { listCcmaMovements, listCcmaMovementsParameters } from '../../core/use-cases/list-ccma-movements.js';
import { listCuits, listCuitsParameters } from '../../core/use-cases/list-cuits.js';
import { listInvoicesParameters, listIssuedInvoices, listReceivedInvoices } from '../../core/use-cases/list-invoices.js';
import { listNotifications, listNotificationsParameters } from '../../core/use-cases/list-notifications.js';
import { summarizeInvoicePeriod } from '../../core/use-cases/summarize-invoice-period.js';
import { agendaOfCuit } from '../../core/use-cases/agenda.js';
import { getIvaPosition, maxIvaMonths } from '../../core/use-cases/iva-position.js';
import { getMonotributoControl, monotributoSummariesOf } from '../../core/use-cases/monotributo.js';
import type { Cuit } from '../../core/domain/cuit.js';
import type { IvaPosition } from '../../core/domain/iva.js';
import type { MonotributoControl } from '../../core/domain/monotributo.js';
import { addMonths } from '../../core/domain/months.js';
import type { ReadHealthView } from '../../core/use-cases/cuit-health.js';
import { healthOfCuit, healthOfCuits, healthOfRead } from '../../core/use-cases/cuit-health.js';
import type { SyncSystem } from '../../core/domain/sync-system.js';
import type { ToolArgumentName, ccmaQueries, invoiceKinds } from '../../core/contract/read-parameters.js';
import type { ReadParameterName } from '../../core/domain/read-request.js';
import { toolArgumentSchemas, toolArgumentsSchema } from '../../core/contract/read-parameters.js';
import type { Schema } from '../contract/parameters.js';
import { jsonSchemaOf } from '../contract/json-schema.js';
import { bodySchemas, componentSchemas, selfContained } from '../contract/schemas.js';
import { text } from './text.js';
import { mcpMessages } from './messages.js';

// docs/api.md, MCP: five read-only tools over the same use cases as the REST API. The arguments go
// to the core as they came, like a REST query, so the core applies its rules and a tool
// refuses exactly what REST refuses, with the same Spanish messages, as a tool error whose
// whole text is the message. Each call is one request of the user's quota: `admit` proves who
// is acting, checks the subscription and counts the call, exactly as a REST request does.

export type Admit = () => Promise<Principal>;
export type McpLog = (event: Record<string, unknown>) => void;

interface ToolDefinition {
    tool: Tool;
    // Takes the principal and the raw arguments; answers the structured result and its text.
    run(deps: Ports, principal: Principal, args: RawParameters): Promise<{ structured: object; text: string }>;
}

const internals = {
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },

    // Generated from the contract's joi schemas, like the OpenAPI parameters.
    input: (
        own: readonly ToolArgumentName[],
        names: readonly ReadParameterName[],
        pagesCount?: 'periods'
    ): Tool['inputSchema'] => jsonSchemaOf(toolArgumentsSchema(own, names, pagesCount)) as Tool['inputSchema'],

    // An argument only the MCP front end has (it picks the use case); its refusal is joined
    // with whatever the core refuses in the rest.
    choose<T extends string>(args: RawParameters, name: ToolArgumentName, rest: readonly ReadParameterName[]): T {

        const { value, error } = toolArgumentSchemas[name].validate(args[name]);
        if (!error) {
            return value as T;
        }

        const failures = [error.details[0]!.message];
        try {
            parseReadRequest({ query: internals.without(args, name) }, rest);
        }
        catch (err) {
            if (!isDomainError(err)) {
                throw err;
            }

            failures.push(err.message);
        }

        throw invalid(failures);
    },

    money: { type: 'number' } as Schema,

    // The whole period added up (every page), per currency, credit notes subtracted.
    get invoiceSummary(): Schema {

        const money = internals.money;
        return {
            type: 'object',
            description: 'Totales de todo el período consultado (no solo de la página), por moneda; las notas de crédito restan.',
            properties: {
                periodo: componentSchemas.InvoiceFilters,
                cantidad: { type: 'integer' },
                porMoneda: {
                    type: 'array',
                    items: {
                        type: 'object',
                        properties: {
                            moneda: { type: 'string' },
                            cantidad: { type: 'integer' },
                            notasDeCredito: { type: 'integer' },
                            importe: { ...money, description: 'en pesos' },
                            importeOriginal: { ...money, description: 'en la moneda' },
                            impNetoGravado: money,
                            impNetoNoGravado: money,
                            impOpExentas: money,
                            otrosTributos: money,
                            iva: money
                        },
                        required: [
                            'moneda',
                            'cantidad',
                            'notasDeCredito',
                            'importe',
                            'importeOriginal',
                            'impNetoGravado',
                            'impNetoNoGravado',
                            'impOpExentas',
                            'otrosTributos',
                            'iva'
                        ],
                        additionalProperties: false
                    }
                }
            },
            required: ['periodo', 'cantidad', 'porMoneda'],
            additionalProperties: false
        };
    },

    get sctSummary(): Schema {

        return {
            type: ['object', 'null'],
            description: 'Total adeudado hoy (saldo más intereses) y el próximo vencimiento; null si nunca se sincronizó.',
            properties: {
                totalAdeudado: internals.money,
                proximoVencimiento: {
                    anyOf: [(componentSchemas.SctData!.properties as Record<string, { items: Schema }>).vencimientos.items, { type: 'null' }]
                }
            },
            required: ['totalAdeudado', 'proximoVencimiento'],
            additionalProperties: false
        };
    },

    component: (name: string): Schema => ({ $ref: `#/components/schemas/${name}` }),

    // The answer beside a CUIT's invoices (docs/answers.md): a monotributista's cap, or a
    // Responsable Inscripto's IVA position over the period's months (at most the last 24).
    async invoiceAnswer(
        deps: Ports,
        principal: Principal,
        cuit: unknown,
        period: { fromDate: string; toDate: string }
    ): Promise<{ monotributo: MonotributoControl | null; iva: IvaPosition | null }> {

        const control = await getMonotributoControl(deps, principal, { query: { cuit } as RawParameters });
        if (control.data.aplica) {
            return { monotributo: control.data, iva: null };
        }

        const hasta = period.toDate.slice(0, 7);
        const desde = [period.fromDate.slice(0, 7), addMonths(hasta, 1 - maxIvaMonths)].sort().at(-1)!;
        const position = await getIvaPosition(deps, principal, { query: { cuit, desde, hasta } as RawParameters });
        return { monotributo: null, iva: position.data.aplica ? position.data : null };
    },

    without: (args: RawParameters, name: string): RawParameters => Object.fromEntries(Object.entries(args).filter(([key]) => key !== name)),

    // The state of what a tool read (its CUIT's systems), once the read itself was allowed.
    async health(deps: Ports, principal: Principal, args: RawParameters, systems: readonly SyncSystem[]): Promise<ReadHealthView> {

        const { cuit } = parseReadRequest({ query: { cuit: args.cuit } }, ['cuit']);
        return healthOfRead(await healthOfCuit(deps, principal, cuit), systems);
    },

    // structuredContent's `estado`: the state of what was read (core/use-cases/cuit-health.ts).
    get healthSchema(): Schema {

        const views = componentSchemas.CuitHealth!.properties as Record<string, Schema>;
        return {
            type: 'object',
            description: 'El estado de sincronización de lo leído: si la clave fiscal falla, su estado; si no, el de los sistemas leídos que más atención necesita, con qué hacer.',
            properties: {
                estado: views.estado!, desde: views.desde!, syncedAt: {
                    type: ['string', 'null'],
                    format: 'date-time'
                }, mensaje: views.mensaje!, accion: views.accion!,
                requiereAtencion: views.requiereAtencion!, clave: views.clave!, sistemas: views.sistemas!
            },
            required: ['estado', 'desde', 'syncedAt', 'mensaje', 'accion', 'requiereAtencion', 'clave', 'sistemas'],
            additionalProperties: false
        };
    },

    // A tool's output schema with `estado` beside the rest.
    withHealth(schema: Schema): Schema {

        return {
            ...schema,
            properties: { ...(schema.properties as Schema), estado: internals.healthSchema },
            required: [...(schema.required as string[]), 'estado']
        };
    },

    async call(deps: Ports, definition: ToolDefinition, admit: Admit, log: McpLog, args: RawParameters): Promise<CallToolResult> {

        try {
            const principal = await admit();
            const result = await definition.run(deps, principal, args);
            return { content: [{ type: 'text', text: result.text }], structuredContent: result.structured as Record<string, unknown> };
        }
        catch (err) {
            if (isDomainError(err)) {
                const meta = err.rateLimit ? {
                    _meta: { retryAfterSeconds: err.rateLimit.retryAfterSeconds, rateLimitLimit: err.rateLimit.limit, rateLimitReset: err.rateLimit.resetAt }
                } : {};
                return { isError: true, content: [{ type: 'text', text: err.message }], ...meta };
            }

            // The database away for now: a tool error that says so and when to try again.
            const failure = deps.database.failureOf(err);
            if (failure) {
                log({
                    level: 'warn',
                    msg: 'base de datos no disponible',
                    tool: definition.tool.name,
                    failure: failure.kind,
                    err: err instanceof Error ? err.message : String(err)
                });
                return { isError: true, content: [{ type: 'text', text: messages.unavailable }], _meta: { retryAfterSeconds: failure.retryAfter } };
            }

            log({ level: 'error', msg: 'mcp tool failed', tool: definition.tool.name, err: err instanceof Error ? err.stack ?? err.message : String(err) });
            return { isError: true, content: [{ type: 'text', text: messages.internal }] };
        }
    }
};


// Built once: a tool's description depends on nothing of the request.
const definitions: ToolDefinition[] = [
    {
        tool: {
            name: 'listar_cuits',
            title: 'Listar CUIT',
            description: 'Lista los CUIT (clientes) que gestiona el usuario, ordenados por nombre, con sus etiquetas y su clasificación en el sistema registral (monotributista, autónomo, categoría). Filtros opcionales combinados con Y; varias etiquetas se combinan con O. Paginado con limit y offset.',
            inputSchema: internals.input([], listCuitsParameters),
            outputSchema: selfContained({
                ...bodySchemas.cuitList,
                properties: {
                    ...(bodySchemas.cuitList.properties as Schema),
                    monotributo: {
                        type: 'array',
                        description: 'Los monotributistas de la página: lo facturado en los últimos 12 meses contra el tope de su categoría y el de la K, y sus riesgos (tope_cerca desde el 80 %, tope_superado, exclusion).',
                        items: { $ref: '#/components/schemas/MonotributoSummary' }
                    },
                    atencion: {
                        type: 'array',
                        description: 'Los CUIT de la página que no se pueden sincronizar bien: su estado y qué hacer.',
                        items: {
                            type: 'object',
                            properties: {
                                cuit: { type: 'string' },
                                nombre: { type: 'string' },
                                estado: (componentSchemas.CuitHealth!.properties as Schema).estado,
                                desde: { type: ['string', 'null'], format: 'date-time' },
                                mensaje: { type: 'string' },
                                accion: { type: 'string' },
                                requiereAtencion: { type: 'boolean' }
                            },
                            required: ['cuit', 'nombre', 'estado', 'desde', 'mensaje', 'accion', 'requiereAtencion'],
                            additionalProperties: false
                        }
                    }
                },
                required: [...(bodySchemas.cuitList.required as string[]), 'atencion']
            }) as Tool['outputSchema'],
            annotations: { title: 'Listar CUIT', ...internals.annotations }
        },
        async run(deps, principal, args) {

            const result = await listCuits(deps, principal, { query: args });
            const atencion = (await healthOfCuits(deps, principal, result.data.map((item) => item.cuit)))
                .filter((entry) => entry.estado !== 'ok' && entry.estado !== 'pendiente')
                .map((entry) => ({
                    cuit: entry.cuit,
                    nombre: entry.nombre,
                    estado: entry.estado,
                    desde: entry.desde,
                    mensaje: entry.mensaje,
                    accion: entry.accion,
                    requiereAtencion: entry.requiereAtencion
                }));
            const monotributistas = result.data.filter((item) => item.monotributista === true).map((item) => item.cuit as Cuit);
            const byCuit = await monotributoSummariesOf(deps, principal, monotributistas);
            const monotributo = monotributistas.flatMap((cuit) => byCuit.get(cuit) ?? []);
            return { structured: { ...result, atencion, monotributo }, text: text.cuits(result, atencion, monotributo) };
        }
    },
    {
        tool: {
            name: 'listar_mis_comprobantes',
            title: 'Listar comprobantes',
            description: 'Lista los comprobantes emitidos o recibidos (Mis Comprobantes de ARCA) de un CUIT en un período, ordenados por fecha. El período va de from_date a to_date (AAAA-MM-DD, ambos o ninguno); sin ellos, el mes en curso en UTC. Paginado con limit y offset.',
            inputSchema: internals.input(['tipo'], listInvoicesParameters),
            outputSchema: selfContained(internals.withHealth({
                type: 'object',
                properties: {
                    data: { type: 'array', items: { anyOf: [componentSchemas.IssuedInvoice, componentSchemas.ReceivedInvoice] } },
                    pagination: componentSchemas.Pagination,
                    filters: componentSchemas.InvoiceFilters,
                    syncedAt: { type: ['string', 'null'], format: 'date-time' },
                    resumen: internals.invoiceSummary,
                    monotributo: {
                        anyOf: [internals.component('MonotributoControl'), { type: 'null' }],
                        description: 'Si el CUIT es monotributista: lo facturado en los últimos 12 meses contra el tope de su categoría (no depende del período consultado).'
                    },
                    iva: {
                        anyOf: [internals.component('IvaPosition'), { type: 'null' }],
                        description: 'Si el CUIT es Responsable Inscripto: la posición de IVA de los meses del período (a lo sumo los últimos 24).'
                    }
                },
                required: ['data', 'pagination', 'filters', 'syncedAt', 'resumen']
            })) as Tool['outputSchema'],
            annotations: { title: 'Listar comprobantes', ...internals.annotations }
        },
        async run(deps, principal, args) {

            const tipo = internals.choose<typeof invoiceKinds[number]>(args, 'tipo', listInvoicesParameters);
            const request = { query: internals.without(args, 'tipo') };
            const kind = tipo === 'emitidos' ? 'issued' : 'received';
            const [result, resumen] = await Promise.all([
                kind === 'issued' ? listIssuedInvoices(deps, principal, request) : listReceivedInvoices(deps, principal, request),
                summarizeInvoicePeriod(deps, principal, kind, request)
            ]);
            const estado = await internals.health(deps, principal, args, [kind === 'issued' ? 'issued_invoices' : 'received_invoices']);
            const answer = await internals.invoiceAnswer(deps, principal, args.cuit, result.filters);
            return { structured: { ...result, resumen, estado, ...answer }, text: text.invoices(tipo, result, resumen, estado, answer) };
        }
    },
    {
        tool: {
            name: 'consultar_sct',
            title: 'Consultar cuenta corriente (SCT)',
            description: 'Devuelve el Sistema de Cuentas Tributarias de un CUIT: deudas (saldo e intereses), vencimientos próximos y declaraciones juradas presentadas o pendientes. data es null si nunca se sincronizó.',
            inputSchema: internals.input([], getSctParameters),
            outputSchema: selfContained(internals.withHealth({
                ...bodySchemas.sct,
                properties: {
                    ...(bodySchemas.sct.properties as Schema),
                    resumen: internals.sctSummary,
                    agenda: {
                        type: 'object',
                        description: 'Lo que vence para el CUIT de hoy a 30 días: vencimientos y deudas del SCT, declaraciones juradas, el pago mensual del monotributo y la recategorización (como GET /v1/vencimientos).',
                        properties: {
                            desde: { type: 'string', format: 'date' },
                            hasta: { type: 'string', format: 'date' },
                            items: { type: 'array', items: internals.component('AgendaItem') }
                        },
                        required: ['desde', 'hasta', 'items'],
                        additionalProperties: false
                    }
                },
                required: [...(bodySchemas.sct.required as string[]), 'resumen']
            })) as Tool['outputSchema'],
            annotations: { title: 'Consultar cuenta corriente (SCT)', ...internals.annotations }
        },
        async run(deps, principal, args) {

            const result = await getSct(deps, principal, { query: args });
            const resumen = result.data ? summarizeSct(result.data, formatDate(deps.clock.now())) : null;
            const estado = await internals.health(deps, principal, args, ['sct']);
            const agenda = await agendaOfCuit(deps, principal, parseReadRequest({ query: { cuit: args.cuit } }, ['cuit']).cuit);
            return { structured: { ...result, resumen, estado, agenda }, text: text.sct(result, resumen, estado, agenda) };
        }
    },
    {
        tool: {
            name: 'consultar_ccma',
            title: 'Consultar cuenta de monotributo y autónomos (CCMA)',
            description: "Consulta la Cuenta Corriente de Monotributistas y Autónomos de un CUIT. Con consulta 'saldos' (por omisión) devuelve el saldo deudor y el acreedor (null si ARCA no lo informó); con 'movimientos', los movimientos paginados por período, del más reciente al más antiguo (limit y offset cuentan períodos y solo se aceptan con 'movimientos').",
            inputSchema: internals.input(['consulta'], listCcmaMovementsParameters, 'periods'),
            outputSchema: selfContained(internals.withHealth({
                type: 'object',
                properties: {
                    data: { anyOf: [componentSchemas.CcmaBalances, { type: 'array', items: componentSchemas.CcmaMovement }, { type: 'null' }] },
                    pagination: componentSchemas.Pagination,
                    syncedAt: { type: ['string', 'null'], format: 'date-time' }
                },
                required: ['data', 'syncedAt']
            })) as Tool['outputSchema'],
            annotations: { title: 'Consultar CCMA', ...internals.annotations }
        },
        async run(deps, principal, args) {

            const consulta = internals.choose<typeof ccmaQueries[number]>(
                args,
                'consulta',
                args.consulta === 'movimientos' ? listCcmaMovementsParameters : getCcmaBalancesParameters
            );
            const request = { query: internals.without(args, 'consulta') };
            if (consulta === 'movimientos') {
                const result = await listCcmaMovements(deps, principal, request);
                const estado = await internals.health(deps, principal, args, ['ccma']);
                return { structured: { ...result, estado }, text: text.ccmaMovements(result, estado) };
            }

            const result = await getCcmaBalances(deps, principal, request);
            const estado = await internals.health(deps, principal, args, ['ccma']);
            return { structured: { ...result, estado }, text: text.ccmaBalances(result, estado) };
        }
    },
    {
        tool: {
            name: 'listar_dfe',
            title: 'Listar notificaciones del DFE',
            description: 'Lista las notificaciones del Domicilio Fiscal Electrónico de un CUIT, de la más reciente a la más antigua. fechaNotificacion es la fecha que inicia los plazos legales; leidaAt indica si se abrió en el servicio, no en ARCA. Paginado con limit y offset.',
            inputSchema: internals.input([], listNotificationsParameters),
            outputSchema: selfContained(internals.withHealth(bodySchemas.notifications)) as Tool['outputSchema'],
            annotations: { title: 'Listar notificaciones del DFE', ...internals.annotations }
        },
        async run(deps, principal, args) {

            const result = await listNotifications(deps, principal, { query: args });
            const estado = await internals.health(deps, principal, args, ['dfe']);
            return { structured: { ...result, estado }, text: text.dfe(result, estado) };
        }
    }
];

const toolsByName = new Map(definitions.map((definition) => [definition.tool.name, definition]));
const toolList = definitions.map((definition) => definition.tool);

// One MCP server per connection (stdio) or per request (stateless HTTP).
// `onCall` learns each tool called, for the request log.
export const createMcpServer = (deps: Ports, admit: Admit, log: McpLog, onCall?: (tool: string) => void): Server => {

    const server = new Server({ name: 'arcasync', title: 'arcasync: datos fiscales de ARCA', version: '1.0.0' }, {
        capabilities: { tools: { listChanged: false } },
        instructions: 'Datos fiscales de ARCA sincronizados una vez por día para los CUIT que gestiona el usuario. Todas las herramientas son de solo lectura. Empezá por listar_cuits para conocer los CUIT disponibles.'
    });

    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {

        const definition = toolsByName.get(request.params.name);
        if (!definition) {
            throw new McpError(ErrorCode.InvalidParams, mcpMessages.unknownTool(request.params.name));
        }

        onCall?.(definition.tool.name);
        return internals.call(deps, definition, admit, log, request.params.arguments ?? {});
    });

    return server;
};
