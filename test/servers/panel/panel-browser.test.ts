import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { syncSystems } from '../../../core/domain/sync-system.js';
import { messages } from '../../../core/domain/messages.js';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { databaseOf } from '../../support/app.js';
import { debianChromium, pageProblems, skipWithoutChromium } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser, tagClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// The panel as a person uses it, in Debian's Chromium: signs in with the keyboard-reachable
// form, sees the portfolio with its semáforo and the "Otros" group, styled by the service's own
// stylesheet under its Content-Security-Policy (nothing refused, nothing fetched elsewhere), on a
// desktop and on a phone's width, and signs out. Screenshots go to test-artifacts/.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba'
};

for (const database of testDatabases()) {

    describe(`the panel in a browser (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let browser: Browser;
        let email: string;
        let member: SeededUser;
        let paused: SeededUser;

        const emailOf = async (user: SeededUser): Promise<string> => (await server.app.ports.users.findById(user.userId))!.email;

        const signIn = async (page: Page, address: string): Promise<void> => {

            await page.goto(`${server.url}/panel/ingresar`);
            await page.getByLabel(panelTexts.email).fill(address);
            await page.getByLabel(panelTexts.password).fill(internals.password);
            await page.getByLabel(panelTexts.password).press('Enter');
            await page.waitForURL((url) => url.pathname !== '/panel/ingresar');
        };

        before(async function () {

            skipWithoutChromium(this);
            server = await startTestServer(database, { env: writeServerEnv });
            const ports = server.app.ports;
            const user = await seedAccount(ports);
            await setPassword(ports, { userId: user.userId, password: internals.password });
            email = (await ports.users.findById(user.userId))!.email;
            const now = server.clock.now().getTime();
            const fine = await addClient(ports, user.accountId, { cuit: '20123456786', apellido: 'González', nombre: 'María', claveArca: 'clave-1' });
            await databaseOf(server.app)('sync_states').insert(syncSystems.map((system) => ({
                client_id: fine.id, system, synced_at: now, last_attempt_at: now, last_error: null, failing_since: null
            })));
            await ports.registry.save(fine.id, { monotributista: true, autonomo: false, categoria: 'D' }, now);
            await tagClient(ports, user.accountId, '20123456786', 'Mensual');
            await addClient(ports, user.accountId, { cuit: '27000000408', apellido: 'Zapata', nombre: 'Zoe' });
            member = await seedUser(ports, user.accountId, 'member');
            await setPassword(ports, { userId: member.userId, password: internals.password });
            await assignClientToUser(ports, { userId: member.userId, cuit: '27000000408' });
            paused = await seedAccount(ports, { subscription: 'paused' });
            await setPassword(ports, { userId: paused.userId, password: internals.password });
            await addClient(ports, paused.accountId, { cuit: '20000000604', apellido: 'Pausado', nombre: 'Pedro' });
            browser = await chromium.launch({ executablePath: debianChromium.path, args: debianChromium.args });
        });

        after(async () => {

            await browser?.close();
            await server?.stop();
        });

        it('signs in, sees the semáforo and "Otros", and signs out', async () => {

            const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
            const problems = pageProblems(page, server.url);

            await page.goto(`${server.url}/panel`);
            expect(new URL(page.url()).pathname).to.equal('/panel/ingresar');
            await page.getByRole('heading', { name: panelTexts.signInHeading }).waitFor();

            // The first Tab reaches the skip link; the form is filled through its labels.
            await page.keyboard.press('Tab');
            expect(await page.locator(':focus').textContent()).to.equal(panelTexts.skipToContent);
            await page.getByLabel(panelTexts.email).fill(email);
            await page.getByLabel(panelTexts.password).fill(internals.password);
            await page.getByLabel(panelTexts.password).press('Enter');

            await page.getByRole('heading', { name: panelTexts.portfolioTitle }).waitFor();
            expect(new URL(page.url()).pathname).to.equal('/panel');
            const main = await page.textContent('main') ?? '';
            expect(main).to.contain(panelTexts.counts(2, 1));
            expect(main).to.contain('González, María').and.contain('20-12345678-6').and.contain('Mensual');
            expect(main).to.contain(panelTexts.semaphore.ok).and.contain(panelTexts.semaphore.attention);
            await page.getByRole('heading', { name: new RegExp(`^${panelTexts.others}`) }).waitFor();
            const others = page.locator('section', { has: page.getByRole('heading', { name: new RegExp(`^${panelTexts.others}`) }) });
            expect(await others.textContent()).to.contain('Zapata, Zoe');

            // The stylesheet applied: the page's background is the panel's, not the browser's white.
            expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).to.equal('rgb(244, 246, 248)');
            mkdirSync(internals.artifacts, { recursive: true });
            await page.screenshot({ path: join(internals.artifacts, `panel-cartera-${database.name}.png`), fullPage: true });
            await page.setViewportSize({ width: 390, height: 844 });
            await page.screenshot({ path: join(internals.artifacts, `panel-cartera-telefono-${database.name}.png`), fullPage: true });

            await page.getByRole('button', { name: panelTexts.signOutButton }).click();
            await page.getByText(panelTexts.signedOut).waitFor();
            await page.goto(`${server.url}/panel`);
            expect(new URL(page.url()).pathname).to.equal('/panel/ingresar');
            expect(problems).to.deep.equal([]);
            await page.close();
        });

        it('searches the portfolio from the keyboard, and shows the account page', async () => {

            const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
            await signIn(page, email);
            await page.getByLabel(panelTexts.search).fill('gonzalez');
            await page.getByLabel(panelTexts.search).press('Enter');
            await page.waitForURL((url) => url.searchParams.get('q') === 'gonzalez');
            const main = await page.textContent('main') ?? '';
            expect(main).to.contain('González, María').and.contain(panelTexts.counts(1, 0));
            expect(main).to.not.contain('Zapata');

            await page.getByRole('link', { name: panelTexts.accountTitle }).click();
            await page.getByRole('heading', { name: panelTexts.changePassword }).waitFor();
            expect(await page.getByLabel(panelTexts.currentPassword).getAttribute('autocomplete')).to.equal('current-password');
            mkdirSync(internals.artifacts, { recursive: true });
            await page.screenshot({ path: join(internals.artifacts, `panel-cuenta-${database.name}.png`), fullPage: true });
            await page.close();
        });

        it('shows a member only the CUITs assigned to them', async () => {

            const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
            await signIn(page, await emailOf(member));
            await page.getByRole('heading', { name: panelTexts.portfolioTitle }).waitFor();
            const main = await page.textContent('main') ?? '';
            expect(main).to.contain('Zapata, Zoe').and.contain(panelTexts.counts(1, 1));
            expect(main).to.not.contain('González');
            await page.close();
        });

        it('sends a paused account to the subscription page while REST answers 403', async () => {

            const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
            await signIn(page, await emailOf(paused));
            expect(new URL(page.url()).pathname).to.equal('/panel/suscripcion');
            const main = await page.textContent('main') ?? '';
            const words = panelTexts.subscription.paused;
            expect(main).to.contain(words.label).and.contain(words.todo).and.contain(panelTexts.billedCuits(1));
            expect(main).to.not.contain('Pausado');
            await page.goto(`${server.url}/panel`);
            expect(new URL(page.url()).pathname).to.equal('/panel/suscripcion');
            mkdirSync(internals.artifacts, { recursive: true });
            await page.screenshot({ path: join(internals.artifacts, `panel-suscripcion-${database.name}.png`), fullPage: true });

            const rest = await fetch(`${server.url}/v1/cuits`, { headers: { authorization: `Bearer ${paused.token}` } });
            expect(rest.status).to.equal(403);
            expect((await rest.json() as { error: string }).error).to.equal(messages.subscriptionPaused);
            await page.close();
        });
    });
}
