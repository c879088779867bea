import { expect } from 'chai';
import type { InvoiceRecord } from '../../../core/domain/invoice.js';
import { messages } from '../../../core/domain/messages.js';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { answerTexts, formatPercent } from '../../../servers/panel/answer-texts.js';
import { formatMoney } from '../../../servers/panel/client-format.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { invoice, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { PanelAgent } from '../../support/panel.js';
import { panelAgent } from '../../support/panel.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, testClock } from '../../support/server.js';

// The panel's answers over HTTP (docs/panel.md: la cartera's cap column, the client's
// Monotributo and IVA tabs, Agenda, the private calendar on Mi cuenta), each figure compared
// with what the API answers the same user. Today is 2026-03-10 in Buenos Aires.

const internals = {
    password: 'una-clave-larga-de-prueba',
    cuits: { near: '20111111112', over: '20222222223', ri: '30666666667', foreign: '20777777778' },
    display: { near: '20-11111111-2', over: '20-22222222-3', ri: '30-66666666-7', foreign: '20-77777777-8' },

    numbered: (rows: readonly Partial<InvoiceRecord>[]): InvoiceRecord[] => rows.map((row, index) => invoice({
        numeroDesde: String(index + 1), numeroHasta: String(index + 1), iva: 0, ...row
    })),

    pesos: (fecha: string, tipo: string, importe: number, iva = 0): Partial<InvoiceRecord> => ({ fecha, tipo, importeOriginal: importe, importe, iva }),

    // A page's text without its tags, whitespace collapsed, entities (as Handlebars writes them) read.
    text: (html: string): string => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
        .replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&#x3D;/g, '=').replace(/&#x60;/g, '`').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
};

const { cuits, display, numbered, pesos } = internals;

