import { expect } from 'chai';
import type { Cuit } from '../../../core/domain/cuit.js';
import { messages } from '../../../core/domain/messages.js';
import { createCalendarFeed, revokeCalendarFeed } from '../../../core/use-cases/calendar-feed.js';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { numberedInvoices, pesosInvoice, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, testClock } from '../../support/server.js';

// docs/answers.md: the monotributo control of a CUIT and of the portfolio, the agenda (REST and
// the iCalendar feed) and the IVA position, over HTTP on each database, on a portfolio of
// monotributistas near, past and over their caps, one without invoices, one of unknown
// category, and a Responsable Inscripto. Today is 2026-03-10 in Buenos Aires: the window is
// 2025-03 to 2026-02, under the table in force since 2026-02-01.

const internals = {
    cuits: {
        near: '20111111112',
        over: '20222222223',
        beyondK: '20333333334',
        idle: '27444444445',
        unknown: '27555555556',
        ri: '30666666667',
        foreign: '20777777778'
    }
};

const { cuits } = internals;
const numbered = numberedInvoices;
const pesos = pesosInvoice;

for (const database of testDatabases()) {

    describe(`answers over HTTP: monotributo, vencimientos, IVA (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;
        let owner: SeededUser;
        let member: SeededUser;
        let stranger: SeededUser;
        const synced = Date.UTC(2026, 2, 9, 6, 0, 0);

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, clock: testClock('2026-03-10T15:00:00Z'), inject: true });
            const { ports } = server.app;
            owner = await seedAccount(ports);
            member = await seedUser(ports, owner.accountId, 'member');
            stranger = await seedAccount(ports);
            const client = async (cuit: string, apellido: string, registry: { monotributista: boolean; categoria: string | null } | null, tipo?: 'persona-juridica') => {

                const record = await addClient(ports, owner.accountId, tipo ? { cuit, tipo, razonSocial: apellido } : { cuit, apellido });
                if (registry) {
                    await ports.registry.save(record.id, { ...registry, autonomo: false }, synced);
                }

                return record.id;
            };

            // 60.000.000 + 1.000 USD at 1.250 − 6.000 (credit note) = 61.244.000: 87.35 % of H's
            // 70.113.407,33. March 2026 and February 2025 fall outside the window. Purchases:
            // 5.000.000 − 500.000 = 4.500.000.
            const near = await client(cuits.near, 'Cerca', { monotributista: true, categoria: 'H' });
            await ports.invoices.saveKinds(near, [
                {
                    kind: 'issued',
                    invoices: numbered([
                        pesos('2025-10-15', '11', 60_000_000),
                        { fecha: '2025-11-03', tipo: '11', importeOriginal: 1000, monedaOriginal: 'DOL', tipoCambio: 1250, importe: 1_250_000 },
                        pesos('2025-12-01', '13', 6_000),
                        pesos('2026-03-02', '11', 9_000_000),
                        pesos('2025-02-28', '11', 9_000_000)
                    ])
                },
                { kind: 'received', invoices: numbered([pesos('2025-06-10', '1', 5_000_000), pesos('2025-06-11', '3', 500_000)]) }
            ], synced);

            // 20.000.000 of A's 10.277.988,13: past the cap (1.9459).
            const over = await client(cuits.over, 'Pasado', { monotributista: true, categoria: 'A' });
            await ports.invoices.save(over, 'issued', numbered([pesos('2025-09-01', '11', 20_000_000)]), synced);

            // 110.000.000 in K: past K's cap, out of the regime (1.0152).
            const beyondK = await client(cuits.beyondK, 'Excluido', { monotributista: true, categoria: 'K' });
            await ports.invoices.save(beyondK, 'issued', numbered([pesos('2025-05-01', '211', 110_000_000)]), synced);

            await client(cuits.idle, 'Quieto', { monotributista: true, categoria: 'B' });
            await client(cuits.unknown, 'Zeta', { monotributista: true, categoria: null });

            // A Responsable Inscripto's February 2026. Débito: 21.000 + 4.200 + 2.100 − 1.050 +
            // 210 = 26.460. Crédito: 10.500 + 10 USD × 63 − 2.100 − 105 = 8.925 (the B gives none).
            const ri = await client(cuits.ri, 'Inscripta SA', null, 'persona-juridica');
            await ports.invoices.saveKinds(ri, [
                {
                    kind: 'issued',
                    invoices: numbered([
                        pesos('2026-02-02', '1', 121_000, 21_000),
                        pesos('2026-02-03', '6', 24_200, 4_200),
                        pesos('2026-02-04', '51', 12_100, 2_100),
                        pesos('2026-02-05', '3', 6_050, 1_050),
                        pesos('2026-02-06', '7', 1_210, 210)
                    ])
                },
                {
                    kind: 'received',
                    invoices: numbered([
                        pesos('2026-02-02', '1', 60_500, 10_500),
                        { fecha: '2026-02-03', tipo: '51', importeOriginal: 60, monedaOriginal: 'DOL', tipoCambio: 63, importe: 3780, iva: 10 },
                        pesos('2026-02-04', '3', 12_100, 2_100),
                        pesos('2026-02-05', '53', 605, 105),
                        pesos('2026-02-06', '6', 5_756, 999)
                    ])
                }
            ], synced);
            // Its SCT: an IVA due date, a debt and a sworn return on 2026-03-18.
            const sct = sctData();
            await ports.sct.replace(ri, {
                deuda: [{ ...sct.deuda[0]!, vencimiento: '2026-03-18T03:00:00.000Z' }],
                vencimientos: [{ ...sct.vencimientos[0]!, vencimiento: '2026-03-18T03:00:00.000Z' }],
                ddjj: [{ ...sct.ddjj[0]!, vencimiento: '2026-03-18T03:00:00.000Z' }]
            }, synced);

            await assignClientToUser(ports, { userId: member.userId, cuit: cuits.near });
            const foreign = await addClient(ports, stranger.accountId, { cuit: cuits.foreign });
            await ports.registry.save(foreign.id, { monotributista: true, autonomo: false, categoria: 'A' }, synced);
        });

        after(async () => {

            await server?.stop();
        });

        const get = (user: SeededUser, path: string) => server.ok(path, user.token);
        const refused = async (user: SeededUser, path: string, status: number): Promise<string> => {

            const res = await server.request(path, { token: user.token });
            expect(res.status, res.text).to.equal(status);
            return res.body.error as string;
        };

        describe('GET /v1/cuits/{cuit}/monotributo', () => {

            it('answers the 12-month billing in pesos, credit notes subtracting, against the category in force today', async () => {

                const body = await get(owner, `/v1/cuits/${cuits.near}/monotributo`);
                expect(body.syncedAt).to.equal('2026-03-09T06:00:00.000Z');
                expect(body.data).to.deep.include({
                    cuit: cuits.near,
                    displayCuit: '20-11111111-2',
                    nombre: 'Cerca, Ana',
                    aplica: true,
                    ventana: { desde: '2025-03', hasta: '2026-02' },
                    categoria: 'H',
                    tope: 70_113_407.33,
                    facturado: 61_244_000,
                    usoTope: 0.8735,
                    categoriaSegunFacturacion: 'H',
                    fueraDelRegimen: false,
                    topeMaximo: 108_357_084.05,
                    riesgos: ['tope_cerca']
                });
                expect(body.data.tabla).to.include({ vigenciaDesde: '2026-02-01', desactualizada: false });
                expect(body.data.compras).to.include({ total: 4_500_000, superaUmbralServicios: false });
                expect(body.data.meses).to.have.length(12);
                expect(body.data.meses.find((month: { mes: string }) => month.mes === '2025-11')).to.deep.equal({ mes: '2025-11', facturado: 1_250_000, compras: 0 });
                expect(body.data.recategorizacion).to.deep.equal({ desde: '2026-07-15', hasta: '2026-08-05', enCurso: false, evaluaDesde: '2025-07', evaluaHasta: '2026-06' });
                expect(body.data.arca, 'ARCA\'s meter never read').to.equal(null);
            });

            it('shows ARCA\'s meter as last read beside arcasync\'s figure, to the cent', async () => {

                const { ports } = server.app;
                const id = (await ports.clients.findInAccount(owner.accountId, cuits.near as Cuit))!.id;
                const readAt = Date.UTC(2026, 2, 10, 6, 30, 0);
                await ports.registry.save(id, { monotributista: true, autonomo: false, categoria: 'H' }, readAt, {
                    facturado: 60_912_500.5, tope: 70_113_407.33, periodo: '01/02/2025 al 31/01/2026', debeRecategorizar: true,
                    recategorizacionDesde: '2026-01-15', recategorizacionHasta: '2026-02-05'
                });
                const body = await get(owner, `/v1/cuits/${cuits.near}/monotributo`);
                expect(body.data.facturado, 'arcasync\'s own figure unchanged').to.equal(61_244_000);
                expect(body.data.arca).to.deep.equal({
                    facturado: 60_912_500.5, tope: 70_113_407.33, periodo: '01/02/2025 al 31/01/2026', debeRecategorizar: true,
                    recategorizacion: { desde: '2026-01-15', hasta: '2026-02-05' }, leidoAt: '2026-03-10T06:30:00.000Z'
                });

                // A registry saved without a meter (its read failed) keeps the last one.
                await ports.registry.save(id, { monotributista: true, autonomo: false, categoria: 'H' }, readAt + 86_400_000);
                expect((await get(owner, `/v1/cuits/${cuits.near}/monotributo`)).data.arca.leidoAt).to.equal('2026-03-10T06:30:00.000Z');
            });

            it('says it does not apply to a CUIT that is not a monotributista', async () => {

                const body = await get(owner, `/v1/cuits/${cuits.ri}/monotributo`);
                expect(body.data).to.deep.equal({
                    cuit: cuits.ri,
                    displayCuit: '30-66666666-7',
                    nombre: 'Inscripta SA',
                    aplica: false,
                    motivo: 'No corresponde todavía: el sistema registral de ARCA aún no se sincronizó para este CUIT.'
                });
            });

            it('answers 404 for another account\'s CUIT and one a member does not manage, 400 for a malformed one', async () => {

                expect(await refused(owner, `/v1/cuits/${cuits.foreign}/monotributo`, 404)).to.equal(messages.notFound);
                expect(await refused(member, `/v1/cuits/${cuits.over}/monotributo`, 404)).to.equal(messages.notFound);
                expect((await get(member, `/v1/cuits/${cuits.near}/monotributo`)).data.facturado).to.equal(61_244_000);
                expect(await refused(owner, '/v1/cuits/123/monotributo', 400)).to.equal(messages.field.cuitPath);
                expect(await refused(owner, `/v1/cuits/${cuits.near}/monotributo?desde=2026-01-01`, 400)).to.equal(messages.unknownParameter('desde'));
                const anonymous = await server.request(`/v1/cuits/${cuits.near}/monotributo`, { token: null });
                expect(anonymous.status).to.equal(401);
            });
        });

        describe('GET /v1/monotributo', () => {

            const order = (body: { data: { cuit: string }[] }) => body.data.map((row) => row.cuit);

            it('lists the monotributistas by use of their cap, highest first, unknown category last', async () => {

                const body = await get(owner, '/v1/monotributo');
                expect(order(body)).to.deep.equal([cuits.over, cuits.beyondK, cuits.near, cuits.idle, cuits.unknown]);
                expect(body.pagination).to.deep.equal({ limit: 50, offset: 0, total: 5 });
                expect(body.filters).to.deep.equal({ riesgo: null });
                expect(body.ventana).to.deep.equal({ desde: '2025-03', hasta: '2026-02' });
                expect(body.data.map((row: { usoTope: number | null }) => row.usoTope)).to.deep.equal([1.9459, 1.0152, 0.8735, 0, null]);
                expect(body.data[1]).to.include({ fueraDelRegimen: true, categoriaSegunFacturacion: null });
                expect(body.data[1].riesgos).to.deep.equal(['tope_superado', 'exclusion']);
            });

            it('filters by risk (several: OR) and pages in the same order', async () => {

                expect(order(await get(owner, '/v1/monotributo?riesgo=tope_cerca'))).to.deep.equal([cuits.near]);
                expect(order(await get(owner, '/v1/monotributo?riesgo=exclusion'))).to.deep.equal([cuits.beyondK]);
                const both = await get(owner, '/v1/monotributo?riesgo=tope_superado&riesgo=tope_cerca');
                expect(order(both)).to.deep.equal([cuits.over, cuits.beyondK, cuits.near]);
                expect(both.filters).to.deep.equal({ riesgo: ['tope_superado', 'tope_cerca'] });
                const page = await get(owner, '/v1/monotributo?limit=2&offset=1');
                expect(order(page)).to.deep.equal([cuits.beyondK, cuits.near]);
                expect(page.pagination).to.deep.equal({ limit: 2, offset: 1, total: 5 });
                expect(order(await get(member, '/v1/monotributo'))).to.deep.equal([cuits.near]);
                expect(order(await get(stranger, '/v1/monotributo'))).to.deep.equal([cuits.foreign]);
            });

            it('refuses a wrong risk and a wrong page in Spanish', async () => {

                expect(await refused(owner, '/v1/monotributo?riesgo=alto', 400)).to.equal(messages.field.riesgo);
                expect(await refused(owner, '/v1/monotributo?limit=0&offset=-1', 400)).to.equal(`${messages.field.limit} ${messages.field.offset}`);
            });
        });

        describe('GET /v1/vencimientos', () => {

            it('lists the next 30 days of every CUIT by date, then CUIT, with SCT\'s amount where it gives one', async () => {

                const body = await get(owner, '/v1/vencimientos');
                expect(body.filters).to.deep.equal({ desde: '2026-03-10', hasta: '2026-04-09' });
                expect(body.data.map((item: { fecha: string; cuit: string; tipo: string }) => [item.fecha, item.cuit, item.tipo])).to.deep.equal([
                    ['2026-03-18', cuits.ri, 'sct_vencimiento'],
                    ['2026-03-18', cuits.ri, 'sct_deuda'],
                    ['2026-03-18', cuits.ri, 'ddjj'],
                    ['2026-03-20', cuits.near, 'monotributo_pago'],
                    ['2026-03-20', cuits.over, 'monotributo_pago'],
                    ['2026-03-20', cuits.beyondK, 'monotributo_pago'],
                    ['2026-03-20', cuits.idle, 'monotributo_pago'],
                    ['2026-03-20', cuits.unknown, 'monotributo_pago']
                ]);
                expect(body.data[1]).to.deep.equal({
                    fecha: '2026-03-18',
                    cuit: cuits.ri,
                    displayCuit: '30-66666666-7',
                    nombre: 'Inscripta SA',
                    tipo: 'sct_deuda',
                    descripcion: 'Vence la deuda de 30 - IVA – 19 - Obligación mensual, período 01/2026.',
                    importe: 15_320.75
                });
                expect(body.pagination).to.deep.equal({ limit: 50, offset: 0, total: 8 });
                expect((await get(member, '/v1/vencimientos')).data.map((item: { cuit: string }) => item.cuit)).to.deep.equal([cuits.near]);
            });

            it('moves the 20th past a national holiday and lists the recategorization deadline', async () => {

                // 2025-06-20 is a Friday and a national holiday.
                const june = await get(owner, `/v1/vencimientos?desde=2025-06-01&hasta=2025-06-30&limit=1`);
                expect(june.data[0]).to.include({ fecha: '2025-06-23', tipo: 'monotributo_pago', cuit: cuits.near });
                expect(june.pagination.total).to.equal(5);
                const august = await get(owner, `/v1/vencimientos?desde=2026-08-05&hasta=2026-08-05`);
                expect(august.data.map((item: { tipo: string }) => item.tipo)).to.deep.equal(Array(5).fill('recategorizacion'));
            });

            it('refuses a malformed date, an inverted range and one over 366 days in Spanish', async () => {

                expect(await refused(owner, '/v1/vencimientos?desde=2026-02-30', 400)).to.equal(messages.field.desde);
                expect(await refused(owner, '/v1/vencimientos?desde=2026-05-01&hasta=2026-04-01', 400)).to.equal(messages.answerRange.inverted);
                expect(await refused(owner, '/v1/vencimientos?desde=2026-01-01&hasta=2027-01-03', 400)).to.equal(messages.answerRange.tooManyDays(366));
                expect((await get(owner, '/v1/vencimientos?desde=2026-01-01&hasta=2027-01-02')).filters).to.deep.equal({ desde: '2026-01-01', hasta: '2027-01-02' });
            });
        });

        describe('GET /v1/cuits/{cuit}/iva', () => {

            it('nets débito and crédito fiscal per month in pesos, credit notes subtracting on both sides', async () => {

                const body = await get(owner, `/v1/cuits/${cuits.ri}/iva?desde=2026-01&hasta=2026-02`);
                expect(body.filters).to.deep.equal({ desde: '2026-01', hasta: '2026-02' });
                expect(body.syncedAt).to.equal('2026-03-09T06:00:00.000Z');
                expect(body.data.meses).to.deep.equal([
                    { mes: '2026-01', debitoFiscal: 0, creditoFiscal: 0, saldoTecnico: 0, comprobantesEmitidos: 0, comprobantesRecibidos: 0 },
                    { mes: '2026-02', debitoFiscal: 26_460, creditoFiscal: 8_925, saldoTecnico: 17_535, comprobantesEmitidos: 5, comprobantesRecibidos: 4 }
                ]);
                expect(body.data.totales).to.deep.equal({ debitoFiscal: 26_460, creditoFiscal: 8_925, saldoTecnico: 17_535 });
                expect(body.data.excluye).to.have.length(3);
            });

            it('defaults to the 12 months ending with the current one, and does not apply to a monotributista', async () => {

                const body = await get(owner, `/v1/cuits/${cuits.ri}/iva`);
                expect(body.filters).to.deep.equal({ desde: '2025-04', hasta: '2026-03' });
                expect(body.data.meses).to.have.length(12);
                expect((await get(owner, `/v1/cuits/${cuits.near}/iva`)).data).to.include({ aplica: false });
            });

            it('refuses malformed months and ranges in Spanish, and another account\'s CUIT with 404', async () => {

                expect(await refused(owner, `/v1/cuits/${cuits.ri}/iva?desde=2026-13`, 400)).to.equal(messages.field.desdeMes);
                expect(await refused(owner, `/v1/cuits/${cuits.ri}/iva?desde=2026-03&hasta=2026-01`, 400)).to.equal(messages.answerRange.inverted);
                expect(await refused(owner, `/v1/cuits/${cuits.ri}/iva?desde=2024-01&hasta=2026-01`, 400)).to.equal(messages.answerRange.tooManyMonths(24));
                expect(await refused(owner, `/v1/cuits/${cuits.foreign}/iva`, 404)).to.equal(messages.notFound);
            });
        });

        describe('the private calendar feed', () => {

            it('serves the agenda as iCalendar at its secret address until revoked', async () => {

                const { token } = await createCalendarFeed(server.app.ports, member.userId);
                const res = await server.request(`/calendario/${token}.ics`, { token: null });
                expect(res.status, res.text).to.equal(200);
                expect(res.headers.get('content-type')).to.contain('text/calendar');
                expect(res.text).to.contain('BEGIN:VCALENDAR').and.to.contain('DTSTART;VALUE=DATE:20260320')
                    .and.to.contain('SUMMARY:Pago del monotributo: Cerca\\, Ana (20-11111111-2)');
                expect(res.text).not.to.contain(cuits.over);

                // A new address replaces the old one; a revoked one answers 401.
                const { token: second } = await createCalendarFeed(server.app.ports, member.userId);
                expect((await server.request(`/calendario/${token}.ics`, { token: null })).status).to.equal(401);
                expect((await server.request(`/calendario/${second}.ics`, { token: null })).status).to.equal(200);
                expect(await revokeCalendarFeed(server.app.ports, member.userId)).to.deep.equal({ revoked: true });
                const revoked = await server.request(`/calendario/${second}.ics`, { token: null });
                expect(revoked.status).to.equal(401);
                expect(revoked.body).to.deep.equal({ error: messages.unauthenticated });
            });
        });
    });
}
