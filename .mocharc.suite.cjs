// `npm test`: every test file, each in one of four worker processes at a time (mocha's
// parallel mode), with .mocharc.json's options. Most files spend their time waiting (on child
// processes, on the simulated authority's pacing, on MariaDB), so more workers than the
// machine has cores pay. Workers take the files in this order: the longest first (on SQLite
// and MariaDB, as the run's summary "Archivos más lentos" names them), so that no long file
// starts last and keeps the run waiting for it; then the rest by name. `npm test -- --jobs N`
// overrides the number.
const { readdirSync } = require('node:fs');
const base = require('./.mocharc.json');

const internals = {
    longest: [
        'oauth-security', 'sync-fleet', 'http-rate-limits', 'fuzz', 'panel-http', 'delete-during-sync', 'tenants', 'sync-cli',
        'migrate-rollback', 'portfolio-health', 'sync-workers', 'deep-pages', 'mcp-inspector', 'sync-pacing-fleet', 'cli-demo',
        'portfolio-states', 'migrations-down-up', 'cli-connections', 'panel-browser', 'sync-demo', 'demo-safety', 'cuit-health',
        'panel-client', 'panel-estudio-browser'
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
