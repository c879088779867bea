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
