import { expect } from 'chai';
import { sortKey } from '../../../core/domain/client.js';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import { createTag } from '../../../core/use-cases/staff/create-tag.js';
import { invoice, movement, notification } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedAccountWithClient, seedUser, tagClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';
import { databaseOf } from '../../support/app.js';

// docs/api.md, Reads: every paged list keeps its order and its total at any offset. Integrators page
// through all of a period after each sync, so the deep pages are pinned here: pages put
// together are the whole list in the documented order (no row skipped or repeated, also where
// equal sort values straddle a page boundary), the last page holds the remainder, and a page
// past the end is empty with the same total.

const internals = {

    // Everything a list answers, page by page with `limit`, until a page comes back short.
    async allPages(server: TestServer, token: string, path: string, limit: number): Promise<{ pages: { data: any[]; pagination: any }[] }> {

        const pages = [];
        const separator = path.includes('?') ? '&' : '?';
        for (let offset = 0; ; offset += limit) {
            const body = await server.ok(`${path}${separator}limit=${limit}&offset=${offset}`, token);
            pages.push(body);
            if (body.data.length < limit) {
                return { pages };
            }
        }
    },

    // A list paged with each limit must be the expected list, with the expected total on every
    // page, a short last page and empty pages past the end.
    async expectPaged(server: TestServer, token: string, path: string, expected: string[], key: (item: any) => string, limits: number[] = [50, 7, 100]) {

        for (const limit of limits) {
            const { pages } = await internals.allPages(server, token, path, limit);
            expect(pages.flatMap((page) => page.data.map(key)), `${path} limit=${limit}`).to.deep.equal(expected);
            for (const [i, page] of pages.entries()) {
                expect(page.pagination, `${path} limit=${limit} page ${i}`).to.deep.equal({ limit, offset: i * limit, total: expected.length });
            }

            expect(pages.at(-1)!.data.length).to.equal(expected.length % limit);
        }

        const separator = path.includes('?') ? '&' : '?';
        for (const offset of [expected.length, expected.length + 1, expected.length + 5_000]) {
            const past = await server.ok(`${path}${separator}limit=50&offset=${offset}`, token);
            expect(past.data, `${path} offset=${offset}`).to.deep.equal([]);
            expect(past.pagination).to.deep.equal({ limit: 50, offset, total: expected.length });
        }

        // The last page alone, read first (nothing before it warmed anything).
        const last = await server.ok(`${path}${separator}limit=50&offset=${expected.length - 3}`, token);
        expect(last.data.map(key)).to.deep.equal(expected.slice(-3));
    },

    // Days of March with several invoices each: 7 on most days, so page boundaries of 50, 7
    // and 100 fall inside runs of equal fecha; stored out of date order across several saves.
    monthOfInvoices(): InvoiceRecord[] {

        const list: InvoiceRecord[] = [];
        for (let n = 0; n < 237; n++) {
            const day = 1 + ((n * 13) % 31);
            list.push(invoice({ fecha: `2026-03-${String(day).padStart(2, '0')}`, numeroDesde: String(n).padStart(8, '0'), numeroHasta: String(n).padStart(8, '0') }));
        }

        return list;
    },

    // fecha, then the order the invoices were first stored in (the internal id).
    byFecha: (list: InvoiceRecord[]): string[] => list
        .map((item, i) => ({ item, i }))
        .sort((a, b) => (a.item.fecha < b.item.fecha ? -1 : a.item.fecha > b.item.fecha ? 1 : a.i - b.i))
        .map(({ item }) => `${item.fecha} ${item.numeroDesde}`)
};

