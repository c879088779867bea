import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import mysql from 'mysql2';
import type { CliResult } from '../support/cli.js';
import { runBuiltCli, runCliBatch } from '../support/cli.js';
import { closedPort } from '../support/databases.js';

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
        'user set-password --user 1 --password una-clave-larga', 'user revoke-oauth --user 1', 'user connections --user 1',
        'token create --user 1', 'token list', 'token revoke 1',
        'tag create --account 1 --name a --color #336699', 'tag assign --account 1 --cuit 20123456786 --name a',
        'sync --all', 'sync worker', 'sync status', 'resync 20123456786',
        'webhook create --account 1 --url https://erp.example.com/x', 'webhook list', 'webhook disable 1', 'webhook rotate-secret 1',
        'webhook test 1', 'webhook deliveries', 'secret rotate', 'secret status', 'authority probe --cuit 20123456786'
    ].map((line) => line.split(' ')),
    // The first two, for the other cases (the path is the same for every command).
    someCommands: [['migrate'], ['account', 'show', '1']],

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

        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, ARCASYNC_SECRET_KEY: internals.key, ARCASYNC_TOKEN: 'asy_cualquiera' };
        delete env.TEST_MYSQL_URL;
        delete env.LOG_LEVEL;
        return env;
    },

    // A case's command lines: each command, and the first two under --json too (the same path
    // for every command).
    lines: (commands: string[][]): string[][] => [...commands, ...commands.slice(0, 2).map((argv) => [...argv, '--json'])],

    // One line per command, and its --json twin the same error.
    expectOneLine(commands: string[][], target: Target, results: CliResult[]): void {

        commands.forEach((argv, index) => internals.expectOneCommand(argv, results[index]!, target.cause, target.shown, results[commands.length + index]));
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

// Where the cases' databases are, once the set-up has made them.
interface Places {
    dir: string;
    unopenable: string;                 // a folder where the SQLite file should be
    foreign: string;                    // a SQLite file with another application's table
    oldPort: number;                    // the fake MariaDB 10.5
    closedPort: number;
    foreignDatabase: string;            // a MySQL database with another application's table
}

// A database that cannot be used and the line every command must say about it.
interface Target {
    url: string;
    cause: RegExp;
    shown: string;
}

interface Case {
    title: string;
    commands: string[][];
    target(places: Places): Target;
}

const mysqlUrl = process.env.TEST_MYSQL_URL;
const mysqlAt = (change: (url: URL) => void): string => {

    const url = new URL(mysqlUrl!);
    change(url);
    return url.toString();
};

const unopenable = (places: Places): Target => ({ url: `sqlite:${places.unopenable}`, cause: /no se puede abrir el archivo/, shown: places.unopenable });

const cases: Case[] = [
    { title: 'SQLite: every command that opens the database says so in the same line', commands: internals.commands, target: unopenable },
    {
        title: 'SQLite: a file holding another application\'s tables',
        commands: internals.someCommands,
        target: (places) => ({
            url: `sqlite:${places.foreign}`,
            cause: /ya tiene una tabla 'accounts' que no creó arcasync \(usá una base de datos vacía, o la de arcasync\)\.$/,
            shown: places.foreign
        })
    },
    {
        title: 'a MySQL server older than supported (MariaDB 10.5): which server it is and what arcasync requires',
        commands: [...internals.someCommands, ['sync', 'status']],
        target: (places) => ({
            url: `mysql://arcasync:secreta-de-prueba@127.0.0.1:${places.oldPort}/arcasync`,
            cause: /el servidor de base de datos es MariaDB 10\.5\.23.*: arcasync requiere MySQL 8\.0\.4 o posterior, o MariaDB 10\.6 o posterior\.$/,
            shown: `mysql://arcasync@127.0.0.1:${places.oldPort}/arcasync`
        })
    },
    ...(mysqlUrl ? [
        {
            title: 'MySQL: connection refused (a closed port)',
            target: (places: Places) => ({
                url: mysqlAt((url) => (url.port = String(places.closedPort))),
                cause: new RegExp(`rechazó la conexión en 127\\.0\\.0\\.1:${places.closedPort}`),
                shown: `:${places.closedPort}`
            })
        },
        {
            title: 'MySQL: unknown database',
            target: () => ({ url: mysqlAt((url) => (url.pathname = '/arcasync_no_existe')), cause: /no existe la base de datos 'arcasync_no_existe'/, shown: 'arcasync_no_existe' })
        },
        {
            title: 'MySQL: access denied, without showing the password',
            target: () => ({
                url: mysqlAt((url) => {

                    url.username = 'nadie';
                    url.password = 'secreta-de-prueba';
                }),
                cause: /rechazó el usuario 'nadie'/,
                shown: 'nadie@'
            })
        },
        {
            title: 'MySQL: a database holding another application\'s tables',
            target: (places: Places) => ({
                url: mysqlAt((url) => (url.pathname = `/${places.foreignDatabase}`)),
                cause: /ya tiene una tabla 'accounts' que no creó arcasync/,
                shown: places.foreignDatabase
            })
        },
        {
            title: 'MySQL: unknown host',
            target: () => ({ url: mysqlAt((url) => (url.hostname = 'no-existe.invalid')), cause: /no se encontró el servidor no-existe\.invalid/, shown: 'no-existe.invalid' })
        }
    ].map((mysqlCase) => ({ ...mysqlCase, commands: internals.someCommands })) : [])
];

describe('CLI commands on a database that cannot be used', function () {

    this.timeout(120_000);
    let places: Places;
    let old: { port: number; close(): Promise<void> };
    const results = new Map<Case, CliResult[]>();

    // Every case's commands in one process of its own (runCliBatch), one after the other: the
    // process's own stderr must stay empty beside the commands' lines.
    before(async () => {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-cantopen-'));
        old = await internals.oldServer('10.5.23-MariaDB-1:10.5.23+maria~deb11');
        places = {
            dir,
            unopenable: join(dir, 'base.sqlite'),
            foreign: join(dir, 'otra.sqlite'),
            oldPort: old.port,
            closedPort: await closedPort(),
            foreignDatabase: `arcasync_otra_${process.pid}`
        };
        mkdirSync(places.unopenable);
        const other = knexFactory({ client: 'better-sqlite3', connection: { filename: places.foreign }, useNullAsDefault: true });
        await other.raw('create table accounts (numero integer)');
        await other.destroy();
        if (mysqlUrl) {
            const admin = knexFactory({ client: 'mysql2', connection: mysqlUrl });
            try {
                await admin.raw(`create database if not exists ${places.foreignDatabase}`);
                await admin.raw(`create table ${places.foreignDatabase}.accounts (numero int)`);
            }
            finally {
                await admin.destroy();
            }
        }

        const lines = cases.flatMap((each) => internals.lines(each.commands).map((argv) => ({ argv, env: internals.env(each.target(places).url) })));
        const batch = await runCliBatch(lines, { env: internals.env('sqlite::memory:') });
        expect(batch.stderr, 'stderr del proceso, aparte de cada comando').to.equal('');
        let next = 0;
        for (const each of cases) {
            const count = internals.lines(each.commands).length;
            results.set(each, batch.results.slice(next, next + count));
            next += count;
        }
    });

    after(async () => {

        rmSync(places.dir, { recursive: true, force: true });
        await old.close();
        if (mysqlUrl) {
            const admin = knexFactory({ client: 'mysql2', connection: mysqlUrl });
            await admin.raw(`drop database if exists ${places.foreignDatabase}`);
            await admin.destroy();
        }
    });

    it('SQLite: a file that cannot be opened, through the built binary, a process per command line', async () => {

        const target = unopenable(places);
        const ran = await Promise.all(internals.lines(internals.someCommands).map((argv) => runBuiltCli(argv, { env: internals.env(target.url) })));
        internals.expectOneLine(internals.someCommands, target, ran);
    });

    // Each case's own test, on what the batch answered for it.
    for (const each of cases) {
        it(each.title, () => internals.expectOneLine(each.commands, each.target(places), results.get(each)!));
    }
});
