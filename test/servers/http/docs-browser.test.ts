import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { debianChromium, skipWithoutChromium } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

// GET /docs as a person sees it: the reference page renders in headless Chromium from the
// document the server publishes, with every endpoint group, and a screenshot is kept.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    groups: ['Salud', 'CUIT', 'Comprobantes', 'Cuentas', 'Notificaciones', 'Etiquetas', 'Estado']
};

const [database] = testDatabases();

describe('GET /docs in a browser', function () {

    this.timeout(60_000);
    let server: TestServer;
    let browser: Browser;

    before(async function () {

        skipWithoutChromium(this);
        server = await startTestServer(database!);
        // Playwright gives the browser a new empty profile of its own.
        browser = await chromium.launch({ executablePath: debianChromium.path, args: debianChromium.args });
    });

    after(async () => {

        await browser?.close();
        await server?.stop();
    });

    it('renders every endpoint group and operation from /openapi.json, without a CDN', async () => {

        const page = await browser.newPage({ viewport: { width: 1280, height: 2200 } });
        const external: string[] = [];
        page.on('request', (request) => {

            if (!request.url().startsWith(server.url)) {
                external.push(request.url());
            }
        });

        await page.goto(`${server.url}/docs`);
        await page.waitForSelector('.opblock-tag-section', { timeout: 20_000 });
        const groups = await page.$$eval('.opblock-tag', (nodes) => nodes.map((node) => node.getAttribute('data-tag')));
        expect(groups).to.deep.equal(internals.groups);

        const operations = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((node) => node.getAttribute('data-path')));
        for (const path of [
            '/healthcheck',
            '/v1/cuits',
            '/v1/cuits/{cuit}',
            '/v1/cuits/{cuit}/mis-comprobantes/emitidos',
            '/v1/cuits/{cuit}/sct',
            '/v1/cuits/{cuit}/ccma/movimientos',
            '/v1/cuits/{cuit}/dfe',
            '/v1/tags'
        ]) {
            expect(operations, path).to.include(path);
        }

        expect(await page.title()).to.equal('arcasync API: referencia');
        expect(external, 'requests outside the server').to.deep.equal([]);

        mkdirSync(internals.artifacts, { recursive: true });
        const shot = join(internals.artifacts, 'docs.png');
        await page.screenshot({ path: shot, fullPage: true });
        expect(statSync(shot).size).to.be.greaterThan(10_000);
    });
});
