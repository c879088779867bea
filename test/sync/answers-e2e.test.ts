import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createAuthorityClient } from '../../app/authority.js';
import { syncDeps } from '../../app/sync.js';
import { startWebhookWorker } from '../../app/webhooks.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { answerTaxpayers } from '../../adapters/authority/simulated/data.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { databaseOf } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import { callTool, connectMcp } from '../support/mcp.js';
import { readmeRecipe, startReceiver, waitUntil } from '../support/receiver.js';
import type { Receiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';

// Issue 41 end to end: the simulated authority's answer CUITs (monotributistas at 87 % of H's
// cap, at D's, at 120 % of C's, past K's; a Responsable Inscripto with A, B, M and credit notes
// both ways) synchronized through the arca adapter, then read through REST and MCP, and the
// caps crossed received as signed `monotributo.tope` webhooks. Today is 2026-03-15: the window
// is 2025-03 to 2026-02 under the table in force since 2026-02-01.

const internals = {
    today: '2026-03-15',
    secretKey: randomBytes(32).toString('base64'),
    env: { WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', WEBHOOK_BACKOFF_BASE_MS: '40', WEBHOOK_POLL_MS: '20', WEBHOOK_TIMEOUT_SECONDS: '1' } as Record<string, string>
};

const { near, atCap, over, beyondK, ri } = answerTaxpayers;

for (const database of testDatabases()) {

    describe(`answers end to end: simulated authority, REST, MCP, webhook (${database.name})`, function () {

        this.timeout(120_000);
        let authority: SimulatedAuthority;
        let server: TestServer;
        let receiver: Receiver;
        let token: string;
        let secret: string;

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0, today: internals.today });
            server = await startTestServer(database, {
                env: { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env },
                clock: testClock(`${internals.today}T12:00:00Z`)
            });
            const user = await seedAccount(server.app.ports, { writing: true });
            token = user.token;
            receiver = await startReceiver();
            const created = await runCli(server.app.config.databaseUrl, [
                'webhook', 'create', '--account', String(user.accountId), '--url', `${receiver.url}/tope`, '--json', '--events', 'monotributo.tope'
            ], { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env });
            expect(created.code, created.stderr).to.equal(0);
            secret = (JSON.parse(created.stdout) as { secret: string }).secret;

            const bodies = [
                ...[near, atCap, over, beyondK].map((profile, index) => ({
                    tipo: 'persona-fisica', cuit: profile.cuit, nombre: 'Cliente', apellido: `Monotributo ${index + 1}`, clave_arca: `clave-${index}`
                })),
                { tipo: 'persona-juridica', cuit: ri.cuit, razon_social: 'Inscripta SA', representante: near.cuit }
            ];
            for (const body of bodies) {
                const res = await server.request('/v1/cuits', { token, method: 'POST', body });
                expect(res.status, res.text).to.equal(201);
            }

            const deps = syncDeps(server.app, createAuthorityClient({ authority: 'simulated', authorityUrl: authority.url }));
            const worker = startWorker(deps, { owner: `test-${randomBytes(4).toString('hex')}`, concurrency: 2, leaseMs: 60_000, drain: true, pollMs: 20 });
            expect(await worker.done).to.include({ jobs: 5, synced: 5, failed: 0 });
        });

        after(async () => {

            await receiver?.close();
            await server?.stop();
            await authority?.stop();
        });

        it('answers each CUIT\'s cap and the portfolio\'s risks over REST', async () => {

            const control = await server.request(`/v1/cuits/${near.cuit}/monotributo`, { token });
            expect(control.status, control.text).to.equal(200);
            expect(control.body.data).to.deep.include({ aplica: true, categoria: 'H', usoTope: 0.87, riesgos: ['tope_cerca'] });
            expect(control.body.data.ventana).to.deep.equal({ desde: '2025-03', hasta: '2026-02' });

            const atTheCap = await server.request(`/v1/cuits/${atCap.cuit}/monotributo`, { token });
            expect(atTheCap.body.data).to.deep.include({ categoria: 'D', usoTope: 1, categoriaSegunFacturacion: 'D', riesgos: ['tope_cerca'] });

            const past = await server.request('/v1/monotributo?riesgo=tope_superado', { token });
            type Row = { cuit: string; usoTope: number; fueraDelRegimen: boolean };
            expect(past.body.data.map((row: Row) => [row.cuit, row.usoTope])).to.deep.equal([[over.cuit, 1.2], [beyondK.cuit, 1.1]]);
            const excluded = await server.request('/v1/monotributo?riesgo=exclusion', { token });
            expect(excluded.body.data.map((row: Row) => [row.cuit, row.fueraDelRegimen])).to.deep.equal([[beyondK.cuit, true]]);
            const nearly = await server.request('/v1/monotributo?riesgo=tope_cerca', { token });
            expect(nearly.body.data.map((row: { cuit: string }) => row.cuit)).to.deep.equal([atCap.cuit, near.cuit]);
        });

        it('answers the Responsable Inscripto\'s IVA position with its A, B, M and credit notes', async () => {

            const expected = authority.expected(ri.cuit);
            // The simulated data has what this test means to cover.
            expect([...new Set(expected.issued.map((item) => item.tipo))]).to.include.members(['1', '3', '6', '51']);
            expect([...new Set(expected.received.map((item) => item.tipo))]).to.include.members(['1', '3', '6', '51']);

            const res = await server.request(`/v1/cuits/${ri.cuit}/iva?desde=2025-03&hasta=2026-02`, { token });
            expect(res.status, res.text).to.equal(200);
            const { data } = res.body;
            expect(data.aplica).to.equal(true);
            expect(data.meses).to.have.length(12);
            // Every voucher the first sync stored (its backfill starts on 2025-03-16) counted on its
            // side, but received B's (they give no crédito).
            const window = (item: { fecha: string }) => item.fecha >= '2025-03-16' && item.fecha <= '2026-02-28';
            const issued = expected.issued.filter(window).length;
            const received = expected.received.filter((item) => window(item) && ['1', '3', '51'].includes(item.tipo)).length;
            expect(data.meses.reduce((sum: number, month: { comprobantesEmitidos: number }) => sum + month.comprobantesEmitidos, 0)).to.equal(issued);
            expect(data.meses.reduce((sum: number, month: { comprobantesRecibidos: number }) => sum + month.comprobantesRecibidos, 0)).to.equal(received);
            expect(data.totales.debitoFiscal).to.be.greaterThan(0);
            expect(data.totales.creditoFiscal).to.be.greaterThan(0);
        });

        it('quotes the answers in the MCP tools', async () => {

            const client = await connectMcp(server, token);
            try {
                const list = await callTool(client, 'listar_cuits', {});
                expect(list.text).to.match(/⚠ tope: Facturó \$ [\d.]+ en los últimos 12 meses: el 87 % del tope de la categoría H\./);
                expect(list.text).to.contain('4 de estos CUIT están cerca del tope de su categoría del monotributo o lo superan');
                const invoices = await callTool(client, 'listar_mis_comprobantes', { cuit: ri.cuit, tipo: 'emitidos', from_date: '2026-02-01', to_date: '2026-02-28' });
                expect(invoices.text).to.contain('Posición de IVA (Responsable Inscripto), 02/2026: débito fiscal $');
                expect((invoices.structured.iva as { desde: string }).desde).to.equal('2026-02');
                const sct = await callTool(client, 'consultar_sct', { cuit: near.cuit });
                expect(sct.text).to.contain('Agenda del 2026-03-15 al 2026-04-14:');
                expect((sct.structured.agenda as { items: { tipo: string }[] }).items.map((item) => item.tipo)).to.include('monotributo_pago');
            }
            finally {
                await client.close();
            }
        });

        it('delivers a signed monotributo.tope for each cap crossed by the first sync', async () => {

            const worker = startWebhookWorker(server.app);
            try {
                await waitUntil(() => receiver.calls.length >= 4, 'four events', 10_000).catch(async (err: Error) => {

                    const events = await databaseOf(server.app)('webhook_events').select('type', 'cuit', 'data', 'fanned_out');
                    throw new Error(`${err.message}: ${JSON.stringify(events)}`);
                });
            }
            finally {
                await worker.stop();
            }

            // Signed at the test clock's time (2026-03-15): the recipe's freshness window is left
            // wide open, the signature itself is checked.
            const verify = await readmeRecipe();
            for (const call of receiver.calls) {
                expect(verify(secret, String(call.headers['arcasync-signature']), call.body, Number.MAX_SAFE_INTEGER), call.body).to.equal(true);
                expect(verify(`${secret}x`, String(call.headers['arcasync-signature']), call.body, Number.MAX_SAFE_INTEGER)).to.equal(false);
            }

            const bodies = receiver.calls.map((call) => JSON.parse(call.body) as { tipo: string; cuit: string; datos: { umbral: string } });
            expect(bodies.map((body) => [body.cuit, body.tipo, body.datos.umbral]).sort()).to.deep.equal([
                [near.cuit, 'monotributo.tope', 'tope_cerca'],
                [atCap.cuit, 'monotributo.tope', 'tope_cerca'],
                [beyondK.cuit, 'monotributo.tope', 'fuera_del_regimen'],
                [over.cuit, 'monotributo.tope', 'tope_superado']
            ].sort());
        });
    });
}
