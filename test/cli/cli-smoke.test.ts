import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { cliEnv, runBuiltCli } from '../support/cli.js';
import type { TestDatabase } from '../support/databases.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';

// The built binary (dist/cli/main.js, what `npm run build` leaves and `npm run arcasync` runs), one real
// process per command family: the contract itself is tested in-process (cli-*.test.ts,
// sync-cli.test.ts); this checks that the binary wires each family to it. `serve`, `demo`,
// `sync worker` and `authority simulate` run as processes in their own suites.

const internals = {
    secretKey: randomBytes(32).toString('base64'),

    json(result: { code: number | null; stdout: string; stderr: string }): any {

        expect(result.code, result.stderr).to.equal(0);
        return JSON.parse(result.stdout);
    }
};

describe('arcasync binary (dist/)', function () {

    this.timeout(120_000);
    const database: TestDatabase = testDatabases()[0]!;

    it('runs the staff, sync, secret and openapi families against a database', async () => {

        const server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
        const authority = await startSimulatedAuthority({ port: 0 });
        try {
            const env = cliEnv(server.app.config.databaseUrl, {
                ARCASYNC_SECRET_KEY: internals.secretKey,
                AUTHORITY: 'simulated',
                AUTHORITY_URL: authority.url
            });
            const { id } = internals.json(await runBuiltCli(['account', 'create', '--name', 'Estudio Binario', '--json'], { env }));
            expect(internals.json(await runBuiltCli(['account', 'show', String(id), '--json'], { env }))).to.include({ id, name: 'Estudio Binario' });

            await seedAccount(server.app.ports);
            expect(internals.json(await runBuiltCli(['sync', 'status', '--json'], { env })).summary).to.include({ clients: 0 });
            expect(internals.json(await runBuiltCli(['secret', 'status', '--json'], { env })).keys).to.deep.equal([]);

            const openapi = await runBuiltCli(['openapi'], { env });
            expect(internals.json(openapi).openapi).to.match(/^3\.1/);

            const usage = await runBuiltCli(['account', 'create'], { env });
            expect(usage.code).to.equal(1);
            expect(usage.stderr.trimEnd().split('\n')).to.have.length(1);
        }
        finally {
            await authority.stop();
            await server.stop();
        }
    });
});
