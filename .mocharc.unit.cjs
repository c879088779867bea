// `npm run test:unit`: the inner loop. The in-process suites: core's rules and use cases (on
// the in-memory ports or one SQLite file), the scraper's parsers on recorded pages (nock), the
// contract and the module boundaries; no browser, no child process, no MariaDB. Seconds, not
// minutes; `npm test` stays the whole suite (docs/development.md).
const base = require('./.mocharc.json');

module.exports = {
    ...base,
    parallel: true,
    jobs: 2,
    spec: [
        'test/core/**/*.test.ts',
        'test/adapters/secret-box.test.ts',
        'test/adapters/read-cache-memory.test.ts',
        'test/adapters/authority/arca-html.test.ts',
        'test/adapters/authority/authority-http.test.ts',
        'test/adapters/authority/authority-arca.test.ts',
        'test/cli/commands.test.ts',
        'test/repository/boundaries.test.ts'
    ]
};