for (const database of testDatabases()) {

    describe(`the panel's answers (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;
        let owner: SeededUser;
        let ownerEmail: string;
        let memberEmail: string;
        const synced = Date.UTC(2026, 2, 9, 6, 0, 0);

        const signedIn = async (email: string): Promise<PanelAgent> => {

            const agent = panelAgent(server);
            expect((await agent.signIn(email, internals.password)).status).to.equal(303);
            return agent;
        };

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, clock: testClock('2026-03-10T15:00:00Z'), inject: true });
            const { ports } = server.app;
            owner = await seedAccount(ports);
            const member = await seedUser(ports, owner.accountId, 'member');
            await setPassword(ports, { userId: owner.userId, password: internals.password });
            await setPassword(ports, { userId: member.userId, password: internals.password });
            ownerEmail = (await ports.users.findById(owner.userId))!.email;
            memberEmail = (await ports.users.findById(member.userId))!.email;

            const near = await addClient(ports, owner.accountId, { cuit: cuits.near, apellido: 'Cerca' });
            await ports.registry.save(near.id, { monotributista: true, autonomo: false, categoria: 'H' }, synced);
            await ports.invoices.saveKinds(near.id, [
                { kind: 'issued', invoices: numbered([pesos('2025-10-15', '11', 60_000_000), pesos('2025-11-03', '11', 1_250_000), pesos('2025-12-01', '13', 6_000)]) },
                { kind: 'received', invoices: numbered([pesos('2025-06-10', '1', 5_000_000), pesos('2025-06-11', '3', 500_000)]) }
            ], synced);

            const over = await addClient(ports, owner.accountId, { cuit: cuits.over, apellido: 'Pasado' });
            await ports.registry.save(over.id, { monotributista: true, autonomo: false, categoria: 'A' }, synced);
            await ports.invoices.save(over.id, 'issued', numbered([pesos('2025-09-01', '11', 20_000_000)]), synced);

            const ri = await addClient(ports, owner.accountId, { cuit: cuits.ri, tipo: 'persona-juridica', razonSocial: 'Inscripta SA' });
            await ports.registry.save(ri.id, { monotributista: false, autonomo: false, categoria: null }, synced);
            await ports.invoices.saveKinds(ri.id, [
                { kind: 'issued', invoices: numbered([pesos('2026-02-02', '1', 121_000, 21_000)]) },
                { kind: 'received', invoices: numbered([pesos('2026-02-02', '1', 60_500, 10_500)]) }
            ], synced);
            const sct = sctData();
            await ports.sct.replace(ri.id, {
                deuda: [{ ...sct.deuda[0]!, vencimiento: '2026-03-18T03:00:00.000Z' }],
                vencimientos: [{ ...sct.vencimientos[0]!, vencimiento: '2026-03-18T03:00:00.000Z' }],
                ddjj: []
            }, synced);

            await assignClientToUser(ports, { userId: member.userId, cuit: cuits.near });
            const stranger = await seedAccount(ports);
            const foreign = await addClient(ports, stranger.accountId, { cuit: cuits.foreign });
            await ports.registry.save(foreign.id, { monotributista: true, autonomo: false, categoria: 'A' }, synced);
        });

        after(async () => {

            await server?.stop();
        });

        it('shows in la cartera each monotributista\'s use of its cap as the API computes it, in es-AR percent', async () => {

            const api = await server.ok('/v1/monotributo', owner.token);
            const use = (cuit: string): number => api.data.find((row: { cuit: string }) => row.cuit === cuit).usoTope;
            const page = await (await signedIn(ownerEmail)).get('/panel');
            expect(page.status).to.equal(200);
            const rowOf = (displayCuit: string): string => page.text.split('<tr>').find((row) => row.includes(displayCuit))!;
            expect(rowOf(display.near)).to.include(`>${formatPercent(use(cuits.near))}<`).and.include('cap-near');
            expect(formatPercent(use(cuits.near))).to.match(/^87,4\s?%$/);
            expect(rowOf(display.over)).to.include(`>${formatPercent(use(cuits.over))}<`).and.include('cap-over');
            expect(rowOf(display.ri)).to.not.include('cap-meter');
            expect(page.text).to.not.match(/style=/);
        });

        it('draws the Monotributo tab\'s gauge and figures from the same control as GET /v1/cuits/{cuit}/monotributo', async () => {

            const { data } = await server.ok(`/v1/cuits/${cuits.near}/monotributo`, owner.token);
            const page = await (await signedIn(ownerEmail)).get(`/panel/clientes/${display.near}/monotributo`);
            expect(page.status).to.equal(200);
            const text = internals.text(page.text);
            expect(page.text).to.include('<svg class="gauge"');
            expect(text).to.include(`${answerTexts.againstCategory('H')}: ${formatPercent(data.usoTope)}`);
            expect(text).to.include(`${answerTexts.againstK}: ${formatPercent(data.usoTopeMaximo)}`);
            expect(text).to.include(formatMoney(data.facturado)).and.include('$ 61.244.000,00');
            expect(text).to.include(formatMoney(data.tope));
            expect(text).to.include(`${answerTexts.purchases} ${formatMoney(data.compras.total)}`);
            expect(text).to.include('del 15/07/2026 al 05/08/2026');
            expect(page.text.match(/class="bar-issued"/g)).to.have.length(12);
            expect(page.text).to.not.match(/style=/);

            const ri = await (await signedIn(ownerEmail)).get(`/panel/clientes/${display.ri}/monotributo`);
            expect(internals.text(ri.text)).to.include('No corresponde: según el sistema registral de ARCA el CUIT no es monotributista.');
        });

        it('shows a Responsable Inscripto\'s IVA position by month, and why it does not apply to a monotributista', async () => {

            const { data } = await server.ok(`/v1/cuits/${cuits.ri}/iva`, owner.token);
            const agent = await signedIn(ownerEmail);
            const page = internals.text((await agent.get(`/panel/clientes/${display.ri}/iva`)).text);
            expect(data.totales).to.include({ debitoFiscal: 21_000, creditoFiscal: 10_500 });
            expect(page).to.include('febrero de 2026 $ 21.000,00 $ 10.500,00 $ 10.500,00 1 1');
            expect(page).to.include(data.excluye[0]);
            const mono = internals.text((await agent.get(`/panel/clientes/${display.near}/iva`)).text);
            expect(mono).to.include('No corresponde: según el sistema registral de ARCA el CUIT es monotributista');
        });

        it('answers a member the same 404 page for a CUIT they do not manage as for another account\'s', async () => {

            const member = await signedIn(memberEmail);
            expect((await member.get(`/panel/clientes/${display.near}/monotributo`)).status).to.equal(200);
            for (const path of [`/panel/clientes/${display.over}/monotributo`, `/panel/clientes/${display.ri}/iva`, `/panel/clientes/${display.foreign}/monotributo`]) {
                const res = await member.get(path);
                expect(res.status, path).to.equal(404);
                expect(res.text).to.include(panelTexts.notFound).and.not.include('Pasado');
            }

            const portfolio = await member.get('/panel');
            expect(portfolio.text).to.include(display.near).and.not.include(display.over);
        });

        it('lists the agenda by date across the user\'s CUITs, each item linking to its client, and refuses a range in Spanish', async () => {

            const api = await server.ok('/v1/vencimientos', owner.token);
            const agent = await signedIn(ownerEmail);
            const page = await agent.get('/panel/agenda');
            expect(page.status).to.equal(200);
            expect(page.text).to.include('aria-current="page">Agenda<');
            expect(internals.text(page.text)).to.include(answerTexts.agendaRange('10/03/2026', '09/04/2026', String(api.pagination.total)));
            const headings = [...page.text.matchAll(/<h2 id="dia-([\d-]+)">/g)].map((match) => match[1]!);
            expect(headings).to.deep.equal([...new Set(api.data.map((item: { fecha: string }) => item.fecha))]);
            expect(headings).to.deep.equal([...headings].sort());
            expect(headings).to.include('2026-03-18');
            expect(page.text).to.include(`<a href="/panel/clientes/${display.ri}">Inscripta SA</a>`);
            expect(page.text).to.include(`<a href="/panel/clientes/${display.near}">`);

            const member = internals.text((await (await signedIn(memberEmail)).get('/panel/agenda')).text);
            expect(member).to.not.include('Inscripta SA');

            const tooLong = await agent.get('/panel/agenda?desde=2026-01-01&hasta=2027-06-01');
            expect(tooLong.status).to.equal(400);
            expect(internals.text(tooLong.text)).to.include(messages.answerRange.tooManyDays(366));
            const inverted = await agent.get('/panel/agenda?desde=2026-05-01&hasta=2026-04-01');
            expect(inverted.status).to.equal(400);
            expect(internals.text(inverted.text)).to.include(messages.answerRange.inverted);
            expect((await agent.get('/panel/agenda?desde=mañana')).status).to.equal(400);
        });

        it('creates the private calendar address on Mi cuenta behind the CSRF check, shows it once, and revokes it', async () => {

            const agent = await signedIn(ownerEmail);
            await agent.get('/panel/cuenta');
            expect((await agent.post('/panel/cuenta/calendario', {}, { crumb: false })).status).to.equal(403);

            const created = await agent.post('/panel/cuenta/calendario', {});
            expect(created.status).to.equal(200);
            expect(created.headers.get('cache-control')).to.include('no-store');
            const address = /<input id="calendario"[^>]* value="([^"]+)"/.exec(created.text)?.[1];
            expect(address).to.match(/\/calendario\/[^/]+\.ics$/);
            const path = new URL(address!).pathname;
            const feed = await server.request(path, { token: null });
            expect(feed.status).to.equal(200);
            expect(feed.headers.get('content-type')).to.include('text/calendar');
            expect(feed.text).to.include('BEGIN:VCALENDAR').and.include('Inscripta SA');

            const again = await agent.get('/panel/cuenta');
            expect(again.text).to.not.include(path);

            expect((await agent.post('/panel/cuenta/calendario/revocar', {}, { crumb: false })).status).to.equal(403);
            expect((await server.request(path, { token: null })).status).to.equal(200);
            const revoked = await agent.post('/panel/cuenta/calendario/revocar', {});
            expect(revoked.status).to.equal(303);
            expect(revoked.headers.get('location')).to.equal('/panel/cuenta?calendario=revocado');
            expect(internals.text((await agent.get('/panel/cuenta?calendario=revocado')).text)).to.include(answerTexts.calendarRevoked);
            expect((await server.request(path, { token: null })).status).to.equal(401);
        });
    });
}
