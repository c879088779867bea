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
        'sync-workers', 'sync-pacing', 'cli-database-failures', 'authority-secrets', 'sync-fleet', 'cli-demo', 'mcp-inspector',
        'oauth-security', 'sync-cli', 'fuzz', 'sync-e2e', 'authority-simulated', 'migrations-down-up', 'sync-faults', 'sync-demo',
        'sqlite-lock', 'http-rate-limits', 'oauth-browser'
    ].map((name) => `test/${name}.test.ts`),
    all: readdirSync(`${__dirname}/test`, { recursive: true }).filter((name) => name.endsWith('.test.ts')).map((name) => `test/${name}`).sort()
};

module.exports = {
    ...base,
    parallel: true,
    jobs: 4,
    spec: [...internals.longest.filter((file) => internals.all.includes(file)), ...internals.all.filter((file) => !internals.longest.includes(file))]
};
