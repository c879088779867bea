import { expect } from 'chai';
import { assignTag } from '../../../core/use-cases/staff/assign-tag.js';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { createTag } from '../../../core/use-cases/staff/create-tag.js';
import { runCli } from '../../support/cli.js';
import { invoice, movement, notification, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startServerOn, startTestServer, writeServerEnv } from '../../support/server.js';
import { databaseOf } from '../../support/app.js';

// Read answers are kept in memory per process (READ_CACHE_MB) and reused only while the data
// version they were read at is current: every change an endpoint shows, made through any
// path and by any process, shows on the very next request.

for (const database of testDatabases()) {

    describe(`Read cache (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, env: writeServerEnv, inject: true });
        });

        after(async () => {

            await server.stop();
        });

        const get = (user: SeededUser, path: string, on = server) => on.ok(path, user.token);

        const setup = async () => {

            const user = await seedAccount(server.app.ports, { writing: true });
            const client = await addClient(server.app.ports, user.accountId, { cuit: '20123456786', nombre: 'Ana', apellido: 'García' });
            return { user, client, cuit: '20123456786' };
        };

        it('answers a repeated read from memory: a change made behind the data version does not show', async () => {

            const { user, client, cuit } = await setup();
            await server.app.ports.invoices.save(client.id, 'issued', [invoice({ importe: 100 })], Date.UTC(2026, 2, 14));
            const path = `/v1/cuits/${cuit}/mis-comprobantes/emitidos`;
            // Kept from the second request on (adapters/memory/read-cache.ts).
            expect((await get(user, path)).data[0].importe).to.equal(100);
            expect((await get(user, path)).data[0].importe).to.equal(100);

            // Written straight to the table, as no part of the service does: the version stays.
            await databaseOf(server.app)('invoices').where({ client_id: client.id }).update({ importe: 999 });
            expect((await get(user, path)).data[0].importe).to.equal(100);

            // Once the version moves, the stored data is read again.
            await databaseOf(server.app)('clients').where({ id: client.id }).increment('data_version', 1);
            expect((await get(user, path)).data[0].importe).to.equal(999);
        });

        it("reads a client's sync dates twice per data version, not for every page and endpoint of the client", async () => {

            const { user, client, cuit } = await setup();
            await server.app.ports.invoices.save(client.id, 'issued', [invoice({ numeroDesde: '1' }), invoice({ numeroDesde: '2' })], Date.UTC(2026, 2, 14));
            const page = (offset: number) => get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos?limit=1&offset=${offset}`);
            // The dates are kept from the second read on: one page, then another endpoint.
            expect((await page(0)).syncedAt).to.equal('2026-03-14T00:00:00.000Z');
            expect((await get(user, `/v1/cuits/${cuit}/sct`)).syncedAt).to.equal(null);

            // Written behind the version, as no part of the service does: another page, an
            // answer never read before, still shows the date read before.
            await databaseOf(server.app)('sync_states').where({ client_id: client.id }).update({ synced_at: Date.UTC(2026, 2, 15) });
            expect((await page(1)).syncedAt).to.equal('2026-03-14T00:00:00.000Z');

            await databaseOf(server.app)('clients').where({ id: client.id }).increment('data_version', 1);
            expect((await page(1)).syncedAt).to.equal('2026-03-15T00:00:00.000Z');
        });

        it('keeps nothing with READ_CACHE_MB=0', async () => {

            const uncached = await startServerOn(server, { rateLimits: noRateLimits, env: { READ_CACHE_MB: '0' } });
            try {
                const { user, client, cuit } = await setup();
                await server.app.ports.invoices.save(client.id, 'issued', [invoice({ importe: 100 })], Date.UTC(2026, 2, 14));
                const path = `/v1/cuits/${cuit}/mis-comprobantes/emitidos`;
                expect((await get(user, path, uncached)).data[0].importe).to.equal(100);

                await databaseOf(server.app)('invoices').where({ client_id: client.id }).update({ importe: 999 });
                expect((await get(user, path, uncached)).data[0].importe).to.equal(999);
            }
            finally {
                await uncached.stop();
            }
        });

        it('serves the same body, content type included, from memory as from the database', async () => {

            const { user, cuit } = await setup();
            const first = await server.request('/v1/cuits', { token: user.token });
            const second = await server.request('/v1/cuits', { token: user.token });
            expect(second.text).to.equal(first.text);
            expect(second.headers.get('content-type')).to.equal(first.headers.get('content-type')).and.to.equal('application/json; charset=utf-8');
            expect((await get(user, `/v1/cuits/${cuit}/sct`))).to.deep.equal({ data: null, syncedAt: null });
        });

        describe('a change of the CUIT list shows on the next request', () => {

            it('after POST, PATCH and DELETE through the API', async () => {

                const { user, cuit } = await setup();
                expect((await get(user, '/v1/cuits')).pagination.total).to.equal(1);

                const created = await server.request('/v1/cuits', {
                    token: user.token,
                    method: 'POST',
                    body: { tipo: 'persona-fisica', cuit: '27234567891', nombre: 'Beatriz', apellido: 'Alonso', clave_arca: 'secreta-123' }
                });
                expect(created.status, created.text).to.equal(201);
                let list = await get(user, '/v1/cuits');
                expect(list.data.map((item: { nombre: string }) => item.nombre)).to.deep.equal(['Alonso, Beatriz', 'García, Ana']);

                const patched = await server.request(`/v1/cuits/${cuit}`, { token: user.token, method: 'PATCH', body: { apellido: 'Zapata' } });
                expect(patched.status, patched.text).to.equal(200);
                list = await get(user, '/v1/cuits');
                expect(list.data.map((item: { nombre: string }) => item.nombre)).to.deep.equal(['Alonso, Beatriz', 'Zapata, Ana']);

                const deleted = await server.request('/v1/cuits/27234567891', { token: user.token, method: 'DELETE' });
                expect(deleted.status, deleted.text).to.equal(204);
                list = await get(user, '/v1/cuits');
                expect(list.pagination.total).to.equal(1);
                expect(list.data[0].nombre).to.equal('Zapata, Ana');
            });

            it('after a client is added by staff or the sync', async () => {

                const { user } = await setup();
                expect((await get(user, '/v1/cuits')).pagination.total).to.equal(1);
                await addClient(server.app.ports, user.accountId, { cuit: '27234567891' });
                expect((await get(user, '/v1/cuits')).pagination.total).to.equal(2);
            });

            it('after tags are created and assigned', async () => {

                const { user, cuit } = await setup();
                expect((await get(user, '/v1/tags')).data).to.deep.equal([]);
                expect((await get(user, '/v1/cuits')).data[0].etiquetas).to.deep.equal([]);

                await createTag(server.app.ports, { accountId: user.accountId, name: 'Mensuales', color: '#112233' });
                expect((await get(user, '/v1/tags')).data).to.deep.equal([{ nombre: 'Mensuales', color: '#112233' }]);
                expect((await get(user, '/v1/cuits')).data[0].etiquetas).to.deep.equal([]);

                await assignTag(server.app.ports, { accountId: user.accountId, cuit, name: 'Mensuales' });
                expect((await get(user, '/v1/cuits')).data[0].etiquetas).to.deep.equal(['Mensuales']);
            });

            it('after a member is assigned a CUIT, for that member only', async () => {

                const { user: owner, cuit } = await setup();
                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                expect((await get(member, '/v1/cuits')).pagination.total).to.equal(0);
                expect((await get(owner, '/v1/cuits')).pagination.total).to.equal(1);

                await assignClientToUser(server.app.ports, { userId: member.userId, cuit });
                expect((await get(member, '/v1/cuits')).data.map((item: { cuit: string }) => item.cuit)).to.deep.equal([cuit]);
                expect((await get(owner, '/v1/cuits')).pagination.total).to.equal(1);
            });

            it('after the registry is synchronized', async () => {

                const { user, client } = await setup();
                const before = (await get(user, '/v1/cuits')).data[0];
                expect([before.monotributista, before.categoria, before.sistemaRegistralSyncedAt]).to.deep.equal([null, null, null]);

                await server.app.ports.registry.save(client.id, { monotributista: true, autonomo: false, categoria: 'C' }, Date.UTC(2026, 2, 15, 3));
                const after = (await get(user, '/v1/cuits')).data[0];
                expect(
                    [after.monotributista, after.autonomo, after.categoria, after.sistemaRegistralSyncedAt]
                ).to.deep.equal([true, false, 'C', '2026-03-15T03:00:00.000Z']);
                expect((await get(user, '/v1/cuits?monotributista=true')).pagination.total).to.equal(1);
            });

            it('after a change made by another process (the staff CLI)', async () => {

                const { user, cuit } = await setup();
                await createTag(server.app.ports, { accountId: user.accountId, name: 'Anuales', color: '#445566' });
                expect((await get(user, '/v1/cuits')).data[0].etiquetas).to.deep.equal([]);

                const run = await runCli(
                    server.app.config.databaseUrl,
                    ['tag', 'assign', '--account', String(user.accountId), '--cuit', cuit, '--name', 'Anuales']
                );
                expect(run.code, run.stderr).to.equal(0);
                expect((await get(user, '/v1/cuits')).data[0].etiquetas).to.deep.equal(['Anuales']);
            });

            it('after a change made through another server on the same database', async () => {

                const other = await startServerOn(server, { rateLimits: noRateLimits, env: writeServerEnv });
                try {
                    const { user, cuit } = await setup();
                    expect((await get(user, '/v1/cuits')).data[0].email).to.equal(null);
                    expect((await get(user, '/v1/cuits', other)).data[0].email).to.equal(null);

                    const patched = await other.request(`/v1/cuits/${cuit}`, { token: user.token, method: 'PATCH', body: { email: 'ana@example.com' } });
                    expect(patched.status, patched.text).to.equal(200);
                    expect((await get(user, '/v1/cuits')).data[0].email).to.equal('ana@example.com');
                }
                finally {
                    await other.stop();
                }
            });
        });

        describe("a synchronization shows on the CUIT's endpoints at the next request", () => {

            it('invoices, issued and received', async () => {

                const { user, client, cuit } = await setup();
                const issued = `/v1/cuits/${cuit}/mis-comprobantes/emitidos`;
                const received = `/v1/cuits/${cuit}/mis-comprobantes/recibidos`;
                expect((await get(user, issued)).pagination.total).to.equal(0);
                expect((await get(user, received)).pagination.total).to.equal(0);

                await server.app.ports.invoices.save(
                    client.id,
                    'issued',
                    [invoice(), invoice({ numeroDesde: '00000002', numeroHasta: '00000002' })],
                    Date.UTC(2026, 2, 15)
                );
                expect((await get(user, issued)).pagination.total).to.equal(2);
                expect((await get(user, issued)).syncedAt).to.equal('2026-03-15T00:00:00.000Z');

                await server.app.ports.invoices.save(client.id, 'received', [invoice()], Date.UTC(2026, 2, 15, 1));
                expect((await get(user, received)).pagination.total).to.equal(1);
            });

            it('SCT', async () => {

                const { user, client, cuit } = await setup();
                expect((await get(user, `/v1/cuits/${cuit}/sct`)).data).to.equal(null);
                await server.app.ports.sct.replace(client.id, sctData(), Date.UTC(2026, 2, 15));
                expect((await get(user, `/v1/cuits/${cuit}/sct`)).data).to.deep.equal(sctData());
            });

            it('CCMA balances and movements', async () => {

                const { user, client, cuit } = await setup();
                expect((await get(user, `/v1/cuits/${cuit}/ccma`)).data).to.equal(null);
                expect((await get(user, `/v1/cuits/${cuit}/ccma/movimientos`)).data).to.deep.equal([]);

                await server.app.ports.ccma.replace(
                    client.id,
                    { saldoDeudor: 25000, saldoAcreedor: null },
                    [movement({ orden: 1, periodo: '01/2026' })],
                    Date.UTC(2026, 2, 15)
                );
                expect((await get(user, `/v1/cuits/${cuit}/ccma`)).data).to.deep.equal({ saldoDeudor: 25000, saldoAcreedor: null });
                expect((await get(user, `/v1/cuits/${cuit}/ccma/movimientos`)).data).to.have.length(1);
            });

            it('DFE notifications', async () => {

                const { user, client, cuit } = await setup();
                expect((await get(user, `/v1/cuits/${cuit}/dfe`)).pagination.total).to.equal(0);
                await server.app.ports.notifications.save(client.id, [notification({ fechaRecepcion: '2026-03-01T10:00:00.000Z' })], Date.UTC(2026, 2, 15));
                expect((await get(user, `/v1/cuits/${cuit}/dfe`)).pagination.total).to.equal(1);
            });

            it("a deleted CUIT's endpoints answer 404 at once, with nothing served from memory", async () => {

                const { user, client, cuit } = await setup();
                await server.app.ports.sct.replace(client.id, sctData(), Date.UTC(2026, 2, 15));
                expect((await get(user, `/v1/cuits/${cuit}/sct`)).data).to.deep.equal(sctData());

                const deleted = await server.request(`/v1/cuits/${cuit}`, { token: user.token, method: 'DELETE' });
                expect(deleted.status, deleted.text).to.equal(204);
                expect((await server.request(`/v1/cuits/${cuit}/sct`, { token: user.token })).status).to.equal(404);
            });
        });
    });
}
