import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Principal } from '../../core/domain/access.js';
import { isDomainError } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import type { Ports } from '../../core/ports/index.js';
import { getCcmaBalances } from '../../core/use-cases/get-ccma-balances.js';
import { getSct } from '../../core/use-cases/get-sct.js';
import { listCcmaMovements } from '../../core/use-cases/list-ccma-movements.js';
import { listCuits } from '../../core/use-cases/list-cuits.js';
import { listIssuedInvoices, listReceivedInvoices } from '../../core/use-cases/list-invoices.js';
import { listNotifications } from '../../core/use-cases/list-notifications.js';
import { inputs, outputs } from './schemas.js';
import { text } from './text.js';

// SPEC §4.13: five read-only tools over the same use cases as the REST API. Each call is one
// request of the user's quota: `admit` proves who is acting, checks the subscription and
// counts the call (the core's admitRequest), exactly as a REST request does; a failure comes
// back as a tool error carrying the spec's Spanish message.

export type Admit = () => Promise<Principal>;
export type McpLog = (event: Record<string, unknown>) => void;

const internals = {
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },

    async run<T extends object>(log: McpLog, tool: string, work: () => Promise<T>, render: (result: T) => string): Promise<CallToolResult> {

        try {
            const result = await work();
            return { content: [{ type: 'text', text: render(result) }], structuredContent: result as Record<string, unknown> };
        }
        catch (err) {
            if (isDomainError(err)) {
                const meta = err.rateLimit ? { _meta: { retryAfterSeconds: err.rateLimit.retryAfterSeconds, rateLimitLimit: err.rateLimit.limit, rateLimitReset: err.rateLimit.resetAt } } : {};
                return { isError: true, content: [{ type: 'text', text: err.message }], ...meta };
            }

            log({ level: 'error', msg: 'mcp tool failed', tool, err: err instanceof Error ? err.stack ?? err.message : String(err) });
            return { isError: true, content: [{ type: 'text', text: messages.internal }] };
        }
    }
};

export const createMcpServer = (deps: Ports, admit: Admit, log: McpLog): McpServer => {

    const server = new McpServer({ name: 'arcasync', title: 'arcasync: datos fiscales de ARCA', version: '1.0.0' }, {
        instructions: 'Datos fiscales de ARCA sincronizados una vez por día para los CUIT que gestiona el usuario. Todas las herramientas son de solo lectura. Empezá por listar_cuits para conocer los CUIT disponibles.'
    });

    server.registerTool('listar_cuits', {
        title: 'Listar CUIT',
        description: 'Lista los CUIT (clientes) que gestiona el usuario, ordenados por nombre, con sus etiquetas y su clasificación en el sistema registral (monotributista, autónomo, categoría). Filtros opcionales combinados con Y; varias etiquetas se combinan con O. Paginado con limit y offset.',
        inputSchema: {
            limit: inputs.limit,
            offset: inputs.offset,
            etiquetas: inputs.etiquetas,
            monotributista: inputs.monotributista,
            autonomo: inputs.autonomo,
            categoria: inputs.categoria
        },
        outputSchema: outputs.cuits,
        annotations: { title: 'Listar CUIT', ...internals.annotations }
    }, (args) => internals.run(log, 'listar_cuits', async () => listCuits(deps, await admit(), args), text.cuits));

    server.registerTool('listar_mis_comprobantes', {
        title: 'Listar comprobantes',
        description: "Lista los comprobantes emitidos o recibidos (Mis Comprobantes de ARCA) de un CUIT en un período, ordenados por fecha. El período va de from_date a to_date (AAAA-MM-DD, ambos o ninguno); sin ellos, el mes en curso en UTC. Paginado con limit y offset.",
        inputSchema: {
            cuit: inputs.cuit,
            tipo: z.enum(['emitidos', 'recibidos'], { error: messages.mcp.invalidParam('tipo') }).describe("'emitidos' (con receptor) o 'recibidos' (con emisor)"),
            from_date: inputs.date('from_date', 'primer día del período, AAAA-MM-DD'),
            to_date: inputs.date('to_date', 'último día del período, AAAA-MM-DD'),
            limit: inputs.limit,
            offset: inputs.offset
        },
        outputSchema: outputs.invoices,
        annotations: { title: 'Listar comprobantes', ...internals.annotations }
    }, (args) => internals.run(log, 'listar_mis_comprobantes', async () => {

        const input = { cuit: args.cuit, limit: args.limit, offset: args.offset, fromDate: args.from_date, toDate: args.to_date };
        const principal = await admit();
        return args.tipo === 'emitidos' ? listIssuedInvoices(deps, principal, input) : listReceivedInvoices(deps, principal, input);
    }, (result) => text.invoices(args.tipo, result)));

    server.registerTool('consultar_sct', {
        title: 'Consultar cuenta corriente (SCT)',
        description: 'Devuelve el Sistema de Cuentas Tributarias de un CUIT: deudas (saldo e intereses), vencimientos próximos y declaraciones juradas presentadas o pendientes. data es null si nunca se sincronizó.',
        inputSchema: { cuit: inputs.cuit },
        outputSchema: outputs.sct,
        annotations: { title: 'Consultar cuenta corriente (SCT)', ...internals.annotations }
    }, (args) => internals.run(log, 'consultar_sct', async () => getSct(deps, await admit(), { cuit: args.cuit }), text.sct));

    server.registerTool('consultar_ccma', {
        title: 'Consultar cuenta de monotributo y autónomos (CCMA)',
        description: "Consulta la Cuenta Corriente de Monotributistas y Autónomos de un CUIT. Con consulta 'saldos' (por omisión) devuelve el saldo deudor y el acreedor (null si ARCA no lo informó); con 'movimientos', los movimientos paginados por período, del más reciente al más antiguo (limit y offset cuentan períodos).",
        inputSchema: {
            cuit: inputs.cuit,
            consulta: z.enum(['saldos', 'movimientos'], { error: messages.mcp.invalidParam('consulta') }).optional().describe("'saldos' (por omisión) o 'movimientos'"),
            limit: inputs.limit.describe('cantidad de períodos por página, de 1 a 100 (50 por omisión); solo para movimientos'),
            offset: inputs.offset.describe('cantidad de períodos a saltear (0 por omisión); solo para movimientos')
        },
        outputSchema: outputs.ccma,
        annotations: { title: 'Consultar CCMA', ...internals.annotations }
    }, (args) => {

        if (args.consulta === 'movimientos') {
            return internals.run(log, 'consultar_ccma', async () => listCcmaMovements(deps, await admit(), { cuit: args.cuit, limit: args.limit, offset: args.offset }), text.ccmaMovements);
        }

        return internals.run(log, 'consultar_ccma', async () => getCcmaBalances(deps, await admit(), { cuit: args.cuit }), text.ccmaBalances);
    });

    server.registerTool('listar_dfe', {
        title: 'Listar notificaciones del DFE',
        description: 'Lista las notificaciones del Domicilio Fiscal Electrónico de un CUIT, de la más reciente a la más antigua. fechaNotificacion es la fecha que inicia los plazos legales; leidaAt indica si se abrió en el servicio, no en ARCA. Paginado con limit y offset.',
        inputSchema: { cuit: inputs.cuit, limit: inputs.limit, offset: inputs.offset },
        outputSchema: outputs.dfe,
        annotations: { title: 'Listar notificaciones del DFE', ...internals.annotations }
    }, (args) => internals.run(log, 'listar_dfe', async () => listNotifications(deps, await admit(), { cuit: args.cuit, limit: args.limit, offset: args.offset }), text.dfe));

    return server;
};
