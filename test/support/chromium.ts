import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
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
