import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { syncSystems } from '../../../core/domain/sync-system.js';
import { clientTexts } from '../../../servers/panel/client-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { databaseOf } from '../../support/app.js';
import { pageProblems, skipWithoutChromium, startPanelJourney } from '../../support/chromium.js';
import { invoice, movement, notification, sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';

// The client page as a person uses it, in Debian's Chromium: from la cartera to a client, its
// chart and tabs under the panel's CSP (nothing refused, nothing fetched elsewhere), the
// period's CSV and workbook downloaded and read back, and a DFE notification marked read, which
// the REST API and MCP then show. Screenshots of each tab go to test-artifacts/.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba'
};

for (const database of testDatabases()) {

    describe(`the client page in a browser (${database.name})`, function () {

        this.timeout(90_000);

        let server: TestServer;
        let browser: Browser;
        let user: SeededUser;
        let email: string;

        const shot = async (page: Page, name: string) => page.screenshot({ path: join(internals.artifacts, `panel-cliente-${name}-${database.name}.png`), fullPage: true });

        before(async function () {

            skipWithoutChromium(this);
            ({ server, browser, owner: user, email } = await startPanelJourney(database, internals.password));
            const ports = server.app.ports;
            const now = server.clock.now().getTime();
            const client = await addClient(ports, user.accountId, { cuit: '20123456786', apellido: 'González', nombre: 'María', claveArca: 'clave-1' });
            await databaseOf(server.app)('sync_states').insert(syncSystems.map((system) => ({
                client_id: client.id, system, synced_at: now, last_attempt_at: now, last_error: null, failing_since: null
            })));
            await ports.registry.save(client.id, { monotributista: true, autonomo: false, categoria: 'D' }, now);
            // A year of invoices: each month's own amounts, so the chart has something to show.
            const months = Array.from({ length: 12 }, (_, index) => new Date(Date.UTC(2025, 3 + index, 10)).toISOString().slice(0, 10));
            await ports.invoices.save(client.id, 'issued', months.flatMap((fecha, index) => [
                invoice({ fecha, numeroDesde: String(index * 2 + 1).padStart(8, '0'), numeroHasta: String(index * 2 + 1).padStart(8, '0'),
                    importeOriginal: 150_000 + index * 25_000, importe: 150_000 + index * 25_000, counterpart: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: 'Ferretería El Tornillo SRL' } }),
                invoice({ fecha, numeroDesde: String(index * 2 + 2).padStart(8, '0'), numeroHasta: String(index * 2 + 2).padStart(8, '0'),
                    importeOriginal: 48_500.5, importe: 48_500.5, counterpart: { tipoDocumento: '99', numeroDocumento: '0', nombre: null } })
            ]), now);
            await ports.invoices.save(client.id, 'received', months.map((fecha, index) => invoice({
                fecha, tipo: '1', numeroDesde: String(index + 1).padStart(8, '0'), numeroHasta: String(index + 1).padStart(8, '0'),
                importeOriginal: 90_000 + (index % 4) * 12_000, importe: 90_000 + (index % 4) * 12_000,
                counterpart: { tipoDocumento: '80', numeroDocumento: '30500010912', nombre: 'Mayorista Norte SA' }
            })), now);
            await ports.sct.replace(client.id, sctData(), now);
            await ports.ccma.replace(client.id, { saldoDeudor: null, saldoAcreedor: 1500.75 }, [
                movement({ orden: 1, periodo: '02/2026', fechaMovimiento: '2026-02-20T00:00:00.000Z' }),
                movement({ orden: 2, periodo: '02/2026', descripcion: 'Pago', debe: null, haber: 25000, saldo: 0, fechaMovimiento: '2026-02-25T00:00:00.000Z' })
            ], now);
            await ports.notifications.save(client.id, [
                notification({ arcaId: '2001', asunto: 'Intimación por falta de presentación de DDJJ', fechaRecepcion: '2026-03-14T13:00:00.000Z', organismo: 'ARCA' }),
                notification({ arcaId: '2000', asunto: 'Novedades del Monotributo', fechaRecepcion: '2026-02-01T13:00:00.000Z', leidaAt: '2026-02-01T13:00:00.000Z' })
            ], now);
            mkdirSync(internals.artifacts, { recursive: true });
        });

        after(async () => {

            await browser?.close();
            await server?.stop();
        });

        it('opens a client from la cartera, downloads the period, reads each tab and marks a notification read', async () => {

            // es-AR, as the accountants' browsers are: the date fields read dd/mm/aaaa.
            const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, locale: 'es-AR' });
            const problems = pageProblems(page, server.url);

            await page.goto(`${server.url}/panel/ingresar`);
            await page.getByLabel(panelTexts.email).fill(email);
            await page.getByLabel(panelTexts.password).fill(internals.password);
            await page.getByLabel(panelTexts.password).press('Enter');
            await page.getByRole('heading', { name: panelTexts.portfolioTitle }).waitFor();

            await page.getByRole('link', { name: 'González, María' }).click();
            await page.getByRole('heading', { name: /González, María/ }).waitFor();
            expect(new URL(page.url()).pathname).to.equal('/panel/clientes/20-12345678-6');
            const main = await page.textContent('main') ?? '';
            expect(main).to.contain(clientTexts.periodOf('01/03/2026', '31/03/2026')).and.contain('$ 473.500,50').and.contain('$ 425.000,00').and.contain('10/03/2026');
            expect(main).to.contain(clientTexts.finalConsumer);
            // The chart: 12 months, two bars each, sized by the stylesheet.
            expect(await page.locator('svg.chart rect.bar-issued').count()).to.equal(12);
            expect(await page.locator('svg.chart rect.bar-received').count()).to.equal(12);
            expect((await page.locator('svg.chart').boundingBox())!.width).to.be.greaterThan(500);
            expect(await page.evaluate('getComputedStyle(document.querySelector("svg.chart rect.bar-issued")).fill')).to.equal('rgb(26, 86, 176)');
            await shot(page, 'comprobantes');

            const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: clientTexts.downloadCsv }).click()]);
            expect(csv.suggestedFilename()).to.equal('comprobantes-20123456786-2026-03-01-a-2026-03-31.csv');
            const text = readFileSync((await csv.path())!).toString('utf8');
            expect(text.charCodeAt(0)).to.equal(0xfeff);
            const lines = text.slice(1).trim().split('\r\n');
            expect(lines).to.have.length(4);
            expect(lines.filter((line) => line.startsWith(`${clientTexts.issued};10/03/2026;`))).to.have.length(2);
            expect(lines.some((line) => line.includes('Ferretería El Tornillo SRL') && line.endsWith(';425000'))).to.equal(true);

            const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: clientTexts.downloadXlsx }).click()]);
            expect(xlsx.suggestedFilename()).to.equal('comprobantes-20123456786-2026-03-01-a-2026-03-31.xlsx');
            const workbook = new ExcelJS.Workbook();
            await workbook.xlsx.readFile((await xlsx.path())!);
            const issued = workbook.getWorksheet(clientTexts.issued)!;
            expect(issued.rowCount).to.equal(3);
            expect(issued.getRow(2).getCell(1).value).to.be.instanceOf(Date);
            expect(typeof issued.getRow(2).getCell(16).value).to.equal('number');
            expect(workbook.getWorksheet(clientTexts.received)!.getRow(2).getCell(16).value).to.equal(126000);

            // Another month from the chart, as a keyboard or a click reaches it.
            await page.locator('svg.chart a').nth(10).locator('rect.bar-issued').click();
            await page.getByText(clientTexts.periodOf('01/02/2026', '28/02/2026')).waitFor();

            await page.getByRole('link', { name: clientTexts.tabs.sct }).click();
            await page.getByText(`${clientTexts.totalDebt}: $ 16.133,25`).waitFor();
            await shot(page, 'cuenta-tributaria');
            await page.getByRole('link', { name: clientTexts.tabs.ccma, exact: true }).click();
            await page.getByText(clientTexts.notReported).waitFor();
            await shot(page, 'ccma');
            await page.getByRole('link', { name: clientTexts.tabs.estado }).click();
            await page.getByRole('heading', { name: clientTexts.systemsHeading }).waitFor();
            await shot(page, 'estado');

            await page.getByRole('link', { name: clientTexts.tabs.notificaciones }).click();
            const unread = page.locator('tr.unread');
            expect(await unread.count()).to.equal(1);
            expect(await unread.textContent()).to.contain('Intimación por falta de presentación de DDJJ');
            await shot(page, 'notificaciones');
            await page.getByRole('link', { name: 'Intimación por falta de presentación de DDJJ' }).click();
            await page.getByRole('button', { name: clientTexts.markRead }).click();
            await page.getByText(clientTexts.markedRead).waitFor();
            await shot(page, 'notificacion');
            const dfe = await server.ok('/v1/cuits/20-12345678-6/dfe', user.token);
            expect(dfe.data.find((item: { arcaId: string }) => item.arcaId === '2001').leidaAt).to.equal(server.clock.now().toISOString());
            // MCP's listar_dfe reads through the same use case, and says the same.
            const mcp = new Client({ name: 'prueba', version: '1.0.0' });
            await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${user.token}` } } }));
            const listed = await mcp.callTool({ name: 'listar_dfe', arguments: { cuit: '20123456786' } });
            await mcp.close();
            const data = (listed.structuredContent as { data: { arcaId: string; leidaAt: string | null }[] }).data;
            expect(data.find((item) => item.arcaId === '2001')!.leidaAt).to.equal(server.clock.now().toISOString());

            await page.getByRole('link', { name: clientTexts.backToInbox }).click();
            expect(await page.locator('tr.unread').count()).to.equal(0);

            await page.setViewportSize({ width: 390, height: 844 });
            await page.getByRole('link', { name: clientTexts.tabs.comprobantes }).click();
            await shot(page, 'telefono');
            expect(problems).to.deep.equal([]);
            await page.close();
        });
    });
}
