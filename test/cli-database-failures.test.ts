import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runBuiltCli } from './support/cli.js';
import { closedPort } from './support/databases.js';

// A database that cannot be used reaches the operator as one Spanish line naming the database
// (never its password) and the cause, whatever the command; one JSON object under --json;
// nothing else on stderr (no driver stack, no knex console line).

const internals = {
    key: Buffer.alloc(32, 3).toString('base64'),

    env(url: string): NodeJS.ProcessEnv {

        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, ARCASYNC_SECRET_KEY: internals.key };
        delete env.TEST_MYSQL_URL;
        delete env.LOG_LEVEL;
        return env;
    },

    async expectOneLine(url: string, cause: RegExp, shown: string): Promise<void> {

        for (const argv of [['migrate'], ['account', 'show', '1']]) {
            const human = await runBuiltCli(argv, { env: internals.env(url) });
            expect(human.code, argv.join(' ')).to.equal(1);
            expect(human.stdout, argv.join(' ')).to.equal('');
            const lines = human.stderr.trimEnd().split('\n');
            expect(lines, `${argv.join(' ')}: ${human.stderr}`).to.have.length(1);
            expect(lines[0]).to.match(/^Error: No se puede usar la base de datos /).and.include(shown).and.match(cause);
            expect(lines[0]!.slice('Error: '.length)).to.not.match(/secreta-de-prueba|Error:|    at /);

            const json = await runBuiltCli([...argv, '--json'], { env: internals.env(url) });
            expect(json.code).to.equal(1);
            expect(json.stderr.trimEnd().split('\n')).to.have.length(1);
            expect(JSON.parse(json.stderr).error).to.equal(lines[0]!.slice('Error: '.length));
        }
    }
};

describe('CLI commands on a database that cannot be used', function () {

    this.timeout(120_000);

    it('SQLite: a file that cannot be opened', async () => {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-cantopen-'));
        try {
            mkdirSync(join(dir, 'base.sqlite'));
            await internals.expectOneLine(`sqlite:${join(dir, 'base.sqlite')}`, /no se puede abrir el archivo/, join(dir, 'base.sqlite'));
        }
        finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    if (process.env.TEST_MYSQL_URL) {

        const server = new URL(process.env.TEST_MYSQL_URL);
        const at = (change: (url: URL) => void): string => {

            const url = new URL(server);
            change(url);
            return url.toString();
        };

        it('MySQL: connection refused (a closed port)', async () => {

            const port = await closedPort();
            await internals.expectOneLine(at((url) => (url.port = String(port))), new RegExp(`rechazó la conexión en 127\\.0\\.0\\.1:${port}`), `:${port}`);
        });

        it('MySQL: unknown database', async () => {

            await internals.expectOneLine(
                at((url) => (url.pathname = '/arcasync_no_existe')),
                /no existe la base de datos 'arcasync_no_existe'/,
                'arcasync_no_existe'
            );
        });

        it('MySQL: access denied, without showing the password', async () => {

            await internals.expectOneLine(at((url) => {

                url.username = 'nadie';
                url.password = 'secreta-de-prueba';
            }), /rechazó el usuario 'nadie'/, 'nadie@');
        });

        it('MySQL: unknown host', async () => {

            await internals.expectOneLine(
                at((url) => (url.hostname = 'no-existe.invalid')),
                /no se encontró el servidor no-existe\.invalid/,
                'no-existe.invalid'
            );
        });
    }
});
