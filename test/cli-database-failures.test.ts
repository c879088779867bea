import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import mysql from 'mysql2';
import type { CliResult } from './support/cli.js';
import { runBuiltCli, runCliBatch } from './support/cli.js';
import { closedPort } from './support/databases.js';

// A database that cannot be used reaches the operator as one Spanish line naming the database
// (never its password) and the cause, whatever the command; one JSON object under --json;
// nothing else on stderr (no driver stack, no knex console line).

interface FakeConnection {
    stream: NodeJS.EventEmitter;
    sequenceId: number;
    serverHandshake(args: object): void;
    on(event: string, listener: (...args: never[]) => void): void;
    writeTextResult(rows: object[], columns: object[]): void;
    writeOk(): void;
}

const internals = {
    key: Buffer.alloc(32, 3).toString('base64'),

    // Every command that opens the database, as an operator would type it.
    commands: [
        'migrate', 'serve', 'demo', 'mcp',
        'account create --name X', 'account update 1 --writing', 'account show 1', 'account list',
        'user list', 'user create --account 1 --email ana@estudio.com', 'user assign --user 1 --cuit 20123456786',
        'user set-password --user 1 --password una-clave-larga', 'user revoke-oauth --user 1',
        'token create --user 1', 'token list', 'token revoke 1',
        'tag create --account 1 --name a --color #336699', 'tag assign --account 1 --cuit 20123456786 --name a',
        'sync --all', 'sync worker', 'sync status', 'resync 20123456786',
        'webhook create --account 1 --url https://erp.example.com/x', 'webhook list', 'webhook disable 1', 'webhook rotate-secret 1',
        'webhook test 1', 'webhook deliveries', 'secret rotate', 'secret status', 'authority probe --cuit 20123456786'
    ].map((line) => line.split(' ')),

    // A server that speaks MySQL's protocol as MariaDB 10.5 does (older than arcasync supports):
    // any login is accepted, SELECT VERSION() answered, anything else an empty OK.
    async oldServer(version: string): Promise<{ port: number; close(): Promise<void> }> {

        const server = mysql.createServer((raw) => {

            const conn = raw as unknown as FakeConnection;
            let ready = false;
            // Each command the client sends starts its packets' numbering again.
            conn.stream.prependListener('data', () => {

                if (ready) {
                    conn.sequenceId = 0;
                }
            });
            conn.serverHandshake({
                protocolVersion: 10,
                serverVersion: version,
                connectionId: 1,
                statusFlags: 2,
                characterSet: 45,
                capabilityFlags: 0xffffff,
                authCallback: (_params: unknown, done: (err: null) => void) => {

                    ready = true;
                    done(null);
                }
            });
            conn.on('query', (sql: string) => {

                if (/version\(\)/i.test(sql)) {
                    const column = { catalog: 'def', schema: '', table: '', orgTable: '', name: 'version', orgName: '', characterSet: 45, columnLength: 60, columnType: 253, flags: 0, decimals: 31 };
                    conn.writeTextResult([{ version }], [column]);
                }
                else {
                    conn.writeOk();
                }
            });
            conn.on('error', () => undefined);
        });
        const net = (server as unknown as { _server: import('node:net').Server })._server;
        await new Promise<void>((resolve) => net.listen(0, '127.0.0.1', resolve));
        return {
            port: (net.address() as AddressInfo).port,
            close: () => new Promise<void>((resolve) => net.close(() => resolve()))
        };
    },

    env(url: string): NodeJS.ProcessEnv {

        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, ARCASYNC_SECRET_KEY: internals.key };
        delete env.TEST_MYSQL_URL;
        delete env.LOG_LEVEL;
        return env;
    },

    // Each command, and the first two under --json too (the same path for every command), in
    // one process of their own (runCliBatch): one line per command, and nothing on the
    // process's own stderr beside the commands' lines. `viaBinary`: through the built binary
    // instead, a process per command line, as an operator runs it.
    async expectOneLine(url: string, cause: RegExp, shown: string, commands: string[][] = [['migrate'], ['account', 'show', '1']], viaBinary = false): Promise<void> {

        const env = { ...internals.env(url), ARCASYNC_TOKEN: 'asy_cualquiera' };
        const lines = [...commands, ...commands.slice(0, 2).map((argv) => [...argv, '--json'])];
        const results = viaBinary
            ? await Promise.all(lines.map((argv) => runBuiltCli(argv, { env })))
            : await (async () => {

                const batch = await runCliBatch(lines, { env });
                expect(batch.stderr, 'stderr del proceso, aparte de cada comando').to.equal('');
                return batch.results;
            })();

        commands.forEach((argv, index) => internals.expectOneCommand(argv, results[index]!, cause, shown, results[commands.length + index]));
    },

    expectOneCommand(argv: string[], human: CliResult, cause: RegExp, shown: string, json?: CliResult): void {

        expect(human.code, `${argv.join(' ')}: ${human.stderr}`).to.equal(1);
        expect(human.stdout, argv.join(' ')).to.equal('');
        const lines = human.stderr.trimEnd().split('\n');
        expect(lines, `${argv.join(' ')}: ${human.stderr}`).to.have.length(1);
        expect(lines[0]).to.match(/^Error: No se puede usar la base de datos /).and.include(shown).and.match(cause);
        expect(lines[0]!.slice('Error: '.length)).to.not.match(/secreta-de-prueba|Error:|    at /);

        if (!json) {
            return;
        }

        expect(json.code, argv.join(' ')).to.equal(1);
        expect(json.stderr.trimEnd().split('\n'), `${argv.join(' ')}: ${json.stderr}`).to.have.length(1);
        expect(JSON.parse(json.stderr).error).to.equal(lines[0]!.slice('Error: '.length));
    }
};

