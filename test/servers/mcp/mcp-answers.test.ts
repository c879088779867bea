import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { numberedInvoices, pesosInvoice, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits } from '../../support/endpoints.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import { callTool, connectMcp } from '../../support/mcp.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, testClock, writeServerEnv } from '../../support/server.js';

// Issue 41, item 6: the answers inside the five MCP tools, as an assistant reads them. Today is
// 2026-03-10 in Buenos Aires (window 2025-03 to 2026-02, table in force since 2026-02-01):
// listar_cuits marks who is near or past the cap, listar_mis_comprobantes adds the cap's
// progress (monotributista) or the IVA position of the period (Responsable Inscripto), and
// consultar_sct adds the CUIT's agenda; the numbers are in structuredContent.

const cuits = { near: '20111111112', over: '20222222223', calm: '27444444445', ri: '30666666667' };
const numbered = numberedInvoices;
const pesos = pesosInvoice;

for (const database of testDatabases()) {

    describe(`MCP tools with the answers: cap, IVA, agenda (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;
        let client: Client;

        const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);

        before(async () => {

            server = await startTestServer(database, { env: writeServerEnv, rateLimits: noRateLimits, clock: testClock('2026-03-10T15:00:00Z') });
            const { ports } = server.app;
            const owner = await seedAccount(ports);
            const synced = Date.UTC(2026, 2, 9, 6, 0, 0);
            const add = async (cuit: string, apellido: string, registry: { monotributista: boolean; categoria: string | null } | null, tipo?: 'persona-juridica') => {

                const record = await addClient(ports, owner.accountId, tipo ? { cuit, tipo, razonSocial: apellido } : { cuit, apellido });
                if (registry) {
                    await ports.registry.save(record.id, { ...registry, autonomo: false }, synced);
                }

                return record.id;
            };

            // 61.250.000 − 6.000 = 61.244.000: 87 % of H's 70.113.407,33.
            const near = await add(cuits.near, 'Cerca', { monotributista: true, categoria: 'H' });
            await ports.invoices.save(near, 'issued', numbered([pesos('2025-10-15', '11', 61_250_000), pesos('2025-12-01', '13', 6_000)]), synced);
            // 20.000.000 of A's 10.277.988,13: past the cap, B's would not cover it either.
            const over = await add(cuits.over, 'Pasado', { monotributista: true, categoria: 'A' });
            await ports.invoices.save(over, 'issued', numbered([pesos('2025-09-01', '11', 20_000_000)]), synced);
            await add(cuits.calm, 'Tranquila', { monotributista: true, categoria: 'B' });

            // February 2026: débito 21.000 − 1.050 = 19.950; crédito 10.500 (the B gives none).
            const ri = await add(cuits.ri, 'Inscripta SA', null, 'persona-juridica');
            await ports.invoices.saveKinds(ri, [
                { kind: 'issued', invoices: numbered([pesos('2026-02-02', '1', 121_000, 21_000), pesos('2026-02-05', '3', 6_050, 1_050)]) },
                { kind: 'received', invoices: numbered([pesos('2026-02-02', '1', 60_500, 10_500), pesos('2026-02-06', '6', 5_756, 999)]) }
            ], synced);
            const sct = sctData();
            await ports.sct.replace(ri, { deuda: [], vencimientos: [{ ...sct.vencimientos[0]!, vencimiento: '2026-03-18T03:00:00.000Z' }], ddjj: [] }, synced);

            client = await connectMcp(server, owner.token);
        });

        after(async () => {

            await client?.close();
            await server?.stop();
        });

        it('listar_cuits marks who is near or past the cap, with the numbers', async () => {

            const { text, structured } = await call('listar_cuits', {});
            expect(text).to.contain('2 de estos CUIT están cerca del tope de su categoría del monotributo o lo superan (marcados con ⚠ tope).');
            expect(text).to.contain('⚠ tope: Facturó $ 61.244.000 en los últimos 12 meses: el 87 % del tope de la categoría H.');
            expect(text).to.contain('⚠ tope: Facturó $ 20.000.000 en los últimos 12 meses: el 195 % del tope de la categoría A. Supera el tope de su categoría: por lo facturado corresponde la categoría C.');
            expect(text).to.match(/Tranquila.*uso del tope: 0 %/);
            expect(text).to.not.match(/Tranquila[^\n]*\n {2}⚠ tope/);

            const rows = structured.monotributo as { cuit: string; usoTope: number; facturado: number; riesgos: string[] }[];
            expect(rows.map((row) => row.cuit).sort()).to.deep.equal([cuits.near, cuits.over, cuits.calm].sort());
            expect(rows.find((row) => row.cuit === cuits.near)).to.include({ facturado: 61_244_000, usoTope: 0.8735 });
            expect(rows.find((row) => row.cuit === cuits.over)!.riesgos).to.deep.equal(['tope_superado']);
            // Filters and pages keep working as before: the RI alone has no cap to show.
            expect((await call('listar_cuits', { monotributista: false })).structured.monotributo).to.deep.equal([]);
        });

        it('listar_mis_comprobantes adds the cap of a monotributista and the IVA of an RI', async () => {

            const mono = await call('listar_mis_comprobantes', { cuit: cuits.near, tipo: 'emitidos', from_date: '2026-03-01', to_date: '2026-03-31' });
            expect(mono.text).to.contain('Monotributo, categoría H: Facturó $ 61.244.000 en los últimos 12 meses: el 87 % del tope de la categoría H.');
            expect(mono.structured.monotributo).to.include({ aplica: true, facturado: 61_244_000, usoTope: 0.8735, categoria: 'H' });
            expect(mono.structured.iva).to.equal(null);

            const ri = await call('listar_mis_comprobantes', { cuit: cuits.ri, tipo: 'recibidos', from_date: '2026-02-01', to_date: '2026-02-28' });
            expect(ri.text).to.contain('Posición de IVA (Responsable Inscripto), 02/2026: débito fiscal $ 19.950,00, crédito fiscal $ 10.500,00, saldo técnico $ 9.450,00 a pagar.');
            expect(ri.text).to.contain('No incluye: Percepciones y retenciones de IVA sufridas');
            expect(ri.structured.monotributo).to.equal(null);
            expect((ri.structured.iva as { totales: unknown }).totales).to.deep.equal({ debitoFiscal: 19_950, creditoFiscal: 10_500, saldoTecnico: 9_450 });

            // A long period: the position covers its last 24 months, one line a month.
            const long = await call('listar_mis_comprobantes', { cuit: cuits.ri, tipo: 'emitidos', from_date: '2023-01-01', to_date: '2026-02-28' });
            expect((long.structured.iva as { desde: string; hasta: string })).to.include({ desde: '2024-03', hasta: '2026-02' });
            expect(long.text).to.contain('- 02/2026: débito $ 19.950,00, crédito $ 10.500,00, saldo $ 9.450,00 (2 comprobantes emitidos, 1 recibido)');
        });

        it('consultar_sct adds the CUIT\'s agenda of the next 30 days', async () => {

            const ri = await call('consultar_sct', { cuit: cuits.ri });
            expect(ri.text).to.match(/Agenda del 2026-03-10 al 2026-04-09: 1 vencimiento\.\n- 2026-03-18 /);
            expect(ri.structured.agenda).to.deep.include({ desde: '2026-03-10', hasta: '2026-04-09' });

            // A monotributista never synchronized with SCT still has its monthly payment: the
            // 20th of March 2026 is a Friday, of April a Monday.
            const calm = await call('consultar_sct', { cuit: cuits.calm });
            expect(calm.text).to.contain('Sin datos de la cuenta corriente (SCT).');
            expect(calm.text).to.contain('Agenda del 2026-03-10 al 2026-04-09: 1 vencimiento.\n- 2026-03-20 Pago mensual del monotributo');
            const items = (calm.structured.agenda as { items: { tipo: string; fecha: string; cuit: string }[] }).items;
            expect(items.map((item) => [item.fecha, item.tipo, item.cuit])).to.deep.equal([['2026-03-20', 'monotributo_pago', cuits.calm]]);
        });
    });
}