for (const database of testDatabases()) {

    describe(`Deep pages (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, inject: true });
        });

        after(async () => {

            await server.stop();
        });

        for (const [kind, wire] of [['issued', 'emitidos'], ['received', 'recibidos']] as [InvoiceKind, string][]) {

            it(`pages through a month of ${wire} in fecha order, ties in stored order, with the month's total`, async () => {

                const { user, clientId, cuit } = await seedAccountWithClient(server.app.ports);
                const month = internals.monthOfInvoices();
                const outside = [invoice({ fecha: '2026-02-28', numeroDesde: 'antes' }), invoice({ fecha: '2026-04-01', numeroDesde: 'despues' })];
                // Several saves, as a sync's batches arrive; one of them stores invoices outside the month.
                await server.app.ports.invoices.save(clientId, kind, [...month.slice(0, 100), outside[0]!], Date.UTC(2026, 3, 1));
                await server.app.ports.invoices.save(clientId, kind, [...month.slice(100), outside[1]!], Date.UTC(2026, 3, 1));
                // An invoice stored again (a later sync) keeps its place.
                await server.app.ports.invoices.save(clientId, kind, month.slice(40, 45), Date.UTC(2026, 3, 2));

                const path = `/v1/cuits/${cuit}/mis-comprobantes/${wire}?from_date=2026-03-01&to_date=2026-03-31`;
                await internals.expectPaged(server, user.token, path, internals.byFecha(month), (item) => `${item.fecha.slice(0, 10)} ${item.numeroDesde}`);
            });
        }

        it('pages a range that starts and ends inside runs of equal fecha', async () => {

            const { user, clientId, cuit } = await seedAccountWithClient(server.app.ports);
            const month = internals.monthOfInvoices();
            await server.app.ports.invoices.save(clientId, 'issued', month, Date.UTC(2026, 3, 1));

            const inRange = month.filter((item) => item.fecha >= '2026-03-10' && item.fecha <= '2026-03-20');
            const path = `/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=2026-03-10&to_date=2026-03-20`;
            await internals.expectPaged(server, user.token, path, internals.byFecha(inRange), (item) => `${item.fecha.slice(0, 10)} ${item.numeroDesde}`, [50, 9]);
        });

        it('pages through the CUITs by nombre, equal nombres by creation, for owners, members and a tag filter', async () => {

            const owner = await seedAccount(server.app.ports);
            const member = await seedUser(server.app.ports, owner.accountId, 'member');
            const created: { cuit: string; nombre: string; tagged: boolean; assigned: boolean }[] = [];
            // 120 CUITs: most share one of three names, so equal nombres cross page boundaries.
            for (let n = 0; n < 120; n++) {
                const razonSocial = n % 10 === 0 ? `Empresa ${String(n).padStart(3, '0')} SA` : ['Zeta SA', 'Alfa SA', 'Mitre SA'][n % 3]!;
                const client = await addClient(server.app.ports, owner.accountId, { cuit: `30${String(70_000_000 + n).padStart(8, '0')}${n % 10}`, tipo: 'persona-juridica', razonSocial });
                const assigned = n % 2 === 0;
                if (assigned) {
                    await databaseOf(server.app)('user_clients').insert({ user_id: member.userId, client_id: client.id });
                }

                const tagged = n % 3 !== 1;
                if (tagged) {
                    await tagClient(server.app.ports, owner.accountId, client.cuit, 'Cartera');
                }

                created.push({ cuit: client.cuit, nombre: sortKey(razonSocial), tagged, assigned });
            }

            const ordered = created.map((item, i) => ({ item, i })).sort(
                (a, b) => (a.item.nombre < b.item.nombre ? -1 : a.item.nombre > b.item.nombre ? 1 : a.i - b.i)
            ).map(({ item }) => item);
            const key = (item: { cuit: string }) => item.cuit;
            await internals.expectPaged(server, owner.token, '/v1/cuits', ordered.map(key), key);
            await internals.expectPaged(server, member.token, '/v1/cuits', ordered.filter((item) => item.assigned).map(key), key, [50, 7]);
            await internals.expectPaged(server, owner.token, '/v1/cuits?etiquetas=Cartera', ordered.filter((item) => item.tagged).map(key), key, [50, 7]);
        });

        it('pages through the notifications newest first, equal dates by the latest stored first', async () => {

            const { user, clientId, cuit } = await seedAccountWithClient(server.app.ports);
            // 130 notifications over 20 distinct reception times.
            const list = Array.from({ length: 130 }, (_, n) => notification({ arcaId: `n${n}`, asunto: `Aviso ${n}`, fechaRecepcion: new Date(Date.UTC(2026, 0, 1 + ((n * 7) % 20), 12)).toISOString() }));
            await server.app.ports.notifications.save(clientId, list, Date.UTC(2026, 2, 1));

            const expected = list.map((item, i) => ({ item, i }))
                .sort((a, b) => (a.item.fechaRecepcion < b.item.fechaRecepcion ? 1 : a.item.fechaRecepcion > b.item.fechaRecepcion ? -1 : b.i - a.i))
                .map(({ item }) => item.asunto);
            await internals.expectPaged(server, user.token, `/v1/cuits/${cuit}/dfe`, expected, (item) => item.asunto);
        });

        it('pages through the CCMA periods newest first, each with all its movements by orden', async () => {

            const { user, clientId, cuit } = await seedAccountWithClient(server.app.ports);
            // 59 periods (May 2021 to March 2026) with 1 to 4 movements each, stored in no particular order.
            const periods = Array.from({ length: 59 }, (_, n) => {

                const month = 4 + n;
                return `${String((month % 12) + 1).padStart(2, '0')}/${2021 + Math.floor(month / 12)}`;
            });
            const movements = periods.flatMap(
                (periodo, p) => Array.from({ length: 1 + (p % 4) }, (_, j) => movement({ periodo, orden: 10 * (1 + ((p + j * 3) % 4)) + j }))
            );
            await server.app.ports.ccma.replace(clientId, { saldoDeudor: 0, saldoAcreedor: 0 }, [...movements].reverse(), Date.UTC(2026, 3, 1));

            const newestFirst = [...periods].reverse();
            const { pages } = await internals.allPages(server, user.token, `/v1/cuits/${cuit}/ccma/movimientos`, 7);
            const seen = pages.map((page) => [...new Set(page.data.map((item: { periodo: string }) => item.periodo))]);
            expect(seen.flat()).to.deep.equal(newestFirst);
            for (const [i, page] of pages.entries()) {
                expect(page.pagination).to.deep.equal({ limit: 7, offset: i * 7, total: 59 });
                const expected = newestFirst.slice(i * 7, i * 7 + 7).flatMap(
                    (periodo) => movements.filter((item) => item.periodo === periodo).map((item) => item.orden).sort((a, b) => a - b)
                );
                expect(page.data.map((item: { orden: number }) => item.orden)).to.deep.equal(expected);
            }

            expect(pages.at(-1)!.data.map((item: { periodo: string }) => item.periodo)).to.include('05/2021');
            const past = await server.ok(`/v1/cuits/${cuit}/ccma/movimientos?limit=7&offset=59`, user.token);
            expect(past.data).to.deep.equal([]);
            expect(past.pagination).to.deep.equal({ limit: 7, offset: 59, total: 59 });
        });

        it('pages through the account tags by nombre, ignoring case and accents', async () => {

            const owner: SeededUser = await seedAccount(server.app.ports);
            const names = Array.from({ length: 123 }, (_, n) => `${['Área', 'cartera', 'Zona', 'ávila'][n % 4]} ${String((n * 37) % 123).padStart(3, '0')}`);
            for (const name of names) {
                await createTag(server.app.ports, { accountId: owner.accountId, name, color: '#336699' });
            }

            const expected = [...names].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
            await internals.expectPaged(server, owner.token, '/v1/tags', expected, (item) => item.nombre);
        });
    });
}
