import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { importTexts } from '../../../servers/panel/import-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import type { PanelJourney } from '../../support/chromium.js';
import { pageProblems, panelSignIn, skipWithoutChromium, startPanelJourney } from '../../support/chromium.js';
import { cuitSequence } from '../../support/client-bodies.js';
import { fiftyRowsWithThreeBad } from '../../support/import-files.js';
import { testDatabases } from '../../support/databases.js';

// Importar clientes in Debian's Chromium: from la cartera's link, the template downloaded, a
// CSV of 50 clients with 3 bad rows chosen in the file field, the preview listing exactly those
// rows (and no key), the confirmation importing the other 47, which REST lists. Screenshots go
// to test-artifacts/.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba',
    nextCuit: cuitSequence(70_000_000)
};

for (const database of testDatabases()) {

    describe(`the client import in a browser (${database.name})`, function () {

        this.timeout(90_000);

        let journey: PanelJourney;

        before(async function () {

            skipWithoutChromium(this);
            journey = await startPanelJourney(database, internals.password);
            mkdirSync(internals.artifacts, { recursive: true });
        });

        after(async () => {

            await journey?.browser.close();
            await journey?.server.stop();
        });

        it('uploads a CSV of 50 clients with 3 bad rows, previews exactly those, and imports the other 47', async () => {

            const { server, browser, owner, email } = journey;
            const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
            const page = await context.newPage();
            const problems = pageProblems(page, server.url);

            await panelSignIn(page, server.url, email, internals.password);

            await page.getByRole('link', { name: panelTexts.importClients }).click();
            await page.getByRole('heading', { name: importTexts.title, level: 1 }).waitFor();
            const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: importTexts.csvTemplate }).click()]);
            expect(download.suggestedFilename()).to.equal('plantilla-clientes.csv');

            const { csv, good } = fiftyRowsWithThreeBad(internals.nextCuit, (cuit) => `Clave-Navegador-${cuit}`);
            await page.getByLabel(importTexts.file, { exact: true }).setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
            await page.getByRole('button', { name: importTexts.upload }).click();
            await page.getByRole('heading', { name: importTexts.previewTitle }).waitFor();
            expect(await page.locator('#resumen-importacion').textContent()).to.equal(importTexts.summary(47, 3));
            expect(await page.locator('#filas-con-errores tbody th').allTextContents()).to.deep.equal(['11', '21', '41']);
            expect(await page.content()).to.not.contain('Clave-Navegador-');
            await page.screenshot({ path: join(internals.artifacts, `panel-importar-revision-${database.name}.png`), fullPage: true });

            // Nothing stored before the confirmation.
            expect((await server.ok('/v1/cuits', owner.token)).pagination.total).to.equal(0);

            await page.getByRole('button', { name: importTexts.confirm(47) }).click();
            await page.getByRole('heading', { name: importTexts.doneTitle }).waitFor();
            expect(await page.locator('#resultado-importacion').textContent()).to.equal(importTexts.imported(47));
            expect(await page.locator('#filas-con-errores tbody th').allTextContents()).to.deep.equal(['11', '21', '41']);
            await page.screenshot({ path: join(internals.artifacts, `panel-importar-resultado-${database.name}.png`), fullPage: true });

            const listed = await server.ok('/v1/cuits?limit=100', owner.token);
            expect(listed.data.map((client: { cuit: string }) => client.cuit)).to.have.members(good);

            await page.getByRole('link', { name: importTexts.toPortfolio }).click();
            await page.waitForURL((url) => url.pathname === '/panel');
            expect(await page.locator('#resumen').textContent()).to.contain('47 CUITs');
            expect(problems).to.deep.equal([]);
            await context.close();
        });
    });
}
