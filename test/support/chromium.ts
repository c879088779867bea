import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { setPassword } from '../../core/use-cases/staff/set-password.js';
import type { TestDatabase } from './databases.js';
import type { SeededUser } from './fixtures.js';
import { seedAccount } from './fixtures.js';
import type { TestServer } from './server.js';
import { startTestServer, writeServerEnv } from './server.js';
import { panelTexts } from '../../servers/panel/texts.js';

// Debian's Chromium (.ci/run installs it), as the browser suites launch it through playwright-core:
// headless, in a container without a sandbox, and quiet (no updates, sync or first-run pages).
export const debianChromium = {
    path: '/usr/bin/chromium',
    args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
    ]
};

// .ci/run installs Debian's chromium; on a machine without it the browser suites skip
// themselves, saying why, instead of failing.
export const skipWithoutChromium = (context: Mocha.Context): void => {

    if (!existsSync(debianChromium.path)) {
        process.stdout.write(`  ${debianChromium.path} no está instalado: se omite la prueba en el navegador.\n`);
        context.skip();
    }
};

// What a page should never do under the panel's CSP: log an error (a refused script, style or
// image is reported there), get an error answer, or ask anything of another site. The list
// fills as the page runs; a journey ends expecting it empty.
export const pageProblems = (page: Page, serviceUrl: string): string[] => {

    const problems: string[] = [];
    page.on('console', (message) => {

        if (message.type() === 'error') {
            problems.push(message.text());
        }
    });
    page.on('response', (response) => {

        if (response.status() >= 400) {
            problems.push(`${response.status()} ${response.url()}`);
        }
    });
    page.on('request', (request) => {

        if (!request.url().startsWith(serviceUrl)) {
            problems.push(`fuera del servicio: ${request.url()}`);
        }
    });
    return problems;
};

// Signs in on the panel's page the way a person does, and waits for la cartera.
export const panelSignIn = async (page: Page, serviceUrl: string, email: string, password: string): Promise<void> => {

    await page.goto(`${serviceUrl}/panel/ingresar`);
    await page.getByLabel(panelTexts.email).fill(email);
    await page.getByLabel(panelTexts.password).fill(password);
    await page.getByLabel(panelTexts.password).press('Enter');
    await page.waitForURL((url) => url.pathname === '/panel');
};

// What a panel journey starts from: a server that seals keys on a fresh database, an owner who
// signs in with `password` (an account without API writing: the panel needs none), Chromium.
export interface PanelJourney {
    server: TestServer;
    browser: Browser;
    owner: SeededUser;
    email: string;
}

export const startPanelJourney = async (database: TestDatabase, password: string): Promise<PanelJourney> => {

    const server = await startTestServer(database, { env: writeServerEnv });
    const owner = await seedAccount(server.app.ports);
    await setPassword(server.app.ports, { userId: owner.userId, password });
    const email = (await server.app.ports.users.findById(owner.userId))!.email;
    const browser = await chromium.launch({ executablePath: debianChromium.path, args: debianChromium.args });
    return { server, browser, owner, email };
};
