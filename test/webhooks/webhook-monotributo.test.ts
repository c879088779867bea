import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebhookWorker } from '../../app/webhooks.js';
import { arcaDay } from '../../core/domain/arca-day.js';
import { invoice } from '../support/data.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import type { TestClock, TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import { readmeRecipe, startReceiver, waitUntil } from '../support/receiver.js';
import { databaseOf } from '../support/app.js';

// Issue 41, item 7: `monotributo.tope` when a monotributista's billing of the last 12 months
// crosses 80 % of its category's cap, 100 %, or K's cap: once per crossing, written with the
// invoices that caused it, signed and delivered like every event, to an endpoint that chose it.
// Category A (10.277.988,13 in the table in force; K 108.357.084,05).

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    realClock: (): TestClock => ({ now: () => new Date(), set() {}, advance() {} }),
    env: { WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', WEBHOOK_BACKOFF_BASE_MS: '40', WEBHOOK_POLL_MS: '20', WEBHOOK_TIMEOUT_SECONDS: '1' } as Record<string, string>
};

for (const database of testDatabases()) {

    describe(`webhook monotributo.tope on crossing a cap (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;

        before(async () => {

            server = await startTestServer(database, { clock: internals.realClock(), env: { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env } });
        });

        after(async () => {

            await server?.stop();
        });

        it('announces each rise past 80 %, 100 % and K once, again after falling below', async () => {

            const { ports } = server.app;
            const user = await seedAccount(ports);
            const receiver = await startReceiver();
            const worker = startWebhookWorker(server.app);
            try {
                const created = await runCli(server.app.config.databaseUrl, [
                    'webhook', 'create', '--account', String(user.accountId), '--url', `${receiver.url}/tope`, '--json', '--events', 'monotributo.tope'
                ], { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env });
                expect(created.code, created.stderr).to.equal(0);
                const { secret } = JSON.parse(created.stdout) as { secret: string };

                const client = await addClient(ports, user.accountId, { cuit: '20-12345678-6' });
                await ports.registry.save(client.id, { monotributista: true, categoria: 'A', autonomo: false }, Date.now());
                // Inside the window: the last 12 complete months (40 days ago is one of them).
                const fecha = arcaDay(Date.now() - 40 * 86_400_000);
                let number = 0;
                const save = async (tipo: string, importe: number) => {

                    number++;
                    const voucher = invoice({ fecha, tipo, numeroDesde: String(number), numeroHasta: String(number), importeOriginal: importe, importe });
                    await ports.invoices.save(client.id, 'issued', [voucher], Date.now());
                    return voucher;
                };
                const events = async () => (await databaseOf(server.app)('webhook_events').where({ client_id: client.id, type: 'monotributo.tope' }).orderBy('id'))
                    .map((row: { data: string }) => JSON.parse(row.data) as { umbral: string; facturado: number });

                await save('11', 5_000_000);
                expect(await events(), '48,6 %').to.deep.equal([]);
                const second = await save('11', 3_500_000);
                expect((await events()).map((event) => event.umbral), '82,7 %').to.deep.equal(['tope_cerca']);
                // A sync that finds the same invoice again: still above 80 %, nothing new.
                await ports.invoices.save(client.id, 'issued', [second], Date.now());
                expect(await events()).to.have.length(1);

                await save('13', 1_000_000);
                expect(await events(), 'back to 73 %').to.have.length(1);
                await save('11', 1_200_000);
                await save('11', 2_000_000);
                await save('211', 100_000_000);
                const all = await events();
                expect(all.map((event) => event.umbral)).to.deep.equal(['tope_cerca', 'tope_cerca', 'tope_superado', 'fuera_del_regimen']);
                expect(all[2]).to.deep.include({ categoria: 'A', facturado: 10_700_000, tope: 10_277_988.13, usoTope: 1.0411, listado: '/v1/cuits/20123456786/monotributo' });

                await waitUntil(() => receiver.calls.length >= 4, 'four events');
                const verify = await readmeRecipe();
                for (const call of receiver.calls) {
                    expect(verify(secret, String(call.headers['arcasync-signature']), call.body), call.body).to.equal(true);
                }

                const bodies = receiver.calls.map((call) => JSON.parse(call.body) as { tipo: string; cuit: string; datos: { umbral: string } });
                expect(bodies.map((body) => [body.tipo, body.cuit, body.datos.umbral])).to.deep.equal([
                    ['monotributo.tope', '20123456786', 'tope_cerca'],
                    ['monotributo.tope', '20123456786', 'tope_cerca'],
                    ['monotributo.tope', '20123456786', 'tope_superado'],
                    ['monotributo.tope', '20123456786', 'fuera_del_regimen']
                ]);
            }
            finally {
                await worker.stop();
                await receiver.close();
            }
        });
    });

    describe(`monotributo.tope against a table loaded while the service runs (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;
        let dir: string;

        before(async () => {

            server = await startTestServer(database, { clock: internals.realClock(), env: { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env } });
            dir = await mkdtemp(join(tmpdir(), 'arcasync-tope-'));
        });

        after(async () => {

            await server?.stop();
            await rm(dir, { recursive: true, force: true });
        });

        // The service keeps the tables it read between saves: one loaded, then replaced, by
        // another process (`arcasync monotributo cargar`) counts from the next save on.
        it('checks the next save against a table `monotributo cargar` loaded or replaced meanwhile', async () => {

            const { ports } = server.app;
            const user = await seedAccount(ports);
            const created = await runCli(server.app.config.databaseUrl, [
                'webhook', 'create', '--account', String(user.accountId), '--url', 'http://127.0.0.1:9/tope', '--json', '--events', 'monotributo.tope'
            ], { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env });
            expect(created.code, created.stderr).to.equal(0);
            const client = await addClient(ports, user.accountId, { cuit: '20-12345678-6' });
            await ports.registry.save(client.id, { monotributista: true, categoria: 'A', autonomo: false }, Date.now());
            const fecha = arcaDay(Date.now() - 40 * 86_400_000);
            let number = 0;
            const save = async (importe: number) => {

                number++;
                const voucher = invoice({ fecha, tipo: '11', numeroDesde: String(number), numeroHasta: String(number), importeOriginal: importe, importe });
                await ports.invoices.save(client.id, 'issued', [voucher], Date.now());
            };
            const topes = async () => (await databaseOf(server.app)('webhook_events').where({ client_id: client.id, type: 'monotributo.tope' }).orderBy('id'))
                .map((row: { data: string }) => (JSON.parse(row.data) as { tope: number }).tope);
            const load = async (name: string, a: number) => {

                // In force from this month: A's cap `a`, the others as in the table before.
                const table = {
                    vigenciaDesde: `${arcaDay(Date.now()).slice(0, 7)}-01`,
                    fuente: 'Prueba',
                    topes: {
                        A: a, B: 15058447.71, C: 21113696.52, D: 26212853.42, E: 30833964.37, F: 38642048.36,
                        G: 46211109.37, H: 70113407.33, I: 78479211.62, J: 89872640.3, K: 108357084.05
                    }
                };
                await writeFile(join(dir, name), JSON.stringify(table));
                const loaded = await runCli(server.app.config.databaseUrl, ['monotributo', 'cargar', join(dir, name)], { ARCASYNC_SECRET_KEY: internals.secretKey });
                expect(loaded.code, loaded.stderr).to.equal(0);
            };

            await save(5_000_000);
            await save(1);
            expect(await topes(), '48,6 % of 10.277.988,13').to.deep.equal([]);

            await load('menor.json', 6_000_000);
            await save(1);
            expect(await topes(), '83,3 % of 6.000.000').to.deep.equal([6_000_000]);

            await load('corregida.json', 4_000_000);
            await save(1);
            expect(await topes(), 'past 4.000.000').to.deep.equal([6_000_000, 4_000_000]);
        });
    });
}
