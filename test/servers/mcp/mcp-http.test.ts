import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { updateAccount } from '../../../core/use-cases/staff/update-account.js';
import { invoice, movement, notification, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser, tagClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerOn, startTestServer } from '../../support/server.js';
import { httpMessages } from '../../../servers/http/messages.js';
import { mcpMessages } from '../../../servers/mcp/messages.js';

// The MCP tools (docs/api.md, MCP) over streamable HTTP with an API token: the five tools answer what the REST API
// answers, with the same visibility, 404, subscription 403 and per-user rate limits.

const connect = async (server: TestServer, token: string): Promise<Client> => {

    const client = new Client({ name: 'prueba', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
};

const call = async (
    client: Client,
    name: string,
    args: Record<string, unknown>
): Promise<CallToolResult> => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const textOf = (result: CallToolResult): string => result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');

for (const database of testDatabases()) {

    describe(`MCP over streamable HTTP with an API token (${database.name})`, () => {

        let server: TestServer;
        let owner: SeededUser;
        let member: SeededUser;
        let stranger: SeededUser;
        let client: Client;

        before(async () => {

            server = await startTestServer(database);
            const ports = server.app.ports;
            owner = await seedAccount(ports);
            member = await seedUser(ports, owner.accountId, 'member');
            stranger = await seedAccount(ports);
            const maria = await addClient(ports, owner.accountId, { cuit: '20-12345678-6', nombre: 'María', apellido: 'González' });
            await addClient(ports, owner.accountId, { cuit: '27-23456789-1', nombre: 'Juan', apellido: 'Pérez' });
            await addClient(ports, stranger.accountId, { cuit: '30-71234567-1', tipo: 'persona-juridica', razonSocial: 'Ajena SA' });
            await ports.users.assignClients(member.userId, [maria.id]);
            await tagClient(ports, owner.accountId, '20123456786', 'Mensuales');

            const syncedAt = Date.parse('2026-03-14T03:00:00Z');
            await ports.invoices.save(
                maria.id,
                'issued',
                [invoice({ fecha: '2026-03-02' }), invoice({ fecha: '2026-03-05', numeroDesde: '00000002', numeroHasta: '00000002' })],
                syncedAt
            );
            await ports.invoices.save(maria.id, 'received', [invoice({
                fecha: '2026-02-20',
                counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'Proveedor SA' }
            })], syncedAt);
            await ports.sct.replace(maria.id, sctData(), syncedAt);
            await ports.ccma.replace(maria.id, { saldoDeudor: 25000, saldoAcreedor: null }, [
                movement({ orden: 1, periodo: '01/2026' }),
                movement({ orden: 2, periodo: '02/2026', fechaMovimiento: '2026-02-20T00:00:00.000Z', saldo: -50000 })
            ], syncedAt);
            await ports.notifications.save(maria.id, [
                notification({ arcaId: '1', asunto: 'Intimación', fechaRecepcion: '2026-03-01T10:00:00.000Z' }),
                notification({ arcaId: '2', asunto: 'Aviso de vencimiento', fechaRecepcion: '2026-03-10T10:00:00.000Z' })
            ], syncedAt);

            client = await connect(server, owner.token);
        });

        after(async () => {

            await client?.close();
            await server.stop();
        });

        it('publishes exactly the five read-only tools, in Spanish, with input and output schemas', async () => {

            const { tools } = await client.listTools();
            expect(tools.map((tool) => tool.name).sort()).to.deep.equal(
                ['consultar_ccma', 'consultar_sct', 'listar_cuits', 'listar_dfe', 'listar_mis_comprobantes']
            );
            for (const tool of tools) {
                expect(tool.annotations?.readOnlyHint, tool.name).to.equal(true);
                expect(tool.title, tool.name).to.be.a('string').and.not.empty;
                expect(tool.description, tool.name).to.match(/[áéíóúñ]|\b(de|los|las)\b/);
                expect(tool.inputSchema.type).to.equal('object');
                expect(tool.outputSchema?.type).to.equal('object');
            }

            const invoices = tools.find((tool) => tool.name === 'listar_mis_comprobantes')!;
            expect(invoices.inputSchema.required).to.include.members(['cuit', 'tipo']);
            expect(Object.keys(invoices.inputSchema.properties ?? {})).to.include.members(['from_date', 'to_date', 'limit', 'offset']);
        });

        it('answers every tool with structuredContent equal to the REST body (plus its summary) and a readable text', async () => {

            const cases: [string, Record<string, unknown>, string][] = [
                ['listar_cuits', {}, '/v1/cuits'],
                ['listar_cuits', { etiquetas: ['Mensuales'], limit: 10 }, '/v1/cuits?etiquetas=Mensuales&limit=10'],
                ['listar_mis_comprobantes', { cuit: '20-12345678-6', tipo: 'emitidos' }, '/v1/cuits/20123456786/mis-comprobantes/emitidos'],
                [
                    'listar_mis_comprobantes',
                    { cuit: '20123456786', tipo: 'recibidos', from_date: '2026-02-01', to_date: '2026-02-28' },
                    '/v1/cuits/20123456786/mis-comprobantes/recibidos?from_date=2026-02-01&to_date=2026-02-28'
                ],
                ['consultar_sct', { cuit: '20123456786' }, '/v1/cuits/20123456786/sct'],
                ['consultar_ccma', { cuit: '20123456786' }, '/v1/cuits/20123456786/ccma'],
                ['consultar_ccma', { cuit: '20123456786', consulta: 'movimientos', limit: 1 }, '/v1/cuits/20123456786/ccma/movimientos?limit=1'],
                ['listar_dfe', { cuit: '20123456786', offset: 1 }, '/v1/cuits/20123456786/dfe?offset=1'],
                ['consultar_sct', { cuit: '27234567891' }, '/v1/cuits/27234567891/sct']
            ];

            for (const [name, args, path] of cases) {
                const result = await call(client, name, args);
                const rest = await server.request(path, { token: owner.token });
                expect(rest.status, path).to.equal(200);
                expect(result.isError, name).to.not.equal(true);
                // The REST body, with the period's or the account's summary beside it where a tool adds
                // one, the state of what was read (estado; atencion for the list) and the answers of
                // issue 41 (the cap, the IVA position, the agenda).
                const { resumen, estado, atencion, monotributo, iva, agenda, ...body } = result.structuredContent as Record<string, unknown>;
                expect([monotributo, iva, agenda].some((answer) => answer !== undefined), name).to.equal(name !== 'consultar_ccma' && name !== 'listar_dfe');
                expect(estado === undefined && atencion === undefined, name).to.equal(false);
                expect(body, `${name} ${JSON.stringify(args)}`).to.deep.equal(rest.body);
                expect(resumen === undefined, name).to.equal(!['listar_mis_comprobantes', 'consultar_sct'].includes(name));
                expect(textOf(result), name).to.be.a('string').and.not.empty;
            }

            const emitted = await call(client, 'listar_mis_comprobantes', { cuit: '20123456786', tipo: 'emitidos' });
            expect(textOf(emitted)).to.contain('Comprobantes emitidos del 2026-03-01 al 2026-03-31');
            const cuits = await call(client, 'listar_cuits', {});
            expect(textOf(cuits)).to.contain('González, María (CUIT 20-12345678-6');
        });

        it('shows a member only the CUITs it manages; others are the same 404 as a foreign CUIT', async () => {

            const memberClient = await connect(server, member.token);
            try {
                const list = await call(memberClient, 'listar_cuits', {});
                expect((list.structuredContent as { data: { cuit: string }[] }).data.map((item) => item.cuit)).to.deep.equal(['20123456786']);

                const unassigned = await call(memberClient, 'consultar_sct', { cuit: '27234567891' });
                expect(unassigned.isError).to.equal(true);
                expect(textOf(unassigned)).to.equal(messages.notFound);
            }
            finally {
                await memberClient.close();
            }

            for (const name of ['listar_mis_comprobantes', 'consultar_sct', 'consultar_ccma', 'listar_dfe']) {
                const result = await call(client, name, { cuit: '30712345671', ...(name === 'listar_mis_comprobantes' ? { tipo: 'emitidos' } : {}) });
                expect(result.isError, name).to.equal(true);
                expect(textOf(result), name).to.equal(messages.notFound);
            }
        });

        it('returns invalid parameters as a tool error with the Spanish message', async () => {

            const range = await call(client, 'listar_mis_comprobantes', { cuit: '20123456786', tipo: 'emitidos', from_date: '2026-03-01' });
            expect(range.isError).to.equal(true);
            expect(textOf(range)).to.equal(messages.dateRangeIncomplete);

            const limit = await call(client, 'listar_dfe', { cuit: '20123456786', limit: 500 });
            expect(limit.isError).to.equal(true);
            expect(textOf(limit)).to.contain(messages.field.limit);
        });

        it('answers every invalid call with a tool error whose whole text is the Spanish message, naming the argument', async () => {

            const cases: [string, Record<string, unknown>, string][] = [
                ['listar_dfe', { cuit: '20123456786', limit: 500 }, messages.field.limit],
                ['listar_dfe', { cuit: '20123456786', limit: '10' }, ''],
                ['consultar_sct', {}, messages.field.cuit],
                ['listar_mis_comprobantes', { cuit: '20123456786' }, messages.mcp.invoiceKind],
                ['listar_mis_comprobantes', { cuit: '20123456786', tipo: 'todos', limit: 0 }, `${messages.mcp.invoiceKind} ${messages.field.limit}`],
                ['consultar_ccma', { cuit: '20123456786', consulta: 'deuda' }, messages.mcp.ccmaQuery],
                ['listar_cuits', { categoria: 'Z', orden: 'nombre' }, `${messages.field.categoria} ${messages.unknownParameter('orden')}`],
                ['consultar_sct', { cuit: '20123456786', tipo: 'emitidos' }, messages.unknownParameter('tipo')]
            ];
            for (const [name, args, message] of cases) {
                const result = await call(client, name, args);
                if (!message) {
                    // A number sent as text is what a REST query carries: accepted.
                    expect(result.isError, `${name} ${JSON.stringify(args)}`).to.not.equal(true);
                    continue;
                }

                expect(result.isError, `${name} ${JSON.stringify(args)}`).to.equal(true);
                expect(textOf(result), `${name} ${JSON.stringify(args)}`).to.equal(message);
            }
        });

        it('takes the CUIT as a JSON number too, as the Inspector CLI sends it', async () => {

            const result = await call(client, 'consultar_ccma', { cuit: 20123456786 });
            expect(result.isError, textOf(result)).to.not.equal(true);
            expect(result.structuredContent).to.deep.include({ data: { saldoDeudor: 25000, saldoAcreedor: null } });
            const tools = await client.listTools();
            const sct = tools.tools.find((tool) => tool.name === 'consultar_sct')!;
            expect(sct.inputSchema).to.deep.include({ required: ['cuit'], additionalProperties: false });
        });

        it('adds up the whole period for the assistant: per currency, credit notes subtracted, beside the page', async () => {

            const pedro = await addClient(server.app.ports, owner.accountId, { cuit: '20-33333333-3', nombre: 'Pedro', apellido: 'Suma' });
            await server.app.ports.invoices.save(pedro.id, 'issued', [
                invoice({
                    fecha: '2026-10-01',
                    tipo: '1',
                    numeroDesde: '1',
                    numeroHasta: '1',
                    impNetoGravado: 1000,
                    iva: 210,
                    importeOriginal: 1210,
                    importe: 1210
                }),
                invoice({
                    fecha: '2026-10-15',
                    tipo: '6',
                    numeroDesde: '2',
                    numeroHasta: '2',
                    impNetoGravado: 500,
                    iva: 105,
                    importeOriginal: 605,
                    importe: 605
                }),
                invoice({
                    fecha: '2026-10-20',
                    tipo: '3',
                    numeroDesde: '3',
                    numeroHasta: '3',
                    impNetoGravado: 100,
                    iva: 21,
                    importeOriginal: 121,
                    importe: 121
                }),
                invoice({
                    fecha: '2026-10-31',
                    tipo: '19',
                    numeroDesde: '4',
                    numeroHasta: '4',
                    impNetoGravado: null,
                    iva: null,
                    impOpExentas: 100,
                    monedaOriginal: 'DOL',
                    tipoCambio: 1000,
                    importeOriginal: 100,
                    importe: 100000
                }),
                invoice({ fecha: '2026-11-01', tipo: '1', numeroDesde: '5', numeroHasta: '5', importe: 999999, importeOriginal: 999999 })
            ], Date.parse('2026-11-02T03:00:00Z'));

            const result = await call(client, 'listar_mis_comprobantes', {
                cuit: 20333333333,
                tipo: 'emitidos',
                from_date: '2026-10-01',
                to_date: '2026-10-31',
                limit: 1
            });
            expect(result.isError, textOf(result)).to.not.equal(true);
            const structured = result.structuredContent as { data: unknown[]; pagination: { total: number }; resumen: unknown };
            expect(structured.data).to.have.length(1);
            expect(structured.pagination.total).to.equal(4);
            expect(structured.resumen).to.deep.equal({
                periodo: { fromDate: '2026-10-01', toDate: '2026-10-31' },
                cantidad: 4,
                porMoneda: [
                    {
                        moneda: 'DOL',
                        cantidad: 1,
                        notasDeCredito: 0,
                        importe: 100000,
                        importeOriginal: 100,
                        impNetoGravado: 0,
                        impNetoNoGravado: 0,
                        impOpExentas: 100,
                        otrosTributos: 0,
                        iva: 0
                    },
                    {
                        moneda: 'PES',
                        cantidad: 3,
                        notasDeCredito: 1,
                        importe: 1694,
                        importeOriginal: 1694,
                        impNetoGravado: 1400,
                        impNetoNoGravado: 0,
                        impOpExentas: 0,
                        otrosTributos: 0,
                        iva: 294
                    }
                ]
            });
            const summary = textOf(result);
            expect(summary).to.contain('Resumen del período: 4 comprobantes (1 nota de crédito, que resta).');
            expect(summary).to.contain('- PES: 3 comprobantes; total $ 1.694,00');

            const sct = await call(client, 'consultar_sct', { cuit: '20-12345678-6' });
            expect((sct.structuredContent as { resumen: unknown }).resumen).to.deep.equal({
                totalAdeudado: 16133.25,
                proximoVencimiento: sctData().vencimientos[0]
            });
            expect(textOf(sct)).to.contain('Total adeudado hoy (saldo más intereses): $ 16.133,25. Próximo vencimiento: 2026-04-20, 30 - IVA, período 202603.');
        });

        it('refuses every tool with the subscription 403 message while the subscription is not active', async () => {

            const paused = await seedAccount(server.app.ports, { subscription: 'paused' });
            await addClient(server.app.ports, paused.accountId, { cuit: '20-12345678-6' });
            const pausedClient = await connect(server, paused.token);
            try {
                for (const name of ['listar_cuits', 'consultar_sct']) {
                    const result = await call(pausedClient, name, { cuit: '20123456786' });
                    expect(result.isError, name).to.equal(true);
                    expect(textOf(result), name).to.equal(messages.subscriptionPaused);
                }

                await updateAccount(server.app.ports, { id: paused.accountId, subscription: 'ended' });
                expect(textOf(await call(pausedClient, 'listar_cuits', {}))).to.equal(messages.subscriptionInactive);

                await updateAccount(server.app.ports, { id: paused.accountId, subscription: 'active' });
                expect((await call(pausedClient, 'listar_cuits', {})).isError).to.not.equal(true);
            }
            finally {
                await pausedClient.close();
            }
        });

        it('counts each tool call against the user limits shared with the REST API', async () => {

            const limited = await startServerOn(server, { rateLimits: { perMinute: 3 }, clock: server.clock });
            const user = await seedAccount(server.app.ports);
            const mcp = await connect(limited, user.token);
            try {
                expect((await call(mcp, 'listar_cuits', {})).isError).to.not.equal(true);
                expect((await call(mcp, 'listar_cuits', {})).isError).to.not.equal(true);
                expect((await limited.request('/v1/cuits', { token: user.token })).status).to.equal(200);

                const refused = await call(mcp, 'listar_cuits', {});
                expect(refused.isError).to.equal(true);
                expect(textOf(refused)).to.equal(messages.rateLimited);
                const rest = await limited.request('/v1/cuits', { token: user.token });
                expect(rest.status).to.equal(429);
            }
            finally {
                await mcp.close();
                await limited.stop();
            }
        });

        it('asks for a token with the OAuth challenge and refuses bad ones', async () => {

            const init = {
                jsonrpc: '2.0',
                id: 1,
                method: 'initialize',
                params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
            };
            const headers = { accept: 'application/json, text/event-stream' };
            const missing = await server.request('/mcp', { method: 'POST', headers, body: init });
            expect(missing.status).to.equal(401);
            expect(missing.body).to.deep.equal({ error: messages.unauthenticated });
            expect(missing.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="service:read"`);

            const wrong = await server.request('/mcp', { method: 'POST', headers, body: init, token: 'asy_nope' });
            expect(wrong.status).to.equal(401);
            expect(wrong.headers.get('www-authenticate')).to.match(/^Bearer error="invalid_token", resource_metadata="/);

            const ok = await server.request('/mcp', { method: 'POST', headers, body: init, token: owner.token });
            expect(ok.status).to.equal(200);
            expect(ok.body.result.serverInfo.name).to.equal('arcasync');
        });

        it('answers GET and DELETE with a Spanish 405 and checks Host and Origin', async () => {

            for (const method of ['GET', 'DELETE']) {
                const res = await server.request('/mcp', { method, token: owner.token });
                expect(res.status, method).to.equal(405);
                expect(res.body).to.deep.equal({ error: mcpMessages.postOnly });
                expect(res.headers.get('allow')).to.equal('POST');
            }

            const init = {
                jsonrpc: '2.0',
                id: 1,
                method: 'initialize',
                params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
            };
            const accept = 'application/json, text/event-stream';
            const rebound = await server.request('/mcp', { method: 'POST', token: owner.token, body: init, headers: { accept, origin: 'http://evil.example' } });
            expect(rebound.status).to.equal(403);
            expect(rebound.body).to.deep.equal({ error: httpMessages.forbiddenHost });

            const local = await server.request('/mcp', { method: 'POST', token: owner.token, body: init, headers: { accept, origin: 'http://localhost:6274' } });
            expect(local.status).to.equal(200);
            expect(local.headers.get('access-control-allow-origin')).to.equal('http://localhost:6274');

            const preflight = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } });
            expect(preflight.status).to.equal(200);
            expect(preflight.headers.get('access-control-allow-headers')).to.match(/authorization/i);
        });

        it('publishes the protected-resource metadata (RFC 9728)', async () => {

            for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
                const res = await server.request(path);
                expect(res.status).to.equal(200);
                expect(res.body).to.include({ resource: `${server.url}/mcp` });
                expect(res.body.authorization_servers).to.deep.equal([server.url]);
                expect(res.body.scopes_supported).to.deep.equal(['service:read']);
            }
        });
    });
}
