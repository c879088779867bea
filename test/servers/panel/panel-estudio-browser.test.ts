import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { createToken } from '../../../core/use-cases/staff/create-token.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { estudioTexts } from '../../../servers/panel/estudio-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { grant, mcpStatus, register } from '../../support/oauth.js';
import { debianChromium, pageProblems, skipWithoutChromium } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// The estudio's pages in Debian's Chromium: a token generated, copied with the button (the
// service's own script under the CSP), its curl line run by curl itself, and revoked (401); a
// tag created and assigned to la cartera's selection; an MCP assistant's connection revoked
// (its access token refused at /mcp). Screenshots go to test-artifacts/.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba',

    // The page's curl line run by curl (its arguments as a shell would split them: no quote
    // inside): the HTTP status it got.
    curl: (line: string): Promise<number> => new Promise((resolve, reject) => {

        const args = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!).slice(1);
        execFile('curl', ['--silent', '--output', '/dev/null', '--write-out', '%{http_code}', ...args], (err, stdout) => (err ? reject(err) : resolve(Number(stdout))));
    })
};

for (const database of testDatabases()) {

    describe(`the estudio's panel pages in a browser (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let browser: Browser;
        let email: string;
        let user: number;

        before(async function () {

            skipWithoutChromium(this);
            server = await startTestServer(database, { env: writeServerEnv });
            const ports = server.app.ports;
            const owner = await seedAccount(ports);
            await setPassword(ports, { userId: owner.userId, password: internals.password });
            email = (await ports.users.findById(owner.userId))!.email;
            user = owner.userId;
            await addClient(ports, owner.accountId, { cuit: '20123456786', apellido: 'González', nombre: 'María' });
            await addClient(ports, owner.accountId, { cuit: '27000000408', apellido: 'Zapata', nombre: 'Zoe' });
            browser = await chromium.launch({ executablePath: debianChromium.path, args: debianChromium.args });
            mkdirSync(internals.artifacts, { recursive: true });
        });

        after(async () => {

            await browser?.close();
            await server?.stop();
        });

        it('generates a token, copies it, uses it like its curl line, revokes it; creates a tag and assigns it in bulk', async () => {

            const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
            await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
            const page = await context.newPage();
            const problems = pageProblems(page, server.url);

            await page.goto(`${server.url}/panel/ingresar`);
            await page.getByLabel(panelTexts.email).fill(email);
            await page.getByLabel(panelTexts.password).fill(internals.password);
            await page.getByLabel(panelTexts.password).press('Enter');
            await page.waitForURL((url) => url.pathname === '/panel');

            await page.getByRole('link', { name: panelTexts.navTokens }).click();
            await page.getByLabel(estudioTexts.tokenName).fill('Planilla de Marta');
            await page.getByRole('button', { name: estudioTexts.createToken }).click();
            await page.getByRole('heading', { name: estudioTexts.tokenCreated }).waitFor();
            const token = await page.getByLabel(estudioTexts.yourToken).inputValue();
            const curl = await page.getByLabel(estudioTexts.curlLine).inputValue();
            expect(curl).to.equal(`curl -H "Authorization: Bearer ${token}" ${server.url}/v1/cuits`);

            // The copy button shows only with the script, and copies the token.
            await page.locator('button[data-copy="token-valor"]').click();
            await page.getByText(panelTexts.copied).waitFor();
            expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(token);
            await page.screenshot({ path: join(internals.artifacts, `panel-tokens-${database.name}.png`), fullPage: true });

            // The curl line, as the user would paste it.
            expect(await internals.curl(curl)).to.equal(200);

            await page.goto(`${server.url}/panel/tokens`);
            expect(await page.content()).to.not.contain(token);
            await page.getByRole('link', { name: 'Revocar Planilla de Marta' }).click();
            await page.getByRole('button', { name: estudioTexts.confirmRevoke }).click();
            await page.getByText(estudioTexts.tokenRevoked).waitFor();
            expect(await internals.curl(curl)).to.equal(401);

            await page.getByRole('link', { name: panelTexts.navTags }).click();
            await page.getByLabel(estudioTexts.tagName).first().fill('Mensual');
            await page.getByRole('button', { name: estudioTexts.createTag }).click();
            await page.getByText(estudioTexts.tagCreated).waitFor();
            await page.screenshot({ path: join(internals.artifacts, `panel-etiquetas-${database.name}.png`), fullPage: true });

            await page.getByRole('link', { name: panelTexts.portfolioTitle }).click();
            await page.getByLabel(`${panelTexts.select} González, María`).check();
            await page.getByLabel(`${panelTexts.select} Zapata, Zoe`).check();
            await page.getByRole('combobox', { name: panelTexts.selectionTags }).selectOption('Mensual');
            await page.getByRole('button', { name: panelTexts.assignTag }).click();
            await page.waitForURL((next) => next.pathname === '/panel');
            expect(await page.locator('main table').first().textContent()).to.contain('Mensual');
            await page.screenshot({ path: join(internals.artifacts, `panel-seleccion-${database.name}.png`), fullPage: true });

            // REST lists it, for a token made as the CLI makes them.
            const { token: rest } = await createToken(server.app.ports, { userId: user, name: 'rest' });
            expect((await server.ok('/v1/cuits?etiquetas=Mensual', rest)).data).to.have.length(2);
            expect(problems).to.deep.equal([]);
            await context.close();
        });

        it("revokes an assistant's connection, and the assistant's token is refused at once", async () => {

            const clientId = await register(server, { client_name: 'Asistente de Marta' });
            const tokens = await grant(server, clientId, email);
            expect((await mcpStatus(server, tokens.access_token)).status).to.equal(200);

            const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
            const page = await context.newPage();
            const problems = pageProblems(page, server.url);
            await page.goto(`${server.url}/panel/ingresar`);
            await page.getByLabel(panelTexts.email).fill(email);
            await page.getByLabel(panelTexts.password).fill(internals.password);
            await page.getByLabel(panelTexts.password).press('Enter');
            await page.waitForURL((url) => url.pathname === '/panel');

            await page.getByRole('link', { name: panelTexts.navConnections }).click();
            await page.getByRole('heading', { name: estudioTexts.connectionsTitle }).waitFor();
            await page.screenshot({ path: join(internals.artifacts, `panel-conexiones-${database.name}.png`), fullPage: true });
            await page.getByRole('link', { name: `${estudioTexts.revoke} Asistente de Marta` }).click();
            await page.getByRole('button', { name: estudioTexts.confirmRevoke }).click();
            await page.getByText(estudioTexts.connectionRevoked).waitFor();
            expect(await page.content()).to.not.contain('Asistente de Marta');

            expect((await mcpStatus(server, tokens.access_token)).status).to.equal(401);
            expect(problems).to.deep.equal([]);
            await context.close();
        });
    });
}
