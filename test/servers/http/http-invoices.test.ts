import { expect } from 'chai';
import type { InvoiceRecord } from '../../../core/domain/invoice.js';
import { messages } from '../../../core/domain/messages.js';
import { invoice } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedAccountWithClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, testClock } from '../../support/server.js';

// docs/api.md, Resources and Reads: issued and received invoices of a period.

for (const database of testDatabases()) {

    describe(`GET /v1/cuits/{cuit}/mis-comprobantes (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            // 01:30 UTC on April 1st is still March 31st in Argentina: the default period is UTC's.
            server = await startTestServer(database, { rateLimits: noRateLimits, clock: testClock('2026-04-01T01:30:00Z'), inject: true });
        });

        after(async () => {

            await server.stop();
        });

        const setup = (cuit?: string) => seedAccountWithClient(server.app.ports, cuit);
        const get = (user: SeededUser, path: string) => server.ok(path, user.token);

        const numbers = (body: { data: { numeroDesde: string }[] }) => body.data.map((item) => item.numeroDesde);

        it('answers an empty list and a null syncedAt before the first synchronization', async () => {

            const { user, cuit } = await setup();
            for (const kind of ['emitidos', 'recibidos']) {
                const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/${kind}`);
                expect(body).to.deep.equal({
                    data: [],
                    pagination: { limit: 50, offset: 0, total: 0 },
                    filters: { fromDate: '2026-04-01', toDate: '2026-04-30' },
                    syncedAt: null
                });
            }
        });

        it('carries every field of an issued invoice, with the receptor, and nothing else', async () => {

            const { user, clientId, cuit } = await setup();
            await server.app.ports.invoices.save(clientId, 'issued', [
                invoice({
                    fecha: '2026-04-02',
                    numeroDesde: '00000007',
                    numeroHasta: '00000009',
                    counterpart: { tipoDocumento: '96', numeroDocumento: '30111222', nombre: 'Juan Pérez' },
                    impNetoNoGravado: 5.5,
                    impOpExentas: 0,
                    otrosTributos: 12.34
                }),
                invoice({
                    fecha: '2026-04-03',
                    numeroDesde: '00000010',
                    numeroHasta: '00000010',
                    tipo: '6',
                    counterpart: { tipoDocumento: null, numeroDocumento: null, nombre: null },
                    impNetoGravado: null,
                    iva: null
                })
            ], Date.UTC(2026, 2, 31, 23, 0, 0));

            const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos`);
            expect(body.syncedAt).to.equal('2026-03-31T23:00:00.000Z');
            expect(body.data).to.deep.equal([
                {
                    fecha: '2026-04-02T00:00:00.000Z',
                    puntoVenta: '00002',
                    numeroDesde: '00000007',
                    numeroHasta: '00000009',
                    tipo: '11',
                    impNetoGravado: 1000,
                    impNetoNoGravado: 5.5,
                    impOpExentas: 0,
                    otrosTributos: 12.34,
                    iva: 210,
                    tipoCambio: 1,
                    importeOriginal: 1210,
                    monedaOriginal: 'PES',
                    importe: 1210,
                    receptor: { tipoDocumento: '96', numeroDocumento: '30111222', nombre: 'Juan Pérez' }
                },
                {
                    fecha: '2026-04-03T00:00:00.000Z',
                    puntoVenta: '00002',
                    numeroDesde: '00000010',
                    numeroHasta: '00000010',
                    tipo: '6',
                    impNetoGravado: null,
                    impNetoNoGravado: null,
                    impOpExentas: null,
                    otrosTributos: null,
                    iva: null,
                    tipoCambio: 1,
                    importeOriginal: 1210,
                    monedaOriginal: 'PES',
                    importe: 1210,
                    receptor: { tipoDocumento: null, numeroDocumento: null, nombre: null }
                }
            ]);
        });

        it('carries every field of a received invoice, with the emisor instead of the receptor', async () => {

            const { user, clientId, cuit } = await setup();
            await server.app.ports.invoices.save(clientId, 'received', [
                invoice({ fecha: '2026-04-05', tipo: '1', counterpart: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: 'Proveedor SRL' } })
            ], Date.UTC(2026, 3, 1));

            const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/recibidos`);
            expect(body.data).to.deep.equal([{
                fecha: '2026-04-05T00:00:00.000Z',
                puntoVenta: '00002',
                numeroDesde: '00000001',
                numeroHasta: '00000001',
                tipo: '1',
                impNetoGravado: 1000,
                impNetoNoGravado: null,
                impOpExentas: null,
                otrosTributos: null,
                iva: 210,
                tipoCambio: 1,
                importeOriginal: 1210,
                monedaOriginal: 'PES',
                importe: 1210,
                emisor: { nombre: 'Proveedor SRL', cuit: '30712345671' }
            }]);
            expect(body.syncedAt).to.equal('2026-04-01T00:00:00.000Z');
        });

        it('keeps issued and received apart, each with its own syncedAt', async () => {

            const { user, clientId, cuit } = await setup();
            await server.app.ports.invoices.save(clientId, 'issued', [invoice({ fecha: '2026-04-02' })], Date.UTC(2026, 3, 1, 3));

            const issued = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos`);
            const received = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/recibidos`);
            expect(issued.data).to.have.length(1);
            expect(issued.syncedAt).to.equal('2026-04-01T03:00:00.000Z');
            expect(received.data).to.deep.equal([]);
            expect(received.syncedAt).to.equal(null);
        });

        it('shows a foreign-currency invoice with its exchange rate and the amount in pesos', async () => {

            const { user, clientId, cuit } = await setup();
            await server.app.ports.invoices.save(clientId, 'issued', [
                invoice({
                    fecha: '2026-04-02',
                    numeroDesde: '1',
                    monedaOriginal: 'DOL',
                    tipoCambio: 1050.5,
                    importeOriginal: 100,
                    importe: 105050,
                    impNetoGravado: 100,
                    iva: 0
                }),
                invoice({ fecha: '2026-04-03', numeroDesde: '2', monedaOriginal: 'PES', tipoCambio: 1, importeOriginal: 1234.56, importe: 1234.56 })
            ], Date.UTC(2026, 3, 1));

            const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos`);
            expect(body.data[0]).to.include({ monedaOriginal: 'DOL', tipoCambio: 1050.5, importeOriginal: 100, importe: 105050 });
            expect(body.data[1]).to.include({ monedaOriginal: 'PES', tipoCambio: 1, importeOriginal: 1234.56, importe: 1234.56 });
            for (const item of body.data) {
                expect(item.tipoCambio).to.be.a('number');
                expect(item.importe).to.be.a('number');
                expect(item.importe).to.equal(Math.round(item.importeOriginal * item.tipoCambio * 100) / 100);
            }
        });

        it('defaults to the current month in UTC and orders by fecha', async () => {

            const { user, clientId, cuit } = await setup();
            const dates = ['2026-04-30', '2026-03-31', '2026-04-01', '2026-05-01', '2026-04-15', '2026-04-01'];
            await server.app.ports.invoices.save(clientId, 'issued', dates.map((fecha, i) => invoice({ fecha, numeroDesde: String(i) })), Date.UTC(2026, 3, 1));

            const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos`);
            expect(body.filters).to.deep.equal({ fromDate: '2026-04-01', toDate: '2026-04-30' });
            expect(body.data.map((item: { fecha: string }) => item.fecha.slice(0, 10))).to.deep.equal(['2026-04-01', '2026-04-01', '2026-04-15', '2026-04-30']);
            expect(body.pagination.total).to.equal(4);
        });

        it('follows the clock into the next month', async () => {

            const clock = testClock('2026-02-28T23:59:59Z');
            const other = await startTestServer(database, { clock });
            try {
                const user = await seedAccount(other.app.ports);
                await addClient(other.app.ports, user.accountId, { cuit: '20123456786' });
                const path = '/v1/cuits/20123456786/mis-comprobantes/recibidos';
                expect((await other.request(path, { token: user.token })).body.filters).to.deep.equal({ fromDate: '2026-02-01', toDate: '2026-02-28' });
                clock.advance(1000);
                expect((await other.request(path, { token: user.token })).body.filters).to.deep.equal({ fromDate: '2026-03-01', toDate: '2026-03-31' });
                clock.set('2028-02-10T00:00:00Z');
                expect((await other.request(path, { token: user.token })).body.filters).to.deep.equal({ fromDate: '2028-02-01', toDate: '2028-02-29' });
            }
            finally {
                await other.stop();
            }
        });

        it('includes both ends of from_date..to_date and echoes them', async () => {

            const { user, clientId, cuit } = await setup();
            const dates = ['2026-01-09', '2026-01-10', '2026-01-15', '2026-01-20', '2026-01-21', '2025-12-31'];
            for (const kind of ['issued', 'received'] as const) {
                await server.app.ports.invoices.save(clientId, kind, dates.map((fecha) => invoice({ fecha, numeroDesde: fecha })), Date.UTC(2026, 3, 1));
            }

            for (const kind of ['emitidos', 'recibidos']) {
                const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/${kind}?from_date=2026-01-10&to_date=2026-01-20`);
                expect(numbers(body)).to.deep.equal(['2026-01-10', '2026-01-15', '2026-01-20']);
                expect(body.filters).to.deep.equal({ fromDate: '2026-01-10', toDate: '2026-01-20' });
                expect(body.pagination.total).to.equal(3);
            }

            const oneDay = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=2026-01-21&to_date=2026-01-21`);
            expect(numbers(oneDay)).to.deep.equal(['2026-01-21']);
            const acrossYears = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=2025-12-01&to_date=2026-01-09`);
            expect(numbers(acrossYears)).to.deep.equal(['2025-12-31', '2026-01-09']);
        });

        it('answers 400 when only one of from_date and to_date is sent', async () => {

            const { user, cuit } = await setup();
            for (const kind of ['emitidos', 'recibidos']) {
                for (const query of ['from_date=2026-01-01', 'to_date=2026-01-31']) {
                    const res = await server.request(`/v1/cuits/${cuit}/mis-comprobantes/${kind}?${query}`, { token: user.token });
                    expect(res.status, query).to.equal(400);
                    expect(res.body, query).to.deep.equal({ error: messages.dateRangeIncomplete });
                }
            }
        });

        it('answers 400 naming the field for an invalid date', async () => {

            const { user, cuit } = await setup();
            const cases: [string, string][] = [
                ['from_date=2025-02-30&to_date=2025-03-10', messages.field.from_date],
                ['from_date=2025-02-01&to_date=2025-02-29', messages.field.to_date],
                ['from_date=2025/02/01&to_date=2025-02-10', messages.field.from_date],
                ['from_date=2025-2-1&to_date=2025-02-10', messages.field.from_date],
                ['from_date=ayer&to_date=hoy', `${messages.field.from_date} ${messages.field.to_date}`],
                ['from_date=2025-13-01', `${messages.field.from_date} ${messages.dateRangeIncomplete}`]
            ];

            for (const [query, error] of cases) {
                const res = await server.request(`/v1/cuits/${cuit}/mis-comprobantes/emitidos?${query}`, { token: user.token });
                expect(res.status, query).to.equal(400);
                expect(res.body.error, query).to.be.a('string');
                for (const part of error.split(/(?<=\.) /)) {
                    expect(res.body.error, query).to.include(part);
                }
            }

            // Leap years are real dates, and so is every four-digit year.
            expect((await server.request(`/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=2024-02-29&to_date=2024-02-29`, { token: user.token })).status).to.equal(200);
            const wide = await server.request(`/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=0001-01-01&to_date=9999-12-31`, { token: user.token });
            expect(wide.status, wide.text).to.equal(200);
            expect(wide.body.filters).to.deep.equal({ fromDate: '0001-01-01', toDate: '9999-12-31' });
            expect((await server.request(`/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=0099-02-29&to_date=0100-01-01`, { token: user.token })).body).to.deep.equal({ error: messages.field.from_date });
        });

        it('answers 400 for a period whose start is after its end', async () => {

            const { user, cuit } = await setup();
            const res = await server.request(`/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=2026-02-01&to_date=2026-01-31`, { token: user.token });
            expect(res.status).to.equal(400);
            expect(res.body).to.deep.equal({ error: messages.dateRangeInverted });
        });

        it('refuses unknown parameters and out-of-range pages', async () => {

            const { user, cuit } = await setup();
            const cases: [string, string][] = [
                ['fromDate=2026-01-01', messages.unknownParameter('fromDate')],
                ['limit=0', messages.field.limit],
                ['limit=101&offset=-1', `${messages.field.limit} ${messages.field.offset}`]
            ];

            for (const [query, error] of cases) {
                const res = await server.request(`/v1/cuits/${cuit}/mis-comprobantes/recibidos?${query}`, { token: user.token });
                expect(res.status, query).to.equal(400);
                expect(res.body, query).to.deep.equal({ error });
            }
        });

        it('pages a period with limit and offset, total counting the whole period', async () => {

            const { user, clientId, cuit } = await setup();
            const invoices: InvoiceRecord[] = [];
            for (let day = 1; day <= 28; ++day) {
                invoices.push(invoice({ fecha: `2026-02-${String(day).padStart(2, '0')}`, numeroDesde: String(day).padStart(8, '0') }));
            }

            await server.app.ports.invoices.save(clientId, 'issued', invoices.reverse(), Date.UTC(2026, 3, 1));
            const period = 'from_date=2026-02-01&to_date=2026-02-28';
            const page = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos?${period}&limit=5&offset=10`);
            expect(page.pagination).to.deep.equal({ limit: 5, offset: 10, total: 28 });
            expect(numbers(page)).to.deep.equal(['00000011', '00000012', '00000013', '00000014', '00000015']);

            const seen: string[] = [];
            for (let offset = 0; offset < 28; offset += 10) {
                seen.push(...numbers(await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos?${period}&limit=10&offset=${offset}`)));
            }

            expect(seen).to.deep.equal(invoices.map((item) => item.numeroDesde).reverse());
            const narrower = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=2026-02-10&to_date=2026-02-19&limit=3`);
            expect(narrower.pagination).to.deep.equal({ limit: 3, offset: 0, total: 10 });
        });

        it('does not duplicate an invoice saved again: it is upserted by its natural key', async () => {

            const { user, clientId, cuit } = await setup();
            const first = [invoice({ fecha: '2026-04-02', numeroDesde: '1' }), invoice({ fecha: '2026-04-03', numeroDesde: '2' })];
            await server.app.ports.invoices.save(clientId, 'issued', first, Date.UTC(2026, 3, 1));
            await server.app.ports.invoices.save(
                clientId,
                'issued',
                [invoice({ fecha: '2026-04-02', numeroDesde: '1', importe: 999, importeOriginal: 999 }), invoice({ fecha: '2026-04-04', numeroDesde: '3' })],
                Date.UTC(2026, 3, 2)
            );

            const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/emitidos`);
            expect(numbers(body)).to.deep.equal(['1', '2', '3']);
            expect(body.pagination.total).to.equal(3);
            expect(body.data[0].importe).to.equal(999);
            expect(body.syncedAt).to.equal('2026-04-02T00:00:00.000Z');
        });

        it('counts an invoice saved again with another date in its new period only', async () => {

            const { user, clientId, cuit } = await setup();
            const path = (from: string, to: string) => `/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=${from}&to_date=${to}`;
            await server.app.ports.invoices.save(
                clientId,
                'issued',
                [invoice({ fecha: '2026-03-10', numeroDesde: '1' }), invoice({ fecha: '2026-03-11', numeroDesde: '2' })],
                Date.UTC(2026, 2, 12)
            );
            expect((await get(user, path('2026-03-01', '2026-03-31'))).pagination.total).to.equal(2);

            // The authority corrected the date of number 1: it moved to February.
            await server.app.ports.invoices.save(clientId, 'issued', [invoice({ fecha: '2026-02-27', numeroDesde: '1' })], Date.UTC(2026, 2, 13));
            const march = await get(user, path('2026-03-01', '2026-03-31'));
            const february = await get(user, path('2026-02-01', '2026-02-28'));
            expect([numbers(march), march.pagination.total]).to.deep.equal([['2'], 1]);
            expect([numbers(february), february.pagination.total]).to.deep.equal([['1'], 1]);
            expect((await get(user, path('2026-02-27', '2026-03-11'))).pagination.total).to.equal(2);
        });

        it('keeps received invoices with the same number from different issuers apart', async () => {

            const { user, clientId, cuit } = await setup();
            const from = (numeroDocumento: string, nombre: string) => invoice({
                fecha: '2026-04-02',
                counterpart: { tipoDocumento: '80', numeroDocumento, nombre }
            });
            await server.app.ports.invoices.save(clientId, 'received', [from('30712345671', 'Uno SA'), from('30798765432', 'Dos SA')], Date.UTC(2026, 3, 1));
            await server.app.ports.invoices.save(clientId, 'received', [from('30712345671', 'Uno SA')], Date.UTC(2026, 3, 2));

            const body = await get(user, `/v1/cuits/${cuit}/mis-comprobantes/recibidos`);
            expect(body.data.map((item: { emisor: { cuit: string } }) => item.emisor.cuit).sort()).to.deep.equal(['30712345671', '30798765432']);
        });

        it('shows only the invoices of the CUIT asked for', async () => {

            const user = await seedAccount(server.app.ports);
            const a = await addClient(server.app.ports, user.accountId, { cuit: '20111111112' });
            const b = await addClient(server.app.ports, user.accountId, { cuit: '20222222223' });
            await server.app.ports.invoices.save(a.id, 'issued', [invoice({ fecha: '2026-04-02', numeroDesde: 'A' })], Date.UTC(2026, 3, 1));
            await server.app.ports.invoices.save(b.id, 'issued', [invoice({ fecha: '2026-04-02', numeroDesde: 'B' })], Date.UTC(2026, 3, 1));

            expect(numbers(await get(user, '/v1/cuits/20111111112/mis-comprobantes/emitidos'))).to.deep.equal(['A']);
            expect(numbers(await get(user, '/v1/cuits/20-22222222-3/mis-comprobantes/emitidos'))).to.deep.equal(['B']);
        });
    });
}
