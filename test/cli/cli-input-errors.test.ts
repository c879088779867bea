import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { cliMessages } from '../../cli/messages.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { closedPort, testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import { startReceiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// Issue 37, item 9 (the CLI's part): every input error in Spanish, naming the input, one line,
// no English and no stack; `webhook test` fails when the receiver did not answer 2xx, and says
// so in a clean sentence.

const internals = {
    secretKey: randomBytes(32).toString('base64'),

    oneLine(result: CliResult, what: string): string {

        expect(result.code, what).to.equal(1);
        expect(result.stdout, what).to.equal('');
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines, `${what}: ${result.stderr}`).to.have.length(1);
        expect(lines[0], what).to.not.match(/should be|Invalid|options|TypeError|at /);
        return lines[0]!;
    }
};

for (const database of testDatabases()) {

    describe(`CLI: input errors in Spanish (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;
        let cli: (env: Record<string, string>, ...args: string[]) => Promise<CliResult>;

        before(async () => {

            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            cli = (env, ...args) => runCli(server.app.config.databaseUrl, args, { ARCASYNC_SECRET_KEY: internals.secretKey, ...env });
        });

        after(async () => {

            await server?.stop();
        });

        it('refuses serve and demo --port values no socket can take, naming --port', async () => {

            for (const args of [
                ['serve', '--port', '99999'],
                ['serve', '--port', 'abc'],
                ['serve', '--port', '-1'],
                ['serve', '--port', '80.5'],
                ['demo', '--port', '65536']
            ]) {
                expect(internals.oneLine(await cli({}, ...args), args.join(' '))).to.equal(`Error: ${cliMessages.invalidPort}`);
            }
        });

        it('refuses PORT, METRICS_PORT and LOG_LEVEL values it cannot use, listing the valid levels', async () => {

            expect(internals.oneLine(await cli({ LOG_LEVEL: 'loud' }, 'account', 'list'), 'LOG_LEVEL=loud')).to.equal(
                'Error: LOG_LEVEL debe ser uno de: silent, fatal, error, warn, info, debug, trace'
            );
            expect(internals.oneLine(await cli({ LOG_LEVEL: 'loud' }, 'serve', '--port', '0'), 'serve with LOG_LEVEL=loud')).to.include('LOG_LEVEL debe ser uno de');
            expect(internals.oneLine(await cli({ PORT: '99999' }, 'serve'), 'PORT=99999')).to.equal('Error: PORT debe ser un número de puerto entre 1 y 65535');
            expect(internals.oneLine(await cli({ METRICS_PORT: '70000' }, 'account', 'list'), 'METRICS_PORT=70000')).to.equal(
                'Error: METRICS_PORT debe ser un número de puerto entre 1 y 65535'
            );

            const quiet = await cli({ LOG_LEVEL: 'silent' }, 'account', 'list', '--json');
            expect(quiet.code, quiet.stderr).to.equal(0);
        });

        it('webhook test exits non-zero when the receiver did not answer 2xx, with a clean Spanish sentence', async () => {

            const { accountId } = await seedAccount(server.app.ports);
            const env = { WEBHOOK_ALLOW_HTTP_LOOPBACK: '1' };
            const receiver = await startReceiver((call) => ({ status: call.path === '/ok' ? 204 : 500 }));
            const port = await closedPort();
            try {
                const create = async (url: string): Promise<number> => {

                    const created = await cli(env, 'webhook', 'create', '--account', String(accountId), '--url', url, '--json');
                    expect(created.code, created.stderr).to.equal(0);
                    return JSON.parse(created.stdout).id as number;
                };

                const [ok, failing, refused] = [await create(`${receiver.url}/ok`), await create(`${receiver.url}/falla`), await create(`http://127.0.0.1:${port}/nadie`)];

                const delivered = await cli(env, 'webhook', 'test', String(ok));
                expect(delivered.code, delivered.stderr).to.equal(0);
                expect(delivered.stdout).to.match(new RegExp(`^Evento de prueba evt_\\w+ al webhook ${ok}: entregado \\(respondió 204\\)\\.\\n$`));

                const answered500 = internals.oneLine(await cli(env, 'webhook', 'test', String(failing)), 'receiver answered 500');
                expect(answered500).to.match(new RegExp(`^Error: Evento de prueba evt_\\w+ al webhook ${failing}: no entregado\\. El receptor respondió 500\\. Los trabajadores lo reintentan\\.$`));

                const noAnswer = internals.oneLine(await cli(env, 'webhook', 'test', String(refused)), 'nobody listening');
                expect(noAnswer).to.match(new RegExp(`^Error: Evento de prueba evt_\\w+ al webhook ${refused}: no entregado\\. No se pudo conectar con el receptor \\(ECONNREFUSED\\)\\. Los trabajadores lo reintentan\\.$`));
                expect(noAnswer).to.not.include(').;');

                // --json: the delivery's state on stdout for scripts, the failure on stderr.
                const json = await cli(env, 'webhook', 'test', String(failing), '--json');
                expect(json.code).to.equal(1);
                expect(JSON.parse(json.stdout)).to.deep.include({ id: failing, status: 'pending', httpStatus: 500, error: 'El receptor respondió 500.' });
                expect(JSON.parse(json.stderr).error).to.match(/no entregado\. El receptor respondió 500\./);
            }
            finally {
                await receiver.close();
            }
        });
    });
}