describe('CLI commands on a database that cannot be used', function () {

    this.timeout(120_000);

    it('SQLite: a file that cannot be opened', async () => {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-cantopen-'));
        try {
            mkdirSync(join(dir, 'base.sqlite'));
            await internals.expectOneLine(`sqlite:${join(dir, 'base.sqlite')}`, /no se puede abrir el archivo/, join(dir, 'base.sqlite'), undefined, true);
        }
        finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it('SQLite: every command that opens the database says so in the same line', async () => {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-cantopen-'));
        try {
            mkdirSync(join(dir, 'base.sqlite'));
            await internals.expectOneLine(`sqlite:${join(dir, 'base.sqlite')}`, /no se puede abrir el archivo/, join(dir, 'base.sqlite'), internals.commands);
        }
        finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it('SQLite: a file holding another application\'s tables', async () => {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-foreign-'));
        try {
            const file = join(dir, 'otra.sqlite');
            const other = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
            await other.raw('create table accounts (numero integer)');
            await other.destroy();
            await internals.expectOneLine(`sqlite:${file}`, /ya tiene una tabla 'accounts' que no creó arcasync \(usá una base de datos vacía, o la de arcasync\)\.$/, file);
        }
        finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it('a MySQL server older than supported (MariaDB 10.5): which server it is and what arcasync requires', async () => {

        const server = await internals.oldServer('10.5.23-MariaDB-1:10.5.23+maria~deb11');
        try {
            await internals.expectOneLine(
                `mysql://arcasync:secreta-de-prueba@127.0.0.1:${server.port}/arcasync`,
                /el servidor de base de datos es MariaDB 10\.5\.23.*: arcasync requiere MySQL 8\.0\.4 o posterior, o MariaDB 10\.6 o posterior\.$/,
                `mysql://arcasync@127.0.0.1:${server.port}/arcasync`,
                [['migrate'], ['account', 'show', '1'], ['sync', 'status']]
            );
        }
        finally {
            await server.close();
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

        it('MySQL: a database holding another application\'s tables', async () => {

            const name = `arcasync_otra_${process.pid}`;
            const admin = knexFactory({ client: 'mysql2', connection: process.env.TEST_MYSQL_URL });
            try {
                await admin.raw(`create database if not exists ${name}`);
                await admin.raw(`create table ${name}.accounts (numero int)`);
                await internals.expectOneLine(at((url) => (url.pathname = `/${name}`)), /ya tiene una tabla 'accounts' que no creó arcasync/, name);
            }
            finally {
                await admin.raw(`drop database if exists ${name}`);
                await admin.destroy();
            }
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
