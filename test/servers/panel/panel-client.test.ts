import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { syncSystems } from '../../../core/domain/sync-system.js';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { clientTexts } from '../../../servers/panel/client-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { databaseOf } from '../../support/app.js';
import { invoice, movement, notification, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { PanelAgent } from '../../support/panel.js';
import { panelAgent } from '../../support/panel.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

// The client page of the panel over HTTP (docs/panel.md, El cliente): its tabs read through the
// API's use cases, the same 404 page for every CUIT the user may not see, es-AR amounts and
// dates, a null CCMA balance in words, the downloads (CSV guarded against formulas, a workbook
// of numbers and dates), and marking a DFE notification read or unread, which REST then serves.

const internals = {
    password: 'una-clave-larga-de-prueba',
    hostile: '<script>alert(1)</script>',
    formula: '=HYPERLINK("http://malo.example","clic")',
    env: { ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64') },
    cuit: '20123456786',
    company: '30712345671'
};

for (const database of testDatabases()) {

    describe(`the panel's client page (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let owner: SeededUser;
        let ownerEmail: string;
        let memberEmail: string;
        let pausedEmail: string;

        const emailOf = async (user: SeededUser): Promise<string> => (await server.app.ports.users.findById(user.userId))!.email;

        const signedIn = async (email: string): Promise<PanelAgent> => {

            const agent = panelAgent(server);
            expect((await agent.signIn(email, internals.password)).status).to.equal(303);
            return agent;
        };

        // A download's bytes as they are (the agent reads text).
        const download = async (agent: PanelAgent, path: string) => {

            const cookie = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
            return server.server.inject({ method: 'GET', url: path, headers: { cookie } });
        };

        const dfe = async (cuit = internals.cuit) => (await server.ok(`/v1/cuits/${cuit}/dfe`, owner.token)).data as { arcaId: string; leidaAt: string | null }[];

        before(async () => {

            server = await startTestServer(database, { inject: true, env: internals.env });
            const ports = server.app.ports;
            const now = server.clock.now().getTime();
            owner = await seedAccount(ports);
            const member = await seedUser(ports, owner.accountId, 'member');
            await setPassword(ports, { userId: owner.userId, password: internals.password });
            await setPassword(ports, { userId: member.userId, password: internals.password });
            ownerEmail = await emailOf(owner);
            memberEmail = await emailOf(member);

            const client = await addClient(ports, owner.accountId, { cuit: internals.cuit, apellido: 'Alfaro', nombre: 'Ana', claveArca: 'clave-1' });
            await databaseOf(server.app)('sync_states').insert(syncSystems.map((system) => ({
                client_id: client.id, system, synced_at: now, last_attempt_at: now, last_error: null, failing_since: null
            })));
            await ports.invoices.save(client.id, 'issued', [
                invoice({ fecha: '2026-03-10', numeroDesde: '00000007', numeroHasta: '00000007', importeOriginal: 1234567.89, importe: 1234567.89, iva: 214266.89,
                    counterpart: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: internals.formula } }),
                invoice({ fecha: '2026-03-12', numeroDesde: '00000008', numeroHasta: '00000008', importeOriginal: 1210.5, importe: 1210.5,
                    counterpart: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: `-2+3 ${internals.hostile}` } }),
                invoice({ fecha: '2026-01-05', numeroDesde: '00000001', numeroHasta: '00000001', importeOriginal: 5000, importe: 5000 })
            ], now);
            await ports.invoices.save(client.id, 'received', [
                invoice({ fecha: '2026-03-02', tipo: '1', importeOriginal: 800, importe: 800, counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: '@SUM(A1)' } })
            ], now);
            await ports.sct.replace(client.id, sctData(), now);
            await ports.ccma.replace(client.id, { saldoDeudor: null, saldoAcreedor: 1500.75 }, [
                movement({ orden: 1, periodo: '02/2026', fechaMovimiento: '2026-02-20T00:00:00.000Z' }),
                movement({ orden: 1, periodo: '01/2026', descripcion: internals.hostile })
            ], now);
            await ports.notifications.save(client.id, [
                notification({ arcaId: '1001', asunto: 'Vieja y leída', fechaRecepcion: '2026-01-10T13:00:00.000Z', leidaAt: '2026-01-10T13:00:00.000Z' }),
                notification({ arcaId: '1002', asunto: internals.hostile, fechaRecepcion: '2026-03-14T13:00:00.000Z' })
            ], now);

            await addClient(ports, owner.accountId, { cuit: internals.company, tipo: 'persona-juridica', razonSocial: `${internals.hostile} SA` });
            await addClient(ports, owner.accountId, { cuit: '27000000408', apellido: 'Zapata', nombre: 'Zoe' });
            await assignClientToUser(ports, { userId: member.userId, cuit: '27000000408' });

            const stranger = await seedAccount(ports);
            await addClient(ports, stranger.accountId, { cuit: '20000000507', apellido: 'Ajeno', nombre: 'Otro' });

            const paused = await seedAccount(ports, { subscription: 'paused' });
            await setPassword(ports, { userId: paused.userId, password: internals.password });
            pausedEmail = await emailOf(paused);
            await addClient(ports, paused.accountId, { cuit: '20000000604', apellido: 'Pausado', nombre: 'Pedro' });
        });

        after(async () => {

            await server?.stop();
        });

        it('links each CUIT of la cartera to its page, which opens on the month\'s comprobantes in es-AR', async () => {

            const agent = await signedIn(ownerEmail);
            const portfolio = await agent.get('/panel');
            expect(portfolio.text).to.contain('<a href="/panel/clientes/20-12345678-6">Alfaro, Ana</a>');

            const page = await agent.get('/panel/clientes/20-12345678-6');
            expect(page.status, page.text).to.equal(200);
            expect(page.text).to.contain('Alfaro, Ana').and.contain('20-12345678-6');
            expect(page.text).to.contain(clientTexts.periodOf('01/03/2026', '31/03/2026'));
            expect(page.text).to.contain('10/03/2026').and.contain('$ 1.234.567,89').and.contain('$ 214.266,89');
            expect(page.text).to.contain(clientTexts.summary(2, '$ 1.235.778,39'));
            // January's invoice is outside the period, but in the chart.
            expect(page.text).to.not.contain('05/01/2026');
            expect(page.text).to.match(/<svg class="chart"[^>]*aria-labelledby="grafico-titulo grafico-desc"/);
            expect(page.text).to.match(/<rect class="bar-issued" x="[\d.]+" y="[\d.]+" width="16" height="[\d.]+"\/>/);
            expect(page.text).to.contain('emitidos $ 5.000,00, recibidos $ 0,00');
            // Handlebars escapes = in attributes too; the browser reads the same address.
            expect(page.text).to.contain('href="/panel/clientes/20-12345678-6/comprobantes.csv?desde&#x3D;2026-03-01&amp;hasta&#x3D;2026-03-31"');
            expect(page.text).to.not.match(/<script|style=|<style/i);
        });

        it('answers a CUIT with or without hyphens, and another period from the form', async () => {

            const agent = await signedIn(ownerEmail);
            const plain = await agent.get('/panel/clientes/20123456786');
            expect(plain.status).to.equal(200);
            expect(plain.text).to.contain('Alfaro, Ana');
            const january = await agent.get('/panel/clientes/20-12345678-6?desde=2026-01-01&hasta=2026-01-31');
            expect(january.text).to.contain('05/01/2026').and.not.contain('10/03/2026');
            const bad = await agent.get('/panel/clientes/20123456786?desde=2026-02-01&hasta=2026-01-01');
            expect(bad.status).to.equal(400);
            expect(bad.text).to.contain(clientTexts.badPeriod);
            const half = await agent.get('/panel/clientes/20123456786?desde=2026-02-01');
            expect(half.status).to.equal(400);
        });

        it('gives another account\'s CUIT, a member\'s unassigned one and a malformed one the same 404 page as a missing one', async () => {

            const agent = await signedIn(ownerEmail);
            const missing = await agent.get('/panel/clientes/20999999990');
            expect(missing.status).to.equal(404);
            expect(missing.text).to.contain(panelTexts.notFound);
            for (const path of ['/panel/clientes/20000000507', '/panel/clientes/20-00000050-7/ccma', '/panel/clientes/123', '/panel/clientes/20000000507/notificaciones/1']) {
                const answer = await agent.get(path);
                expect(answer.status, path).to.equal(404);
                expect(answer.text, path).to.equal(missing.text);
            }

            const member = await signedIn(memberEmail);
            expect((await member.get('/panel/clientes/27-00000040-8')).status).to.equal(200);
            const hidden = await member.get('/panel/clientes/20-12345678-6');
            expect(hidden.status).to.equal(404);
            expect(hidden.text).to.not.contain('Alfaro');
            expect((await member.get('/panel/clientes/20-12345678-6/comprobantes.csv')).status).to.equal(404);
        });

        it('shows the SCT\'s debt with its total to pay, its due dates and sworn returns', async () => {

            const agent = await signedIn(ownerEmail);
            const page = await agent.get('/panel/clientes/20-12345678-6/cuenta-tributaria');
            expect(page.status).to.equal(200);
            // 15000.50 + 320.25 + 800 + 12.50
            expect(page.text).to.contain(`${clientTexts.totalDebt}: $ 16.133,25`);
            expect(page.text).to.contain('$ 15.320,75').and.contain('01/2026').and.contain('18/02/2026');
            expect(page.text).to.contain('20/04/2026').and.contain('Declaración jurada mensual').and.contain('02/2026');
        });

        it('says "ARCA no lo informó" for a CCMA balance the authority did not report, never $ 0,00', async () => {

            const agent = await signedIn(ownerEmail);
            const page = await agent.get('/panel/clientes/20-12345678-6/ccma');
            expect(page.status).to.equal(200);
            const balances = page.text.slice(page.text.indexOf('id="saldos"'), page.text.indexOf('id="movimientos"'));
            expect(balances).to.contain(clientTexts.notReported).and.contain('$ 1.500,75').and.not.contain('$ 0,00');
            expect(page.text).to.contain(clientTexts.periodHeading('02/2026')).and.contain('20/02/2026').and.contain('-$ 25.000,00');
            expect(page.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;').and.not.contain(internals.hostile);
        });

        it('shows each system\'s state and the key\'s', async () => {

            const agent = await signedIn(ownerEmail);
            const page = await agent.get('/panel/clientes/20-12345678-6/estado');
            expect(page.status).to.equal(200);
            expect(page.text).to.contain(clientTexts.systems.registro!).and.contain(clientTexts.systems.dfe!);
            expect(page.text).to.contain(clientTexts.states.ok);
            // The key never reported a day's use: waiting, and whose key logs in.
            expect(page.text).to.match(new RegExp(`<dt>${clientTexts.key}</dt><dd>${clientTexts.states.pendiente}<`));
            expect(page.text).to.contain(clientTexts.keyOf('20-12345678-6'));
            expect(page.text).to.contain('15/03/2026 09:00');
        });

        it('lists the DFE inbox newest first with the unread marked, and hostile texts as text', async () => {

            const agent = await signedIn(ownerEmail);
            const page = await agent.get('/panel/clientes/20-12345678-6/notificaciones');
            expect(page.status).to.equal(200);
            const newest = page.text.indexOf('&lt;script&gt;alert(1)&lt;/script&gt;');
            expect(newest).to.be.greaterThan(0);
            expect(newest).to.be.lessThan(page.text.indexOf('Vieja y leída'));
            expect(page.text).to.contain('<tr class="unread">').and.contain(clientTexts.unread);
            expect(page.text).to.contain('href="/panel/clientes/20-12345678-6/notificaciones/1002"');
            expect(page.text).to.not.contain(internals.hostile);

            const company = await agent.get(`/panel/clientes/${internals.company}`);
            expect(company.status).to.equal(200);
            expect(company.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt; SA').and.not.match(/<script/i);
        });

        it('refuses marking read without the CSRF token, and leidaAt stays null', async () => {

            const agent = await signedIn(ownerEmail);
            await agent.get('/panel/clientes/20-12345678-6/notificaciones/1002');
            const refused = await agent.post('/panel/clientes/20-12345678-6/notificaciones/1002/leida', {}, { crumb: false });
            expect(refused.status).to.equal(403);
            expect(refused.text).to.contain(panelTexts.formExpired);
            expect((await dfe()).find((item) => item.arcaId === '1002')!.leidaAt).to.equal(null);
        });

        it('marks a notification read and unread, and the REST API serves leidaAt at once', async () => {

            // Read twice first: the API keeps the answer, which the marking must not leave stale.
            expect((await dfe()).find((item) => item.arcaId === '1002')!.leidaAt).to.equal(null);
            expect((await dfe()).find((item) => item.arcaId === '1002')!.leidaAt).to.equal(null);

            const agent = await signedIn(ownerEmail);
            const detail = await agent.get('/panel/clientes/20123456786/notificaciones/1002');
            expect(detail.status).to.equal(200);
            expect(detail.text).to.contain(clientTexts.notRead).and.contain(clientTexts.markRead).and.contain(clientTexts.neverOpened);
            expect(detail.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;').and.not.contain(internals.hostile);

            const marked = await agent.post('/panel/clientes/20-12345678-6/notificaciones/1002/leida', {});
            expect(marked.status).to.equal(303);
            expect(marked.headers.get('location')).to.equal('/panel/clientes/20-12345678-6/notificaciones/1002?marcada=leida');
            const read = (await dfe()).find((item) => item.arcaId === '1002')!;
            expect(read.leidaAt).to.equal(server.clock.now().toISOString());
            const after = await agent.get(marked.headers.get('location')!);
            expect(after.text).to.contain(clientTexts.markedRead).and.contain('15/03/2026 09:00').and.contain(clientTexts.markUnread);

            // Marking it read again keeps the first time; unread clears it.
            server.clock.advance(60_000);
            await agent.post('/panel/clientes/20-12345678-6/notificaciones/1002/leida', {});
            expect((await dfe()).find((item) => item.arcaId === '1002')!.leidaAt).to.equal(read.leidaAt);
            expect((await agent.post('/panel/clientes/20-12345678-6/notificaciones/1002/no-leida', {})).status).to.equal(303);
            expect((await dfe()).find((item) => item.arcaId === '1002')!.leidaAt).to.equal(null);
            const inbox = await agent.get('/panel/clientes/20-12345678-6/notificaciones');
            expect(inbox.text).to.contain('<tr class="unread">');

            // Each row of the inbox has its own form, which comes back to the inbox.
            expect(inbox.text).to.contain('action="/panel/clientes/20-12345678-6/notificaciones/1001/no-leida"');
            const fromRow = await agent.post('/panel/clientes/20-12345678-6/notificaciones/1001/no-leida', { volver: '1' });
            expect(fromRow.status).to.equal(303);
            expect(fromRow.headers.get('location')).to.equal('/panel/clientes/20-12345678-6/notificaciones?pagina=1');
            expect((await dfe()).find((item) => item.arcaId === '1001')!.leidaAt).to.equal(null);
            const elsewhere = await agent.post('/panel/clientes/20-12345678-6/notificaciones/1001/leida', { volver: 'https://malo.example' });
            expect(elsewhere.headers.get('location')).to.equal('/panel/clientes/20-12345678-6/notificaciones/1001?marcada=leida');
        });

        it('lets a member mark only the CUITs they see', async () => {

            const member = await signedIn(memberEmail);
            await member.get('/panel/clientes/27-00000040-8');
            const refused = await member.post('/panel/clientes/20-12345678-6/notificaciones/1002/leida', {});
            expect(refused.status).to.equal(404);
            expect((await dfe()).find((item) => item.arcaId === '1002')!.leidaAt).to.equal(null);
            expect((await member.post('/panel/clientes/27-00000040-8/notificaciones/1002/leida', {})).status).to.equal(404);
        });

        it('downloads the period as CSV for Excel es-AR: BOM, semicolons, decimal commas, formulas defused', async () => {

            const agent = await signedIn(ownerEmail);
            await agent.get('/panel/clientes/20-12345678-6');
            const response = await download(agent, '/panel/clientes/20-12345678-6/comprobantes.csv?desde=2026-03-01&hasta=2026-03-31');
            expect(response.statusCode).to.equal(200);
            expect(response.headers['content-type']).to.equal('text/csv; charset=utf-8');
            expect(response.headers['content-disposition']).to.equal('attachment; filename="comprobantes-20123456786-2026-03-01-a-2026-03-31.csv"');
            const bytes = response.rawPayload;
            expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
            const lines = bytes.subarray(3).toString('utf8').split('\r\n');
            expect(lines[0]).to.match(/^Operación;Fecha;Tipo;/);
            expect(lines).to.have.length(5);       // header, 2 issued, 1 received, and the final line end
            const first = lines.find((line) => line.includes('00000007'))!;
            expect(first).to.match(/^Emitidos;10\/03\/2026;11;00002;00000007;00000007;30712345671;/);
            expect(first).to.contain(`;"'=HYPERLINK(""http://malo.example"",""clic"")";`);
            expect(first).to.contain(';1234567,89');
            expect(lines.find((line) => line.includes('00000008'))).to.contain(`;'-2+3 ${internals.hostile};`);
            expect(lines.find((line) => line.startsWith('Recibidos'))).to.contain(";'@SUM(A1);").and.contain(';800');
            for (const line of lines.slice(1)) {
                expect(line, line).to.not.match(/;[=+@]/);
            }
        });

        it('downloads the period as an Excel workbook whose amounts are numbers and dates are dates', async () => {

            const agent = await signedIn(ownerEmail);
            await agent.get('/panel/clientes/20-12345678-6');
            const response = await download(agent, '/panel/clientes/20-12345678-6/comprobantes.xlsx');
            expect(response.statusCode).to.equal(200);
            expect(response.headers['content-type']).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
            expect(response.headers['content-disposition']).to.contain('comprobantes-20123456786-2026-03-01-a-2026-03-31.xlsx');

            const workbook = new ExcelJS.Workbook();
            await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
            expect(workbook.worksheets.map((sheet) => sheet.name)).to.deep.equal([clientTexts.issued, clientTexts.received]);
            const issued = workbook.getWorksheet(clientTexts.issued)!;
            expect(issued.getRow(1).getCell(1).value).to.equal('Fecha');
            const rows = [2, 3].map((number) => issued.getRow(number));
            const big = rows.find((row) => row.getCell(4).value === '00000007')!;
            expect(big.getCell(1).value).to.be.instanceOf(Date);
            expect((big.getCell(1).value as Date).toISOString()).to.equal('2026-03-10T00:00:00.000Z');
            expect(big.getCell(1).numFmt).to.equal('dd/mm/yyyy');
            expect(big.getCell(16).value).to.equal(1234567.89);
            expect(big.getCell(15).value).to.equal(214266.89);
            expect(big.getCell(7).type).to.equal(ExcelJS.ValueType.String);
            expect(big.getCell(7).value).to.equal(internals.formula);
            const received = workbook.getWorksheet(clientTexts.received)!;
            expect(received.getRow(2).getCell(16).value).to.equal(800);
            expect(received.getRow(2).getCell(7).value).to.equal('@SUM(A1)');
        });

        it('refuses the workbook of a period with more invoices than it is built for, saying why', async () => {

            const ports = server.app.ports;
            const busy = await addClient(ports, owner.accountId, { cuit: '20111111112', apellido: 'Grande', nombre: 'Gustavo' });
            const many = Array.from({ length: 5_001 }, (_, index) => invoice({
                fecha: '2026-03-05', numeroDesde: String(index + 1).padStart(8, '0'), numeroHasta: String(index + 1).padStart(8, '0')
            }));
            await ports.invoices.save(busy.id, 'issued', many, server.clock.now().getTime());
            const agent = await signedIn(ownerEmail);
            const refused = await agent.get('/panel/clientes/20111111112/comprobantes.xlsx');
            expect(refused.status).to.equal(400);
            expect(refused.text).to.contain(clientTexts.tooManyToDownload(5_000));
            const csv = await download(agent, '/panel/clientes/20111111112/comprobantes.csv');
            expect(csv.statusCode).to.equal(200);
            expect(csv.rawPayload.toString('utf8').trim().split('\r\n')).to.have.length(5_002);
        });

        it('sends a paused account to the subscription page instead of a client\'s data, and downloads nothing', async () => {

            const agent = await signedIn(pausedEmail);
            const page = await agent.get('/panel/clientes/20-00000060-4');
            expect(page.status).to.equal(303);
            expect(page.headers.get('location')).to.equal('/panel/suscripcion');
            expect(page.text).to.not.contain('Pausado');
            const csv = await download(agent, '/panel/clientes/20-00000060-4/comprobantes.csv');
            expect(csv.statusCode).to.equal(303);
            expect(csv.rawPayload.toString('utf8')).to.not.contain('Pausado');
            const subscription = await agent.get('/panel/suscripcion');
            expect(subscription.text).to.contain(panelTexts.subscription.paused.label);
        });

        it('sends a visitor without a session to sign in', async () => {

            const answer = await panelAgent(server).get('/panel/clientes/20-12345678-6');
            expect(answer.status).to.equal(303);
            expect(answer.headers.get('location')).to.equal('/panel/ingresar');
        });
    });
}
