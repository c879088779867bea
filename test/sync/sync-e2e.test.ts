import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createAuthorityClient } from '../../app/authority.js';
import { syncDeps } from '../../app/sync.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import type { DateRange } from '../../core/domain/period.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';
import { databaseOf } from '../support/app.js';
import { pendingJobRow } from '../../adapters/knex/pending-job.js';

// End to end: the simulated authority and the REST server; clients created through the API;
// the sync engine driving the real arca adapter over HTTP; every endpoint read back and
// compared with what the simulated authority served.

const internals = {
    today: '2026-03-15',
    // The first sync's backfill: the twelve months up to today.
    backfill: { fromDate: '2025-03-16', toDate: '2026-03-15' } satisfies DateRange,
    cents: (value: number): number => Math.round(value * 100),

    async all(server: TestServer, token: string, path: string): Promise<{ items: any[]; bodies: any[] }> {

        const items: any[] = [];
        const bodies: any[] = [];
        for (let offset = 0; ; offset += 100) {
            const separator = path.includes('?') ? '&' : '?';
            const res = await server.request(`${path}${separator}limit=100&offset=${offset}`, { token });
            expect(res.status, `${path}: ${res.text}`).to.equal(200);
            bodies.push(res.body);
            items.push(...res.body.data);
            if (offset + 100 >= res.body.pagination.total) {
                return { items, bodies };
            }
        }
    }
};

