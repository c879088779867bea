import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { answerTexts } from '../../../servers/panel/answer-texts.js';
import { clientTexts } from '../../../servers/panel/client-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { pageProblems, skipWithoutChromium, startPanelJourney } from '../../support/chromium.js';
import { invoice } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';

// The panel's answers as a person uses them, in Debian's Chromium under the panel's CSP: la
// cartera's cap column, the Agenda page from the main navigation (each item opening its
// client), and a monotributista's Monotributo tab with its gauge and chart drawn by the
// stylesheet. Screenshots go to test-artifacts/.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba'
};

for (const database of testDatabases()) {

    describe(`the panel's answers in a browser (${database.name})`, function () {

        this.timeout(90_000);

        let server: TestServer;
        let browser: Browser;
        let user: SeededUser;
        let email: string;

        const shot = async (page: Page, name: string) => page.screenshot({ path: join(internals.artifacts, `panel-respuestas-${name}-${database.name}.png`), fullPage: true });

        before(async function () {

            skipWithoutChromium(this);
            ({ server, browser, owner: user, email } = await startPanelJourney(database, internals.password));
            const ports = server.app.ports;
            const now = server.clock.now().getTime();
            const client = await addClient(ports, user.accountId, { cuit: '20123456786', apellido: 'González', nombre: 'María' });
            await ports.registry.save(client.id, { monotributista: true, autonomo: false, categoria: 'D' }, now);
            // A year of billing rising month by month, near D's cap.
            const months = Array.from({ length: 13 }, (_, index) => new Date(Date.UTC(2025, 2 + index, 10)).toISOString().slice(0, 10));
            await ports.invoices.save(client.id, 'issued', months.map((fecha, index) => invoice({
                fecha, tipo: '11', numeroDesde: String(index + 1), numeroHasta: String(index + 1), iva: 0,
                importeOriginal: 1_500_000 + index * 120_000, importe: 1_500_000 + index * 120_000
            })), now);
            await ports.invoices.save(client.id, 'received', months.map((fecha, index) => invoice({
                fecha, tipo: '1', numeroDesde: String(index + 1), numeroHasta: String(index + 1), importeOriginal: 400_000, importe: 400_000
            })), now);
            const other = await addClient(ports, user.accountId, { cuit: '27000000408', apellido: 'Zapata', nombre: 'Zoe' });
            await ports.registry.save(other.id, { monotributista: true, autonomo: false, categoria: 'A' }, now);
            mkdirSync(internals.artifacts, { recursive: true });
        });

        after(async () => {

            await browser?.close();
            await server?.stop();
        });

        it('shows the cap in la cartera, opens the agenda, and a monotributista\'s tab with its gauge', async () => {

            const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'es-AR' });
            const problems = pageProblems(page, server.url);

            await page.goto(`${server.url}/panel/ingresar`);
            await page.getByLabel(panelTexts.email).fill(email);
            await page.getByLabel(panelTexts.password).fill(internals.password);
            await page.getByLabel(panelTexts.password).press('Enter');
            await page.getByRole('heading', { name: panelTexts.portfolioTitle }).waitFor();
            const api = await server.ok('/v1/cuits/20123456786/monotributo', user.token);
            const row = page.getByRole('row', { name: /González, María/ });
            expect(await row.textContent()).to.match(new RegExp(String(Math.round(api.data.usoTope * 1000) / 10).replace('.', ',')));
            expect(await row.locator('svg.cap-meter rect').count()).to.equal(2);
            await shot(page, 'cartera');

            await page.getByRole('navigation', { name: panelTexts.mainNav }).getByRole('link', { name: answerTexts.agendaTitle }).click();
            await page.getByRole('heading', { name: answerTexts.agendaTitle, level: 1 }).waitFor();
            const days = await page.locator('section.agenda-day h2').allTextContents();
            expect(days.length).to.be.greaterThan(0);
            const asDates = days.map((day) => day.split('/').reverse().join('-'));
            expect(asDates).to.deep.equal([...asDates].sort());
            await shot(page, 'agenda');

            // A range too long: the API's message, in Spanish, on the page.
            await page.getByLabel(answerTexts.from).fill('2026-01-01');
            await page.getByLabel(answerTexts.to).fill('2027-12-31');
            await page.getByRole('button', { name: answerTexts.show }).click();
            await page.getByRole('alert').waitFor();
            expect(await page.getByRole('alert').textContent()).to.contain('no puede superar 366 días');

            await page.goBack();
            await page.locator('ul.agenda a', { hasText: 'González, María' }).first().click();
            await page.getByRole('heading', { name: /González, María/ }).waitFor();
            await page.getByRole('link', { name: clientTexts.tabs.monotributo }).click();
            await page.getByRole('heading', { name: answerTexts.gaugeTitle }).waitFor();
            expect(new URL(page.url()).pathname).to.equal('/panel/clientes/20-12345678-6/monotributo');
            const gauge = page.locator('svg.gauge');
            expect((await gauge.boundingBox())!.width).to.be.greaterThan(500);
            expect(await gauge.locator('g.meter').count()).to.equal(2);
            const level = api.data.usoTope > 1 ? 'over' : api.data.usoTope >= 0.8 ? 'near' : 'ok';
            expect(await page.evaluate(`getComputedStyle(document.querySelector("svg.gauge rect.cap-${level}")).fill`)).to.match(/^rgb\(/);
            expect(await page.locator('svg.chart rect.bar-issued').count()).to.equal(12);
            expect(await page.textContent('main')).to.contain(answerTexts.nextRecategorization).and.contain(answerTexts.categoryImplied);
            await shot(page, 'monotributo');

            // Only the refused range's 400, which the page answered on purpose.
            expect(problems.filter((problem) => !problem.includes('hasta=2027-12-31') && !problem.includes('status of 400'))).to.deep.equal([]);
            await page.close();
        });
    });
}
