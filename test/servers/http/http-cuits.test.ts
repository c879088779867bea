import { expect } from 'chai';
import type { ClientRecord } from '../../../core/domain/client.js';
import { messages } from '../../../core/domain/messages.js';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits, perCuitEndpoints } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser, tagClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

// docs/api.md, Resources and Reads: GET /v1/cuits, and who sees which CUIT on every
// per-CUIT endpoint.

for (const database of testDatabases()) {

    describe(`GET /v1/cuits (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, inject: true });
        });

        after(async () => {

            await server.stop();
        });

        const list = async (user: SeededUser, query = '') => {

            const res = await server.request(`/v1/cuits${query}`, { token: user.token });
            expect(res.status, res.text).to.equal(200);
            return res.body;
        };

        describe('items', () => {

            it('carries every field of a CUIT list item, nulls included, and nothing else', async () => {

                const user = await seedAccount(server.app.ports);
                const person = await addClient(server.app.ports, user.accountId, { cuit: '20-12345678-6', nombre: 'María', apellido: 'González' });
                const entity = await addClient(server.app.ports, user.accountId, {
                    cuit: '30712345671',
                    tipo: 'persona-juridica',
                    razonSocial: 'Panadería La Espiga SRL',
                    email: 'info@espiga.com.ar',
                    telefono: '+54 11 4444-5555'
                });

                const body = await list(user);
                expect(Object.keys(body).sort()).to.deep.equal(['data', 'filters', 'pagination']);
                expect(body.data).to.deep.equal([
                    {
                        id: person.publicId,
                        cuit: '20123456786',
                        displayCuit: '20-12345678-6',
                        tipo: 'persona-fisica',
                        nombre: 'González, María',
                        email: null,
                        telefono: null,
                        etiquetas: [],
                        monotributista: null,
                        autonomo: null,
                        categoria: null,
                        sistemaRegistralSyncedAt: null
                    },
                    {
                        id: entity.publicId,
                        cuit: '30712345671',
                        displayCuit: '30-71234567-1',
                        tipo: 'persona-juridica',
                        nombre: 'Panadería La Espiga SRL',
                        email: 'info@espiga.com.ar',
                        telefono: '+54 11 4444-5555',
                        etiquetas: [],
                        monotributista: null,
                        autonomo: null,
                        categoria: null,
                        sistemaRegistralSyncedAt: null
                    }
                ]);
            });

            it('shows an opaque public id, not the database sequence number', async () => {

                const user = await seedAccount(server.app.ports);
                const client = await addClient(server.app.ports, user.accountId, { cuit: '20111111112' });
                const [item] = (await list(user)).data;
                expect(item.id).to.equal(client.publicId);
                expect(item.id).to.not.equal(String(client.id));
                expect(item.id).to.not.match(/^\d+$/);
            });

            it('shows the registry classification and sistemaRegistralSyncedAt once the registry was synchronized', async () => {

                const user = await seedAccount(server.app.ports);
                const client = await addClient(server.app.ports, user.accountId, { cuit: '20111111112' });
                const syncedAt = Date.UTC(2026, 2, 14, 6, 30, 15, 123);
                await server.app.ports.registry.save(client.id, { monotributista: true, autonomo: false, categoria: 'C' }, syncedAt);

                const [item] = (await list(user)).data;
                expect(item).to.include({ monotributista: true, autonomo: false, categoria: 'C', sistemaRegistralSyncedAt: '2026-03-14T06:30:15.123Z' });
            });

            it('lists the tags of each CUIT by name', async () => {

                const user = await seedAccount(server.app.ports);
                await addClient(server.app.ports, user.accountId, { cuit: '20111111112', apellido: 'A' });
                await addClient(server.app.ports, user.accountId, { cuit: '20222222223', apellido: 'B' });
                await tagClient(server.app.ports, user.accountId, '20111111112', 'Sueldos');
                await tagClient(server.app.ports, user.accountId, '20111111112', 'Autónomos');
                await tagClient(server.app.ports, user.accountId, '20111111112', 'IVA');

                const body = await list(user);
                expect(body.data.map((item: { etiquetas: string[] }) => item.etiquetas)).to.deep.equal([['Autónomos', 'IVA', 'Sueldos'], []]);
            });
        });

        describe('order and pagination', () => {

            it('orders by nombre ignoring case and accents, then by internal id on equal nombre', async () => {

                const user = await seedAccount(server.app.ports);
                const insert = async (cuit: string, apellido: string, nombre: string): Promise<ClientRecord> => addClient(
                    server.app.ports,
                    user.accountId,
                    { cuit, apellido, nombre }
                );
                // Inserted so that neither CUIT nor insertion order alone gives the expected order.
                await insert('27000000001', 'Zapata', 'Ana');
                const perez1 = await insert('27000000002', 'Pérez', 'Ana');
                await insert('20000000003', 'álvarez', 'juan');
                const perez2 = await insert('20000000004', 'Perez', 'Ana');
                await insert('20000000005', 'Álvarez', 'Beatriz');
                await insert('20000000006', 'GÓMEZ', 'Carla');
                await insert('20000000007', 'gomez', 'Bruno');
                await addClient(server.app.ports, user.accountId, { cuit: '30000000008', tipo: 'persona-juridica', razonSocial: 'Ómnibus SA' });

                const body = await list(user);
                expect(body.data.map((item: { nombre: string }) => item.nombre)).to.deep.equal([
                    'Álvarez, Beatriz',
                    'álvarez, juan',
                    'gomez, Bruno',
                    'GÓMEZ, Carla',
                    'Ómnibus SA',
                    'Pérez, Ana',
                    'Perez, Ana',
                    'Zapata, Ana'
                ]);

                expect(perez1.id).to.be.below(perez2.id);
                expect(body.data[5].cuit).to.equal('27000000002');
                expect(body.data[6].cuit).to.equal('20000000004');
            });

            it('pages with limit and offset; total counts every match, not the page', async () => {

                const user = await seedAccount(server.app.ports);
                for (let i = 0; i < 7; ++i) {
                    await addClient(server.app.ports, user.accountId, { cuit: `2000000001${i}`, apellido: `Apellido${i}` });
                }

                const all = (await list(user)).data.map((item: { cuit: string }) => item.cuit);
                expect(all).to.have.length(7);

                const page = await list(user, '?limit=3&offset=2');
                expect(page.pagination).to.deep.equal({ limit: 3, offset: 2, total: 7 });
                expect(page.data.map((item: { cuit: string }) => item.cuit)).to.deep.equal(all.slice(2, 5));

                const pages: string[] = [];
                for (let offset = 0; offset < 7; offset += 2) {
                    pages.push(...(await list(user, `?limit=2&offset=${offset}`)).data.map((item: { cuit: string }) => item.cuit));
                }

                expect(pages).to.deep.equal(all);

                const beyond = await list(user, '?offset=50');
                expect(beyond.data).to.deep.equal([]);
                expect(beyond.pagination).to.deep.equal({ limit: 50, offset: 50, total: 7 });
            });

            it('defaults to limit 50, offset 0 and accepts the bounds 1 and 100', async () => {

                const user = await seedAccount(server.app.ports);
                for (let i = 0; i < 3; ++i) {
                    await addClient(server.app.ports, user.accountId, { cuit: `2000000002${i}` });
                }

                expect((await list(user)).pagination).to.deep.equal({ limit: 50, offset: 0, total: 3 });
                expect((await list(user, '?limit=1')).data).to.have.length(1);
                expect((await list(user, '?limit=100&offset=0')).pagination).to.deep.equal({ limit: 100, offset: 0, total: 3 });
            });

            it('refuses out-of-range limit and offset with messages naming them, joined when both fail', async () => {

                const user = await seedAccount(server.app.ports);
                const cases: [string, string][] = [
                    ['?limit=0', messages.field.limit],
                    ['?limit=101', messages.field.limit],
                    ['?limit=abc', messages.field.limit],
                    ['?limit=1.5', messages.field.limit],
                    ['?limit=', messages.field.limit],
                    ['?offset=-1', messages.field.offset],
                    ['?offset=abc', messages.field.offset],
                    ['?limit=0&offset=-1', `${messages.field.limit} ${messages.field.offset}`],
                    ['?limit=101&offset=x', `${messages.field.limit} ${messages.field.offset}`]
                ];

                for (const [query, error] of cases) {
                    const res = await server.request(`/v1/cuits${query}`, { token: user.token });
                    expect(res.status, query).to.equal(400);
                    expect(res.body, query).to.deep.equal({ error });
                }

                expect(messages.field.limit).to.include("'limit'");
                expect(messages.field.offset).to.include("'offset'");
            });
        });

        describe('filters', () => {

            let user: SeededUser;

            before(async () => {

                user = await seedAccount(server.app.ports);
                const ports = server.app.ports;
                const rows: [string, string, boolean | null, boolean | null, string | null, string[]][] = [
                    ['20000000101', 'Uno', true, false, 'A', ['Sueldos']],
                    ['20000000102', 'Dos', true, false, 'K', ['IVA']],
                    ['20000000103', 'Tres', false, true, null, ['Sueldos', 'IVA']],
                    ['20000000104', 'Cuatro', false, false, null, []],
                    ['20000000105', 'Cinco', null, null, null, ['Otros']]
                ];

                for (const [cuit, apellido, monotributista, autonomo, categoria, tags] of rows) {
                    const client = await addClient(ports, user.accountId, { cuit, apellido });
                    if (monotributista !== null) {
                        await ports.registry.save(client.id, { monotributista, autonomo, categoria }, Date.UTC(2026, 2, 1));
                    }

                    for (const tag of tags) {
                        await tagClient(ports, user.accountId, cuit, tag);
                    }
                }
            });

            const cuits = (body: { data: { cuit: string }[] }) => body.data.map((item) => item.cuit.slice(-3)).sort();

            it('echoes null for every filter not sent', async () => {

                const body = await list(user);
                expect(body.filters).to.deep.equal({ etiquetas: null, monotributista: null, autonomo: null, categoria: null });
                expect(body.pagination.total).to.equal(5);
            });

            it('filters by one tag, sent once', async () => {

                const body = await list(user, '?etiquetas=Sueldos');
                expect(cuits(body)).to.deep.equal(['101', '103']);
                expect(body.filters).to.deep.equal({ etiquetas: ['Sueldos'], monotributista: null, autonomo: null, categoria: null });
                expect(body.pagination.total).to.equal(2);
            });

            it('combines repeated etiquetas with OR', async () => {

                const body = await list(user, '?etiquetas=Sueldos&etiquetas=Otros');
                expect(cuits(body)).to.deep.equal(['101', '103', '105']);
                expect(body.filters.etiquetas).to.deep.equal(['Sueldos', 'Otros']);
                expect(body.pagination.total).to.equal(3);
            });

            it('matches no CUIT for a tag nobody has', async () => {

                const body = await list(user, '?etiquetas=Inexistente');
                expect(body.data).to.deep.equal([]);
                expect(body.pagination.total).to.equal(0);
            });

            it('filters by monotributista and autonomo, true and false', async () => {

                expect(cuits(await list(user, '?monotributista=true'))).to.deep.equal(['101', '102']);
                expect(cuits(await list(user, '?monotributista=false'))).to.deep.equal(['103', '104']);
                expect(cuits(await list(user, '?autonomo=true'))).to.deep.equal(['103']);
                expect(cuits(await list(user, '?autonomo=false'))).to.deep.equal(['101', '102', '104']);
                expect((await list(user, '?monotributista=false')).filters).to.deep.equal({
                    etiquetas: null,
                    monotributista: false,
                    autonomo: null,
                    categoria: null
                });
            });

            it('filters by categoria A to K', async () => {

                const body = await list(user, '?categoria=K');
                expect(cuits(body)).to.deep.equal(['102']);
                expect(body.filters).to.deep.equal({ etiquetas: null, monotributista: null, autonomo: null, categoria: 'K' });
                expect(cuits(await list(user, '?categoria=A'))).to.deep.equal(['101']);
                expect(cuits(await list(user, '?categoria=F'))).to.deep.equal([]);
            });

            it('combines different filters with AND and echoes them all', async () => {

                const body = await list(user, '?etiquetas=Sueldos&etiquetas=IVA&monotributista=true&autonomo=false&categoria=A');
                expect(cuits(body)).to.deep.equal(['101']);
                expect(body.filters).to.deep.equal({ etiquetas: ['Sueldos', 'IVA'], monotributista: true, autonomo: false, categoria: 'A' });
                expect(body.pagination.total).to.equal(1);
            });

            it('refuses invalid filter values with a message naming the field', async () => {

                const cases: [string, string][] = [
                    ['?monotributista=si', messages.field.monotributista],
                    ['?autonomo=2', messages.field.autonomo],
                    ['?categoria=Z', messages.field.categoria],
                    ['?categoria=AB', messages.field.categoria],
                    ['?etiquetas=', messages.field.etiquetas],
                    ['?categoria=L&monotributista=x', `${messages.field.monotributista} ${messages.field.categoria}`]
                ];

                for (const [query, error] of cases) {
                    const res = await server.request(`/v1/cuits${query}`, { token: user.token });
                    expect(res.status, query).to.equal(400);
                    expect(res.body, query).to.deep.equal({ error });
                }
            });

            it('refuses an unknown query parameter, naming it', async () => {

                const res = await server.request('/v1/cuits?etiqueta=Sueldos', { token: user.token });
                expect(res.status).to.equal(400);
                expect(res.body).to.deep.equal({ error: messages.unknownParameter('etiqueta') });
                expect(res.body.error).to.include("'etiqueta'");
            });
        });

        describe('visibility', () => {

            it('shows an owner every CUIT of the account and nothing of other accounts', async () => {

                const owner = await seedAccount(server.app.ports);
                const other = await seedAccount(server.app.ports);
                await addClient(server.app.ports, owner.accountId, { cuit: '20000000201' });
                await addClient(server.app.ports, owner.accountId, { cuit: '20000000202' });
                await addClient(server.app.ports, other.accountId, { cuit: '20000000203' });
                // The same CUIT may be managed by two accounts: each sees only its own.
                await addClient(server.app.ports, other.accountId, { cuit: '20000000201', apellido: 'Ajeno' });

                const body = await list(owner);
                expect(body.data.map((item: { cuit: string }) => item.cuit).sort()).to.deep.equal(['20000000201', '20000000202']);
                expect(body.data.map((item: { nombre: string }) => item.nombre)).to.not.include('Ajeno, Ana');
                expect(body.pagination.total).to.equal(2);
            });

            it('shows a member only the CUITs assigned to it', async () => {

                const owner = await seedAccount(server.app.ports);
                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                for (const cuit of ['20000000301', '20000000302', '20000000303']) {
                    await addClient(server.app.ports, owner.accountId, { cuit });
                }

                const before = await list(member);
                expect(before.data).to.deep.equal([]);
                expect(before.pagination.total).to.equal(0);

                await assignClientToUser(server.app.ports, { userId: member.userId, cuit: '20-00000030-2' });
                const after = await list(member);
                expect(after.data.map((item: { cuit: string }) => item.cuit)).to.deep.equal(['20000000302']);
                expect(after.pagination.total).to.equal(1);
                expect((await list(owner)).pagination.total).to.equal(3);
            });

            it('answers the identical 404 for a foreign, an unassigned and a non-existent CUIT on every per-CUIT endpoint', async () => {

                const owner = await seedAccount(server.app.ports);
                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                const stranger = await seedAccount(server.app.ports);
                await addClient(server.app.ports, owner.accountId, { cuit: '20000000401' });
                await addClient(server.app.ports, owner.accountId, { cuit: '20000000402' });
                await assignClientToUser(server.app.ports, { userId: member.userId, cuit: '20000000401' });

                const cases: [SeededUser, string, number][] = [
                    [owner, '20000000401', 200],
                    [owner, '20-00000040-2', 200],
                    [member, '20000000401', 200],
                    [member, '20000000402', 404],            // same account, not assigned
                    [stranger, '20000000401', 404],          // another account's CUIT
                    [stranger, '20-00000040-1', 404],
                    [owner, '20999999999', 404]              // exists nowhere
                ];

                for (const [user, cuit, status] of cases) {
                    for (const path of perCuitEndpoints(cuit)) {
                        const res = await server.request(path, { token: user.token });
                        expect(res.status, path).to.equal(status);
                        if (status === 404) {
                            expect(res.text, path).to.equal(JSON.stringify({ error: 'No se encontró el CUIT solicitado.' }));
                            expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
                        }
                    }
                }
            });

            it('accepts {cuit} with and without hyphens', async () => {

                const owner = await seedAccount(server.app.ports);
                const client = await addClient(server.app.ports, owner.accountId, { cuit: '20123456786' });
                await server.app.ports.ccma.replace(client.id, { saldoDeudor: 10, saldoAcreedor: null }, [], Date.UTC(2026, 2, 1));
                for (const cuit of ['20123456786', '20-12345678-6', '20-123456786', '2012345678-6']) {
                    for (const path of perCuitEndpoints(cuit)) {
                        const res = await server.request(path, { token: owner.token });
                        expect(res.status, path).to.equal(200);
                    }

                    const res = await server.request(`/v1/cuits/${cuit}/ccma`, { token: owner.token });
                    expect(res.body.data, cuit).to.deep.equal({ saldoDeudor: 10, saldoAcreedor: null });
                }
            });

            it('answers 400 naming the CUIT for a malformed {cuit} on every per-CUIT endpoint', async () => {

                const owner = await seedAccount(server.app.ports);
                for (const cuit of ['2012345678', '201234567860', '20.12345678.6', '20-1234567-86', 'abcdefghijk', '20--12345678-6']) {
                    for (const path of perCuitEndpoints(encodeURIComponent(cuit))) {
                        const res = await server.request(path, { token: owner.token });
                        expect(res.status, path).to.equal(400);
                        expect(res.body, path).to.deep.equal({ error: messages.field.cuitPath });
                        expect(res.body.error).to.match(/CUIT/);
                    }
                }
            });

            it('names a malformed {cuit} and every failing query parameter in one error', async () => {

                const owner = await seedAccount(server.app.ports);
                const cases: [string, string][] = [
                    ['/v1/cuits/123/dfe?limit=0', `${messages.field.cuitPath} ${messages.field.limit}`],
                    ['/v1/cuits/123/ccma/movimientos?limit=101&offset=-1', `${messages.field.cuitPath} ${messages.field.limit} ${messages.field.offset}`],
                    ['/v1/cuits/123/mis-comprobantes/emitidos?from_date=2025-02-30&to_date=2025-03-01', `${messages.field.cuitPath} ${messages.field.from_date}`],
                    ['/v1/cuits/123/mis-comprobantes/recibidos?to_date=2025-03-01', `${messages.field.cuitPath} ${messages.dateRangeIncomplete}`],
                    ['/v1/cuits/123/sct?desde=1', `${messages.field.cuitPath} ${messages.unknownParameter('desde')}`],
                    ['/v1/cuits/123/ccma?limit=5', `${messages.field.cuitPath} ${messages.unknownParameter('limit')}`]
                ];

                for (const [path, error] of cases) {
                    const res = await server.request(path, { token: owner.token });
                    expect(res.status, path).to.equal(400);
                    expect(res.body, path).to.deep.equal({ error });
                }
            });
        });
    });
}