for (const database of testDatabases()) {

    describe(`synchronization end to end: simulated authority, arca adapter, REST API (${database.name})`, function () {

        this.timeout(60_000);
        let authority: SimulatedAuthority;
        let server: TestServer;
        let user: SeededUser;
        // A monotributista who represents two legal entities, a person, an autónomo.
        const clients = { maria: '20-27345678-2', juan: '23-31234567-9', ana: '27-23456789-1', entity: '30-70912345-8', other: '30-71234567-1' };
        const cuitOf = (display: string) => display.replace(/-/g, '');

        const runSync = async () => {

            const deps = syncDeps(server.app, createAuthorityClient({ authority: 'simulated', authorityUrl: authority.url }));
            const worker = startWorker(deps, { owner: `test-${randomBytes(4).toString('hex')}`, concurrency: 4, leaseMs: 60_000, drain: true, pollMs: 20 });
            return await worker.done;
        };

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0, today: internals.today });
            // No representation set up on the authority's side: a person's key may act for any
            // legal entity there, as the accountant registered it.
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64') }, clock: testClock(`${internals.today}T12:00:00Z`) });
            user = await seedAccount(server.app.ports, { writing: true });
        });

        after(async () => {

            await server.stop();
            await authority.stop();
        });

        it('creates clients through the API, each with its first sync pending and nothing synchronized yet', async () => {

            const bodies = [
                { tipo: 'persona-fisica', cuit: clients.maria, nombre: 'María', apellido: 'González', clave_arca: 'clave-de-maria' },
                { tipo: 'persona-fisica', cuit: clients.juan, nombre: 'Juan', apellido: 'Pérez', clave_arca: 'clave-de-juan' },
                { tipo: 'persona-fisica', cuit: clients.ana, nombre: 'Ana', apellido: 'Sosa', clave_arca: 'clave-de-ana' },
                { tipo: 'persona-juridica', cuit: clients.entity, razon_social: 'La Espiga SRL', representante: clients.maria },
                { tipo: 'persona-juridica', cuit: clients.other, razon_social: 'El Molino SA', representante: clients.maria }
            ];
            for (const body of bodies) {
                const res = await server.request('/v1/cuits', { token: user.token, method: 'POST', body });
                expect(res.status, res.text).to.equal(201);
            }

            const jobs = await databaseOf(server.app)('sync_jobs').select('reason', 'status');
            expect(jobs).to.deep.equal(bodies.map(() => ({ reason: 'first', status: 'pending' })));
            const list = await server.request('/v1/cuits', { token: user.token });
            expect(list.body.data.map((item: any) => item.sistemaRegistralSyncedAt)).to.deep.equal(bodies.map(() => null));
            const sct = await server.request(`/v1/cuits/${cuitOf(clients.maria)}/sct`, { token: user.token });
            expect(sct.body).to.deep.equal({ data: null, syncedAt: null });
        });

        it('synchronizes every client and serves exactly what the authority served', async () => {

            const summary = await runSync();
            expect(summary).to.include({ jobs: 5, synced: 5, failed: 0 });
            // One login per key: María's reaches her, La Espiga and El Molino; Juan's, Juan; Ana's, Ana.
            expect(authority.stats().loginsByCuit).to.deep.equal({ [cuitOf(clients.maria)]: 1, [cuitOf(clients.juan)]: 1, [cuitOf(clients.ana)]: 1 });
            expect(await databaseOf(server.app)('sync_jobs').where({ status: 'done' }).count({ n: '*' }).first()).to.deep.include({ n: 5 });
            // The kinds of taxpayer this test means to cover.
            expect(
                [authority.expected(cuitOf(clients.maria)).registry.monotributista, authority.expected(cuitOf(clients.ana)).registry.autonomo]
            ).to.deep.equal([true, true]);
            expect(authority.expected(cuitOf(clients.ana)).ccma.movements.length).to.be.greaterThan(0);

            const list = await internals.all(server, user.token, '/v1/cuits');
            for (const display of Object.values(clients)) {
                const cuit = cuitOf(display);
                const expected = authority.expected(cuit);
                const item = list.items.find((entry) => entry.cuit === cuit);
                if (expected.entity) {
                    // The registry runs for physical persons only (docs/api.md, Resources).
                    expect(item).to.include({ monotributista: null, autonomo: null, categoria: null, sistemaRegistralSyncedAt: null });
                }
                else {
                    expect(item).to.include({ ...expected.registry });
                    expect(item.sistemaRegistralSyncedAt).to.be.a('string');
                }

                for (const [kind, path, counterpart] of [['issued', 'emitidos', 'receptor'], ['received', 'recibidos', 'emisor']] as const) {
                    const served = expected.invoicesIn(kind, internals.backfill);
                    expect(served.length, `${cuit} ${kind}`).to.be.greaterThan(0);
                    const { items, bodies } = await internals.all(server, user.token, `/v1/cuits/${cuit}/mis-comprobantes/${path}?from_date=${internals.backfill.fromDate}&to_date=${internals.backfill.toDate}`);
                    expect(bodies[0].syncedAt, `${cuit} ${kind}`).to.be.a('string');
                    expect(bodies[0].pagination.total).to.equal(served.length);
                    expect(items.map((entry) => entry.fecha)).to.deep.equal([...items.map((entry) => entry.fecha)].sort());
                    const total = (list: { importe: number }[]) => list.reduce((sum, entry) => sum + internals.cents(entry.importe), 0);
                    expect(total(items)).to.equal(total(served));
                    const key = (entry: {
                        fecha: string;
                        tipo: string;
                        puntoVenta: string;
                        numeroDesde: string;
                        importeOriginal: number;
                        monedaOriginal: string;
                        tipoCambio: number;
                        importe: number;
                    }) => [
                        entry.fecha.slice(0, 10),
                        entry.tipo,
                        Number(entry.puntoVenta),
                        Number(entry.numeroDesde),
                        entry.importeOriginal,
                        entry.monedaOriginal,
                        entry.tipoCambio,
                        entry.importe
                    ].join('|');
                    expect(items.map(key).sort()).to.deep.equal(served.map(key).sort());
                    for (const entry of items) {
                        expect(entry.importe).to.equal(Math.round(entry.importeOriginal * entry.tipoCambio * 100) / 100);
                        expect(entry).to.have.property(counterpart);
                    }
                }

                const sct = await server.request(`/v1/cuits/${cuit}/sct`, { token: user.token });
                expect(sct.body.syncedAt).to.be.a('string');
                expect(sct.body.data).to.deep.equal({ deuda: expected.sct.deuda, vencimientos: expected.sct.vencimientos, ddjj: expected.sct.ddjj });

                const ccma = await server.request(`/v1/cuits/${cuit}/ccma`, { token: user.token });
                expect(ccma.body).to.deep.include({ data: expected.ccma.balances });
                expect(ccma.body.syncedAt).to.be.a('string');
                const movements = await internals.all(server, user.token, `/v1/cuits/${cuit}/ccma/movimientos`);
                expect(movements.bodies[0].syncedAt).to.be.a('string');
                expect(movements.items).to.have.length(expected.ccma.movements.length);
                expect(movements.bodies[0].pagination.total).to.equal(new Set(expected.ccma.movements.map((movement) => movement.periodo)).size);
                const periodOrder = (periodo: string) => `${periodo.slice(3)}${periodo.slice(0, 2)}`;
                const ordered = [...expected.ccma.movements].sort((a, b) => periodOrder(b.periodo).localeCompare(periodOrder(a.periodo)) || a.orden - b.orden);
                expect(movements.items).to.deep.equal(ordered);

                const dfe = await internals.all(server, user.token, `/v1/cuits/${cuit}/dfe`);
                expect(dfe.bodies[0].syncedAt).to.be.a('string');
                expect(dfe.items).to.have.length(expected.notifications.length);
                expect(dfe.items.map((entry) => entry.fechaRecepcion)).to.deep.equal([...dfe.items.map((entry) => entry.fechaRecepcion)].sort().reverse());
                for (const notification of expected.notifications) {
                    const stored = dfe.items.find((entry) => entry.arcaId === notification.arcaId);
                    expect(stored, notification.arcaId).to.include({
                        asunto: notification.asunto,
                        fechaRecepcion: notification.fechaRecepcion,
                        leidaAt: notification.readAtAuthority ? notification.fechaRecepcion : null
                    });
                }

                // The synchronizer only lists: no unread notification was opened.
                const unread = expected.notifications.filter((notification) => !notification.readAtAuthority).map((notification) => notification.arcaId);
                expect(authority.detailsOpened(cuit).filter((id) => unread.includes(id))).to.deep.equal([]);
            }

        });

        it('a later sync stores nothing twice and keeps leidaAt as the service set it', async () => {

            const cuit = cuitOf(clients.maria);
            const count = async () => Number((await databaseOf(server.app)('invoices').count({ n: '*' }).first())!.n);
            const before = await count();
            const unreadBefore = await databaseOf(server.app)('dfe_notifications').whereNull('leida_at').count({ n: '*' }).first();
            server.clock.advance(86_400_000);
            const res = await server.request('/v1/cuits', { token: user.token });
            expect(res.status).to.equal(200);

            const { clientIds } = { clientIds: (await databaseOf(server.app)('clients').pluck('id')).map(Number) };
            for (const id of clientIds) {
                const at = server.clock.now().getTime();
                await databaseOf(server.app)('sync_jobs').insert(pendingJobRow({ clientId: id, reason: 'forced', runAfter: at, createdAt: at }));
            }

            expect(await runSync()).to.include({ synced: 5, failed: 0 });
            expect(await count()).to.equal(before);
            expect(await databaseOf(server.app)('dfe_notifications').whereNull('leida_at').count({ n: '*' }).first()).to.deep.equal(unreadBefore);
            const sct = await server.request(`/v1/cuits/${cuit}/sct`, { token: user.token });
            expect(Date.parse(sct.body.syncedAt)).to.equal(server.clock.now().getTime());
        });
    });
}
