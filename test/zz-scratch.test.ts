import { randomBytes } from 'node:crypto';
import { startSimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { seedDemo } from '../app/demo.js';
import { runCli } from './support/cli.js';
import { testDatabases } from './support/databases.js';
import { startTestServer } from './support/server.js';

describe('scratch', function () {
    this.timeout(120_000);
    it('reproduces', async () => {
        const key = randomBytes(32).toString('base64');
        const server = await startTestServer(testDatabases()[0]!, { env: { ARCASYNC_SECRET_KEY: key } });
        await seedDemo(server.app.ports);
        const authority = await startSimulatedAuthority({ port: 0, failures: { serverError: 1 } });
        const env = { ARCASYNC_SECRET_KEY: key, AUTHORITY: 'simulated', AUTHORITY_URL: authority.url };
        const r = await runCli(server.app.config.databaseUrl, ['sync', '--all'], env);
        console.log(r);
        const j = await runCli(server.app.config.databaseUrl, ['sync', '--all', '--json'], env);
        console.log(j);
        console.log((await runCli(server.app.config.databaseUrl, ['sync', 'status', '--cuit', '20123456786'], env)).stdout);
        await authority.stop(); await server.stop();
    });
});
