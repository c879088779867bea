import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { invoice, movement, notification } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount, tagClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// The MCP tools' readable text is Spanish as a person writes it (issue 37, item 9): "de el" and
// "a el" contracted, a count of one with its noun in the singular (and its verb), the CCMA's
// periods said plainly, and a sale to a consumidor final named as such, never "s/d (0)".

const internals = {
    syncedAt: Date.parse('2026-03-14T03:00:00Z'),
    failedAt: Date.parse('2026-03-15T03:00:00Z'),

    textOf: (result: CallToolResult): string => result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n'),

    // What no text may say: an uncontracted article, or "1" before a plural noun.
    sloppy: [/\bde el\b/i, /\ba el\b/i, /(?<![\d.,/])1 (?!de\b|a\b)[a-záéíóúñ]+s\b/i, /s\/d \(0\)/, /desde el s\/f/]
};

for (const database of testDatabases()) {

    describe(`MCP texts in grammatical Spanish (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let client: Client;
        const texts: string[] = [];

        const call = async (name: string, args: Record<string, unknown>): Promise<string> => {

            const result = await client.callTool({ name, arguments: args }) as CallToolResult;
            expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
            const text = internals.textOf(result);
            texts.push(text);
            return text;
        };

        before(async () => {

            server = await startTestServer(database, { env: writeServerEnv });
            const ports = server.app.ports;
            const owner = await seedAccount(ports);

            // Synchronized and well: one sale to a consumidor final in March; in February an
            // invoice and the credit note that takes it back; three CCMA periods; one notification.
            const ok = await addClient(ports, owner.accountId, { cuit: '20-12345678-6', nombre: 'María', apellido: 'González', claveArca: 'clave-1' });
            await ports.invoices.save(ok.id, 'issued', [
                invoice({ fecha: '2026-03-02', counterpart: { tipoDocumento: '99', numeroDocumento: '0', nombre: null } }),
                invoice({ fecha: '2026-02-10', numeroDesde: '00000002', numeroHasta: '00000002' }),
                invoice({ fecha: '2026-02-12', tipo: '13', numeroDesde: '00000003', numeroHasta: '00000003' })
            ], internals.syncedAt);
            await ports.ccma.replace(ok.id, { saldoDeudor: 0, saldoAcreedor: null }, [
                movement({ orden: 1, periodo: '01/2026' }),
                movement({ orden: 2, periodo: '01/2026', descripcion: 'Intereses' }),
                movement({ orden: 1, periodo: '02/2026', fechaMovimiento: '2026-02-20T00:00:00.000Z' }),
                movement({ orden: 1, periodo: '03/2026', fechaMovimiento: '2026-03-20T00:00:00.000Z' })
            ], internals.syncedAt);
            await ports.notifications.save(ok.id, [notification({ arcaId: '1', asunto: 'Aviso', fechaRecepcion: '2026-03-01T10:00:00.000Z' })], internals.syncedAt);

            // Synchronized once, then ARCA failed: its data no longer updates.
            const stale = await addClient(ports, owner.accountId, { cuit: '27-23456789-1', nombre: 'Juan', apellido: 'Pérez', claveArca: 'clave-2' });
            await ports.invoices.save(stale.id, 'issued', [invoice({ fecha: '2026-03-02' })], internals.syncedAt);
            await ports.notifications.save(stale.id, [notification({ arcaId: '2', fechaRecepcion: '2026-03-01T10:00:00.000Z' })], internals.syncedAt);
            for (const system of ['issued_invoices', 'dfe'] as const) {
                await ports.syncStates.recordFailure(stale.id, system, messages.authority.unavailable, internals.failedAt, 'arca_no_disponible');
            }

            // Never synchronized: ARCA failed the first time.
            const empty = await addClient(ports, owner.accountId, { cuit: '20-30405060-9', nombre: 'Nuevo', apellido: 'Díaz', claveArca: 'clave-3' });
            await ports.syncStates.recordFailure(empty.id, 'dfe', messages.authority.unavailable, internals.failedAt, 'arca_no_disponible');
            await tagClient(ports, owner.accountId, '20304050609', 'Nuevos');

            // No key saved: a state without a date.
            await addClient(ports, owner.accountId, { cuit: '27-33344455-6', nombre: 'Sin', apellido: 'Clave' });

            client = new Client({ name: 'prueba', version: '1.0.0' });
            await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
                requestInit: { headers: { authorization: `Bearer ${owner.token}` } }
            }));
        });

        after(async () => {

            await client?.close();
            await server?.stop();
        });

        it('contracts "de el" into "del", and the verb agrees with what it names', async () => {

            expect(await call('listar_dfe', { cuit: '27333444556' })).to.contain(
                'Sin datos del domicilio fiscal electrónico (DFE): El CUIT no tiene clave fiscal guardada. Cargá la clave fiscal'
            );

            expect(await call('listar_dfe', { cuit: '20123456786' })).to.contain('Estado del domicilio fiscal electrónico (DFE): al día.');
            expect(await call('listar_dfe', { cuit: '20304050609' })).to.contain('Sin datos del domicilio fiscal electrónico (DFE): ARCA no estuvo disponible');

            expect(await call('listar_dfe', { cuit: '27234567891' })).to.contain('Atención: el domicilio fiscal electrónico (DFE) no se actualiza desde el 14/3/2026');
            expect(await call('listar_mis_comprobantes', { cuit: '27234567891', tipo: 'emitidos', from_date: '2026-03-01', to_date: '2026-03-31' }))
                .to.contain('Atención: los comprobantes emitidos no se actualizan desde el 14/3/2026');
        });

        it('says a count of one in the singular, with its verb', async () => {

            const march = await call('listar_mis_comprobantes', { cuit: '20123456786', tipo: 'emitidos', from_date: '2026-03-01', to_date: '2026-03-31' });
            expect(march).to.contain('Comprobante 1 de 1.');
            expect(march).to.contain('Resumen del período: 1 comprobante.');
            expect(march).to.contain('- PES: 1 comprobante; total $ 1.210,00');

            const february = await call('listar_mis_comprobantes', { cuit: '20123456786', tipo: 'emitidos', from_date: '2026-02-01', to_date: '2026-02-28' });
            expect(february).to.contain('Comprobantes 1 a 2 de 2.');
            expect(february).to.contain('Resumen del período: 2 comprobantes (1 nota de crédito, que resta).');

            expect(await call('listar_dfe', { cuit: '20123456786' })).to.contain('Notificación 1 de 1.');

            expect(await call('listar_cuits', { etiquetas: ['Nuevos'] })).to.contain('1 de estos CUIT no se puede sincronizar bien con ARCA (marcado con ⚠).');
            expect(await call('listar_cuits', {})).to.contain('3 de estos CUIT no se pueden sincronizar bien con ARCA (marcados con ⚠).');
        });

        it('says which CCMA periods a page holds, of how many, and their movements', async () => {

            expect(await call('consultar_ccma', { cuit: '20123456786', consulta: 'movimientos', limit: 2 }))
                .to.match(/^Movimientos de la CCMA: períodos 1 a 2 de 3 \(2 movimientos\)\./);
            expect(await call('consultar_ccma', { cuit: '20123456786', consulta: 'movimientos', limit: 1, offset: 2 }))
                .to.match(/^Movimientos de la CCMA: período 3 de 3 \(2 movimientos\)\./);
            expect(await call('consultar_ccma', { cuit: '20123456786', consulta: 'movimientos', limit: 1 }))
                .to.match(/^Movimientos de la CCMA: período 1 de 3 \(1 movimiento\)\./);
            expect(await call('consultar_ccma', { cuit: '20123456786', consulta: 'movimientos', offset: 5 }))
                .to.match(/^Sin movimientos de la CCMA en esta página \(3 períodos en total\)\./);
            expect(await call('consultar_ccma', { cuit: '27234567891', consulta: 'movimientos' })).to.match(/^Sin movimientos de la CCMA\./);
        });

        it('names a sale to a consumidor final as such', async () => {

            const march = await call('listar_mis_comprobantes', { cuit: '20123456786', tipo: 'emitidos', from_date: '2026-03-01', to_date: '2026-03-31' });
            expect(march).to.match(/^- 2026-03-02 tipo 11 00002-00000001: \$ 1\.210,00; receptor: consumidor final$/m);
            const february = await call('listar_mis_comprobantes', { cuit: '20123456786', tipo: 'emitidos', from_date: '2026-02-01', to_date: '2026-02-28' });
            expect(february).to.contain('receptor: Cliente SA (30712345671)');
        });

        it('no text of any tool says "de el", "1" before a plural, "s/d (0)" or "desde el s/f"', async () => {

            for (const [name, args] of [
                ['consultar_sct', { cuit: '20123456786' }],
                ['consultar_ccma', { cuit: '20123456786' }],
                ['consultar_ccma', { cuit: '20304050609' }],
                ['listar_mis_comprobantes', { cuit: '20123456786', tipo: 'recibidos' }]
            ] as const) {
                await call(name, args);
            }

            expect(texts.length).to.be.above(15);
            for (const text of texts) {
                for (const pattern of internals.sloppy) {
                    expect(text, String(pattern)).to.not.match(pattern);
                }
            }
        });
    });
}
