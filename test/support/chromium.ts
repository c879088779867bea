import { existsSync } from 'node:fs';

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
