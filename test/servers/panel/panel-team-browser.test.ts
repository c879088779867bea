import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { messages } from '../../../core/domain/messages.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { teamTexts } from '../../../servers/panel/team-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { debianChromium, pageProblems, skipWithoutChromium } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// The team page in Debian's Chromium: an owner invites a member, copies the link with the
// button and assigns them one CUIT; the link, opened in a fresh browser context (the invited
// person's own browser, no session), sets the password and signs them in; they see only the
// assigned CUIT, then and after signing in again. Screenshots go to test-artifacts/.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba',
    memberPassword: 'la clave de la nueva integrante',

    // The sign-in form from the keyboard, as far as la cartera.
    async signIn(page: Page, url: string, email: string, password: string): Promise<void> {

        if (new URL(page.url()).pathname !== '/panel/ingresar') {
            await page.goto(`${url}/panel/ingresar`);
        }

        await page.getByLabel(panelTexts.email).fill(email);
        await page.getByLabel(panelTexts.password).fill(password);
        await page.getByLabel(panelTexts.password).press('Enter');
        await page.waitForURL((next) => next.pathname === '/panel');
    }
};

for (const database of testDatabases()) {

    describe(`the team page in a browser (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let browser: Browser;
        let email: string;

        before(async function () {

            skipWithoutChromium(this);
            mkdirSync(internals.artifacts, { recursive: true });
            [server, browser] = await Promise.all([
                startTestServer(database, { env: writeServerEnv }),
                chromium.launch({ executablePath: debianChromium.path, args: debianChromium.args })
            ]);
            const owner = await seedAccount(server.app.ports);
            await setPassword(server.app.ports, { userId: owner.userId, password: internals.password });
            email = (await server.app.ports.users.findById(owner.userId))!.email;
            for (const [cuit, apellido, nombre] of [['20123456786', 'González', 'María'], ['27000000408', 'Zapata', 'Zoe']] as const) {
                await addClient(server.app.ports, owner.accountId, { cuit, apellido, nombre });
            }
        });

        after(async () => {

            await browser?.close();
            await server?.stop();
        });

        it('an owner invites a member; the link sets their password in a fresh browser; they see only the assigned CUITs', async () => {

            const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
            await ownerContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
            const page = await ownerContext.newPage();
            const problems = pageProblems(page, server.url);

            await internals.signIn(page, server.url, email, internals.password);

            await page.getByRole('link', { name: panelTexts.navTeam }).click();
            await page.getByLabel(teamTexts.email).fill('lucia@example.com');
            await page.getByLabel(teamTexts.role).selectOption('member');
            await page.getByRole('button', { name: teamTexts.invite }).click();
            await page.getByRole('heading', { name: teamTexts.invited('lucia@example.com') }).waitFor();
            const link = await page.getByLabel(teamTexts.link).inputValue();
            expect(link).to.match(new RegExp(`^${server.url}/panel/invitacion/[A-Za-z0-9_-]{43}$`));
            await page.locator('button[data-copy="enlace-valor"]').click();
            await page.getByText(panelTexts.copied).waitFor();
            expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(link);
            await page.screenshot({ path: join(internals.artifacts, `panel-equipo-${database.name}.png`), fullPage: true });

            await page.getByRole('link', { name: teamTexts.manageLabel('lucia@example.com') }).click();
            await page.getByLabel('González, María 20123456786').check();
            await page.getByRole('button', { name: teamTexts.assignChecked }).click();
            await page.getByText(teamTexts.assignmentsSaved).waitFor();
            await page.screenshot({ path: join(internals.artifacts, `panel-equipo-usuario-${database.name}.png`), fullPage: true });
            expect(problems).to.deep.equal([]);

            // The invited person's own browser: no session, no cookie of the owner's.
            const fresh = await browser.newContext({ viewport: { width: 390, height: 844 } });
            const invited = await fresh.newPage();
            const invitedProblems = pageProblems(invited, server.url);
            await invited.goto(link);
            expect(await invited.getByLabel(teamTexts.email, { exact: true }).inputValue()).to.equal('lucia@example.com');
            await invited.getByLabel(teamTexts.password, { exact: true }).fill(internals.memberPassword);
            await invited.getByLabel(teamTexts.repeated, { exact: true }).fill(internals.memberPassword);
            await invited.screenshot({ path: join(internals.artifacts, `panel-equipo-enlace-${database.name}.png`), fullPage: true });
            await invited.getByRole('button', { name: teamTexts.setPassword }).click();
            await invited.waitForURL((url) => url.pathname === '/panel');
            const portfolio = await invited.locator('main').textContent();
            expect(portfolio).to.contain('González, María').and.not.contain('Zapata, Zoe');

            // Signed out and in again with the password the link set: still only hers.
            await invited.getByRole('button', { name: panelTexts.signOutButton }).click();
            await invited.waitForURL((url) => url.pathname === '/panel/ingresar');
            await internals.signIn(invited, server.url, 'lucia@example.com', internals.memberPassword);
            expect(await invited.locator('main').textContent()).to.contain('González, María').and.not.contain('Zapata, Zoe');

            // The link is spent.
            await invited.goto(link);
            expect(await invited.locator('main').textContent()).to.contain(messages.team.invitationUnusable);
            expect(invitedProblems.filter((problem) => !/404/.test(problem))).to.deep.equal([]);
            await fresh.close();
            await ownerContext.close();
        });
    });
}
