// `npm test`: every test file, each in one of four worker processes at a time (mocha's
// parallel mode), with .mocharc.json's options. Most files spend their time waiting (on child
// processes, on the simulated authority's pacing, on MariaDB), so more workers than the
// machine has cores pay. Workers take the files in this
// order: the longest first (on SQLite and MariaDB), so that no long file
// starts last and keeps the run waiting for it; then the rest by name. `npm test -- --jobs N`
// overrides the number.
const { readdirSync } = require('node:fs');
const base = require('./.mocharc.json');

const internals = {
    longest: [
        'sync-fleet', 'sync-workers', 'fuzz', 'sync-pacing', 'oauth-security', 'sync-cli', 'http-rate-limits', 'mcp-inspector', 'sync-demo',
        'oauth-accounts', 'migrations-down-up', 'portfolio-health', 'authority-secrets', 'sqlite-lock', 'cli-database-failures', 'oauth-browser',
        'cuit-health', 'sync-faults', 'authority-simulated', 'demo-safety', 'sync-e2e', 'oauth-flow'
    ],
    all: readdirSync(`${__dirname}/test`, { recursive: true }).filter((name) => name.endsWith('.test.ts')).map((name) => `test/${name}`).sort()
};

// The longest files by name, wherever their room's folder keeps them.
internals.longestFiles = internals.longest.map((name) => internals.all.find((file) => file.endsWith(`/${name}.test.ts`))).filter(Boolean);

module.exports = {
    ...base,
    parallel: true,
    jobs: 4,
    spec: [...internals.longestFiles, ...internals.all.filter((file) => !internals.longestFiles.includes(file))]
};
