import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { createTag } from '../../../core/use-cases/staff/create-tag.js';
import { movement, notification, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { seedAccount, seedAccountWithClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';
import { databaseOf } from '../../support/app.js';

// docs/api.md, Resources and Reads: SCT, CCMA balances and movements, DFE notifications
// and the account's tags.

for (const database of testDatabases()) {

    describe(`SCT, CCMA, DFE and tags over HTTP (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, inject: true });
        });

        after(async () => {

            await server.stop();
        });

        const setup = (cuit?: string) => seedAccountWithClient(server.app.ports, cuit);
        const get = (user: SeededUser, path: string) => server.ok(path, user.token);

        describe('GET /v1/cuits/{cuit}/sct', () => {

            it('answers data null and syncedAt null before the first synchronization', async () => {

                const { user, cuit } = await setup();
                expect(await get(user, `/v1/cuits/${cuit}/sct`)).to.deep.equal({ data: null, syncedAt: null });
            });

            it('answers the three arrays with every field once synchronized, vencimiento null allowed in deuda', async () => {

                const { user, clientId, cuit } = await setup();
                await server.app.ports.sct.replace(clientId, sctData(), Date.UTC(2026, 2, 15, 4, 5, 6));

                const body = await get(user, `/v1/cuits/${cuit}/sct`);
                expect(body).to.deep.equal({ data: sctData(), syncedAt: '2026-03-15T04:05:06.000Z' });
                expect(body.data.deuda[1].vencimiento).to.equal(null);
                expect(Object.keys(body.data.deuda[0]).sort()).to.deep.equal(
                    [
                        'antCuota',
                        'concepto',
                        'establecimiento',
                        'impuesto',
                        'intPunitorios',
                        'intResarcitorios',
                        'periodo',
                        'saldo',
                        'subconcepto',
                        'vencimiento'
                    ]
                );
                expect(Object.keys(body.data.vencimientos[0]).sort()).to.deep.equal(
                    ['antCuota', 'concepto', 'detalle', 'impuesto', 'periodo', 'subconcepto', 'vencimiento']
                );
                expect(Object.keys(body.data.ddjj[0]).sort()).to.deep.equal(
                    ['antCuota', 'concepto', 'establecimiento', 'impuesto', 'periodo', 'subconcepto', 'vencimiento']
                );
            });

            it('answers empty arrays, not null, for a synchronization that found nothing, and replaces the previous state', async () => {

                const { user, clientId, cuit } = await setup();
                await server.app.ports.sct.replace(clientId, sctData(), Date.UTC(2026, 2, 15));
                await server.app.ports.sct.replace(clientId, { deuda: [], vencimientos: [], ddjj: [] }, Date.UTC(2026, 2, 16));
                expect(await get(user, `/v1/cuits/${cuit}/sct`)).to.deep.equal({ data: { deuda: [], vencimientos: [], ddjj: [] }, syncedAt: '2026-03-16T00:00:00.000Z' });
            });

            it('refuses query parameters', async () => {

                const { user, cuit } = await setup();
                const res = await server.request(`/v1/cuits/${cuit}/sct?limit=10`, { token: user.token });
                expect(res.status).to.equal(400);
                expect(res.body).to.deep.equal({ error: messages.unknownParameter('limit') });
            });
        });

        describe('GET /v1/cuits/{cuit}/ccma', () => {

            it('answers data null and syncedAt null before the first synchronization', async () => {

                const { user, cuit } = await setup();
                expect(await get(user, `/v1/cuits/${cuit}/ccma`)).to.deep.equal({ data: null, syncedAt: null });
            });

            it('answers both balances once synchronized', async () => {

                const { user, clientId, cuit } = await setup();
                await server.app.ports.ccma.replace(clientId, { saldoDeudor: 25000.75, saldoAcreedor: 0 }, [], Date.UTC(2026, 2, 15, 4));
                expect(await get(user, `/v1/cuits/${cuit}/ccma`)).to.deep.equal({ data: { saldoDeudor: 25000.75, saldoAcreedor: 0 }, syncedAt: '2026-03-15T04:00:00.000Z' });
            });

            it('keeps an unreported balance null, distinct from zero', async () => {

                const { user, clientId, cuit } = await setup();
                await server.app.ports.ccma.replace(clientId, { saldoDeudor: null, saldoAcreedor: 0 }, [], Date.UTC(2026, 2, 15));
                expect((await get(user, `/v1/cuits/${cuit}/ccma`)).data).to.deep.equal({ saldoDeudor: null, saldoAcreedor: 0 });

                await server.app.ports.ccma.replace(clientId, { saldoDeudor: 0, saldoAcreedor: null }, [], Date.UTC(2026, 2, 16));
                expect((await get(user, `/v1/cuits/${cuit}/ccma`)).data).to.deep.equal({ saldoDeudor: 0, saldoAcreedor: null });
            });
        });

        describe('GET /v1/cuits/{cuit}/ccma/movimientos', () => {

            it('answers an empty page and syncedAt null before the first synchronization', async () => {

                const { user, cuit } = await setup();
                expect(await get(user, `/v1/cuits/${cuit}/ccma/movimientos`)).to.deep.equal({ data: [], pagination: { limit: 50, offset: 0, total: 0 }, syncedAt: null });
            });

            it('pages by period, newest first, with every movement of each period by orden', async () => {

                const { user, clientId, cuit } = await setup();
                // Saved out of order, across a year boundary, so neither MM/YYYY text nor
                // insertion order gives the right answer.
                const movements = [
                    movement({ orden: 5, periodo: '01/2026', debe: null, haber: 100, saldo: -50 }),
                    movement({ orden: 1, periodo: '12/2025', saldo: -25000 }),
                    movement({ orden: 7, periodo: '02/2026', descripcion: 'Pago', debe: null, haber: 25000, saldo: 0 }),
                    movement({ orden: 3, periodo: '01/2026', saldo: -150 }),
                    movement({ orden: 2, periodo: '12/2025', debe: null, haber: 24850, saldo: -150 }),
                    movement({ orden: 4, periodo: '01/2026', debe: null, haber: 100, saldo: -50 }),
                    movement({ orden: 6, periodo: '02/2026', fechaMovimiento: '2026-02-20T00:00:00.000Z', saldo: -25000 })
                ];
                await server.app.ports.ccma.replace(clientId, { saldoDeudor: null, saldoAcreedor: null }, movements, Date.UTC(2026, 2, 15));

                const first = await get(user, `/v1/cuits/${cuit}/ccma/movimientos?limit=2`);
                expect(first.pagination).to.deep.equal({ limit: 2, offset: 0, total: 3 });
                expect(first.syncedAt).to.equal('2026-03-15T00:00:00.000Z');
                expect(first.data.map((item: { periodo: string; orden: number }) => `${item.periodo}#${item.orden}`)).to.deep.equal(['02/2026#6', '02/2026#7', '01/2026#3', '01/2026#4', '01/2026#5']);

                const second = await get(user, `/v1/cuits/${cuit}/ccma/movimientos?limit=2&offset=2`);
                expect(second.pagination).to.deep.equal({ limit: 2, offset: 2, total: 3 });
                expect(second.data.map((item: { periodo: string; orden: number }) => `${item.periodo}#${item.orden}`)).to.deep.equal(['12/2025#1', '12/2025#2']);

                const beyond = await get(user, `/v1/cuits/${cuit}/ccma/movimientos?offset=3`);
                expect(beyond.data).to.deep.equal([]);
                expect(beyond.pagination.total).to.equal(3);
            });

            it('carries every field of a movement, debe or haber null', async () => {

                const { user, clientId, cuit } = await setup();
                await server.app.ports.ccma.replace(clientId, { saldoDeudor: 150, saldoAcreedor: null }, [
                    movement({ orden: 1, periodo: '03/2026', fechaMovimiento: '2026-03-20T00:00:00.000Z', debe: 25000.5, haber: null, saldo: -25000.5 }),
                    movement({
                        orden: 2,
                        periodo: '03/2026',
                        descripcion: 'Pago',
                        fechaMovimiento: '2026-03-21T00:00:00.000Z',
                        debe: null,
                        haber: 24850.5,
                        saldo: -150
                    })
                ], Date.UTC(2026, 2, 22));

                const body = await get(user, `/v1/cuits/${cuit}/ccma/movimientos`);
                expect(body.data).to.deep.equal([
                    {
                        orden: 1,
                        periodo: '03/2026',
                        impuesto: '20 - Monotributo',
                        concepto: '19 - Obligación mensual',
                        subconcepto: '19 - Obligación mensual',
                        descripcion: 'Cuota mensual',
                        fechaMovimiento: '2026-03-20T00:00:00.000Z',
                        debe: 25000.5,
                        haber: null,
                        saldo: -25000.5
                    },
                    {
                        orden: 2,
                        periodo: '03/2026',
                        impuesto: '20 - Monotributo',
                        concepto: '19 - Obligación mensual',
                        subconcepto: '19 - Obligación mensual',
                        descripcion: 'Pago',
                        fechaMovimiento: '2026-03-21T00:00:00.000Z',
                        debe: null,
                        haber: 24850.5,
                        saldo: -150
                    }
                ]);
            });

            it('refuses out-of-range limit and offset', async () => {

                const { user, cuit } = await setup();
                const res = await server.request(`/v1/cuits/${cuit}/ccma/movimientos?limit=0&offset=-1`, { token: user.token });
                expect(res.status).to.equal(400);
                expect(res.body).to.deep.equal({ error: `${messages.field.limit} ${messages.field.offset}` });
            });
        });

        describe('GET /v1/cuits/{cuit}/dfe', () => {

            it('answers an empty page and syncedAt null before the first synchronization', async () => {

                const { user, cuit } = await setup();
                expect(await get(user, `/v1/cuits/${cuit}/dfe`)).to.deep.equal({ data: [], pagination: { limit: 50, offset: 0, total: 0 }, syncedAt: null });
            });

            it('lists notifications most recent first, with every field', async () => {

                const { user, clientId, cuit } = await setup();
                await server.app.ports.notifications.save(clientId, [
                    notification({
                        arcaId: '1001',
                        fechaRecepcion: '2026-01-10T13:00:00.000Z',
                        asunto: 'Vieja',
                        fechaNotificacion: '2026-01-10T12:00:00.000Z',
                        leidaAt: '2026-01-10T13:00:00.000Z'
                    }),
                    notification({ arcaId: '1003', fechaRecepcion: '2026-03-01T09:30:00.000Z', asunto: 'Nueva', tipo: null, organismo: null }),
                    notification({
                        arcaId: '1002',
                        fechaRecepcion: '2026-02-05T08:00:00.000Z',
                        asunto: 'Media',
                        tipo: 'Intimación',
                        organismo: 'ARCA - DGI',
                        fechaNotificacion: '2026-02-04T15:00:00.000Z'
                    })
                ], Date.UTC(2026, 2, 2, 3));

                const body = await get(user, `/v1/cuits/${cuit}/dfe`);
                expect(body.syncedAt).to.equal('2026-03-02T03:00:00.000Z');
                expect(body.pagination).to.deep.equal({ limit: 50, offset: 0, total: 3 });
                expect(body.data).to.deep.equal([
                    {
                        arcaId: '1003',
                        tipo: null,
                        asunto: 'Nueva',
                        organismo: null,
                        fechaRecepcion: '2026-03-01T09:30:00.000Z',
                        fechaNotificacion: null,
                        leidaAt: null
                    },
                    {
                        arcaId: '1002',
                        tipo: 'Intimación',
                        asunto: 'Media',
                        organismo: 'ARCA - DGI',
                        fechaRecepcion: '2026-02-05T08:00:00.000Z',
                        fechaNotificacion: '2026-02-04T15:00:00.000Z',
                        leidaAt: null
                    },
                    {
                        arcaId: '1001',
                        tipo: 'Comunicación',
                        asunto: 'Vieja',
                        organismo: 'ARCA',
                        fechaRecepcion: '2026-01-10T13:00:00.000Z',
                        fechaNotificacion: '2026-01-10T12:00:00.000Z',
                        leidaAt: '2026-01-10T13:00:00.000Z'
                    }
                ]);
            });

            it('pages with limit and offset, total counting them all', async () => {

                const { user, clientId, cuit } = await setup();
                const items = Array.from({ length: 12 }, (_, i) => notification({ arcaId: `n${i}`, asunto: `Aviso ${i}`, fechaRecepcion: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() }));
                await server.app.ports.notifications.save(clientId, items, Date.UTC(2026, 2, 1));

                const page = await get(user, `/v1/cuits/${cuit}/dfe?limit=5&offset=5`);
                expect(page.pagination).to.deep.equal({ limit: 5, offset: 5, total: 12 });
                expect(page.data.map((item: { asunto: string }) => item.asunto)).to.deep.equal(['Aviso 6', 'Aviso 5', 'Aviso 4', 'Aviso 3', 'Aviso 2']);

                const res = await server.request(`/v1/cuits/${cuit}/dfe?limit=101`, { token: user.token });
                expect(res.status).to.equal(400);
                expect(res.body).to.deep.equal({ error: messages.field.limit });
            });

            it('keeps leidaAt as the service set it when the notification is synchronized again', async () => {

                const { user, clientId, cuit } = await setup();
                await server.app.ports.notifications.save(clientId, [notification({
                    arcaId: '77',
                    fechaRecepcion: '2026-03-01T00:00:00.000Z',
                    leidaAt: '2026-03-01T00:00:00.000Z'
                })], Date.UTC(2026, 2, 1));
                await server.app.ports.notifications.save(clientId, [notification({
                    arcaId: '77',
                    fechaRecepcion: '2026-03-01T00:00:00.000Z',
                    asunto: 'Aviso corregido',
                    leidaAt: null
                })], Date.UTC(2026, 2, 2));

                const body = await get(user, `/v1/cuits/${cuit}/dfe`);
                expect(body.data).to.have.length(1);
                expect(body.data[0]).to.include({ asunto: 'Aviso corregido', leidaAt: '2026-03-01T00:00:00.000Z' });
                expect(body.syncedAt).to.equal('2026-03-02T00:00:00.000Z');
            });
        });

        describe('GET /v1/tags', () => {

            it('lists the account tags ordered by nombre, ignoring case and accents, and only this account\'s', async () => {

                const user = await seedAccount(server.app.ports);
                const other = await seedAccount(server.app.ports);
                for (const [name, color] of [['Sueldos', '#112233'], ['autónomos', '#445566'], ['IVA', '#778899'], ['Ágil', '#AABBCC']]) {
                    await createTag(server.app.ports, { accountId: user.accountId, name: name!, color: color! });
                }

                await createTag(server.app.ports, { accountId: other.accountId, name: 'Ajena', color: '#000000' });

                const body = await get(user, '/v1/tags');
                expect(body).to.deep.equal({
                    data: [
                        { nombre: 'Ágil', color: '#aabbcc' },
                        { nombre: 'autónomos', color: '#445566' },
                        { nombre: 'IVA', color: '#778899' },
                        { nombre: 'Sueldos', color: '#112233' }
                    ],
                    pagination: { limit: 50, offset: 0, total: 4 }
                });
            });

            it('answers an empty list for an account without tags', async () => {

                const user = await seedAccount(server.app.ports);
                expect(await get(user, '/v1/tags')).to.deep.equal({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
            });

            it('counts every tag in total even though a page holds at most 100', async () => {

                const user = await seedAccount(server.app.ports);
                const rows = Array.from({ length: 120 }, (_, i) => ({ account_id: user.accountId, name: `Etiqueta ${String(i).padStart(3, '0')}`, sort_name: `etiqueta ${String(i).padStart(3, '0')}`, color: '#336699' }));
                await databaseOf(server.app).batchInsert('tags', rows, 60);

                const full = await get(user, '/v1/tags?limit=100');
                expect(full.data).to.have.length(100);
                expect(full.pagination).to.deep.equal({ limit: 100, offset: 0, total: 120 });

                const last = await get(user, '/v1/tags?limit=100&offset=100');
                expect(last.data.map((tag: { nombre: string }) => tag.nombre)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `Etiqueta ${100 + i}`));
                expect(last.pagination.total).to.equal(120);

                const small = await get(user, '/v1/tags?limit=7&offset=3');
                expect(small.data.map((tag: { nombre: string }) => tag.nombre)).to.deep.equal(
                    ['Etiqueta 003', 'Etiqueta 004', 'Etiqueta 005', 'Etiqueta 006', 'Etiqueta 007', 'Etiqueta 008', 'Etiqueta 009']
                );
                expect(small.pagination).to.deep.equal({ limit: 7, offset: 3, total: 120 });
            });

            it('refuses limit over 100, offset below 0 and unknown parameters', async () => {

                const user = await seedAccount(server.app.ports);
                for (const [query, error] of [
                    ['limit=101', messages.field.limit],
                    ['offset=-1', messages.field.offset],
                    ['nombre=IVA', messages.unknownParameter('nombre')]
                ] as const) {
                    const res = await server.request(`/v1/tags?${query}`, { token: user.token });
                    expect(res.status, query).to.equal(400);
                    expect(res.body, query).to.deep.equal({ error });
                }
            });
        });
    });
}
