import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { createAccount } from '../../core/use-cases/staff/create-account.js';
import { createToken } from '../../core/use-cases/staff/create-token.js';
import { createUser } from '../../core/use-cases/staff/create-user.js';
import { revokeToken } from '../../core/use-cases/staff/revoke-token.js';
import type { CliResult } from '../support/cli.js';
import { builtCli } from '../support/build.js';
import { cliEnv, runCli, runInProcess } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import { cliMessages } from '../../cli/messages.js';

// The command line as staff meet it: Spanish help and usage errors, --version, the lists that
// give the ids other commands take (never a token), errors as JSON under --json, and the
// one-line answers to a busy port and to a reader that stops early.

const internals = {
    english: /display help|Usage:|Options:|Commands:|required option|unknown command|unknown option|missing required|too many|Did you mean|default:/,

    json(result: CliResult): any {

        expect(result.code, result.stderr).to.equal(0);
        expect(result.stderr).to.equal('');
        return JSON.parse(result.stdout);
    },

    busyPort: async (): Promise<{ server: Server; port: number }> => {

        const server = createServer();
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return { server, port: (server.address() as AddressInfo).port };
    }
};

describe('CLI usage', function () {

    this.timeout(60_000);

    it('helps and fails in Spanish, one line per usage error', async () => {

        const help = await runInProcess(['--help']);
        expect(help.code).to.equal(0);
        expect(help.stdout).to.include('Uso: arcasync [opciones] [comando]');
        expect(help.stdout).to.include('muestra la ayuda del comando');
        expect(help.stdout).to.include('Comandos:');
        expect(help.stdout).to.not.match(internals.english);

        const sub = await runInProcess(['account', 'create', '--help']);
        expect(sub.stdout).to.include('Uso: arcasync account create [opciones]');
        expect(sub.stdout).to.match(/\(por omisión:\s+"active"\)/);
        expect(sub.stdout).to.not.match(internals.english);

        for (const [argv, line] of [
            [['account', 'create'], "Error: Falta la opción obligatoria '--name <name>'."],
            [['account', 'borrar', '1'], "Error: Comando desconocido 'borrar'."],
            [['account', 'show'], "Error: Falta el argumento obligatorio 'id'."],
            [['account', 'show', '1', '--nada'], "Error: Opción desconocida '--nada'."],
            [['account', 'show', '1', '2'], 'Error: Demasiados argumentos: se esperaba 1 y llegaron 2.'],
            [['user', 'create', '--account'], "Error: La opción '--account <id>' necesita un valor."],
            [['acount', 'list'], "Error: Comando desconocido 'acount' (¿quisiste decir account?)."]
        ] as const) {
            const result = await runInProcess([...argv]);
            expect(result.code, argv.join(' ')).to.equal(1);
            expect(result.stdout, argv.join(' ')).to.equal('');
            expect(result.stderr, argv.join(' ')).to.equal(`${line}\n`);
        }
    });

    it('help COMMAND SUBCOMMAND shows the subcommand\'s help, as --help does', async () => {

        for (const argv of [['account', 'create'], ['sync', 'worker'], ['user', 'set-password'], ['sync']]) {
            const help = await runInProcess(['help', ...argv]);
            const flag = await runInProcess([...argv, '--help']);
            expect(help.code, argv.join(' ')).to.equal(0);
            expect(help.stdout, argv.join(' ')).to.include(`Uso: arcasync ${argv.join(' ')} [opciones]`);
            expect(help.stdout, argv.join(' ')).to.equal(flag.stdout);
        }

        expect((await runInProcess(['help', 'user', 'set-password'])).stdout).to.include('al menos 10 caracteres');
        expect((await runInProcess(['help'])).stdout).to.include('help [comando...]');
        for (const [argv, line] of [
            [['help', 'account', 'borrar'], "Error: Comando desconocido 'borrar'."],
            [['help', 'acount', 'list'], "Error: Comando desconocido 'acount' (¿quisiste decir account?)."]
        ] as const) {
            const result = await runInProcess([...argv]);
            expect(result, argv.join(' ')).to.deep.equal({ code: 1, stdout: '', stderr: `${line}\n` });
        }
    });

    it('prints its version', async () => {

        const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
        for (const flag of ['--version', '-V']) {
            const result = await runInProcess([flag]);
            expect(result).to.deep.equal({ code: 0, stdout: `${version}\n`, stderr: '' });
        }
    });

    it('answers a busy port with one line saying what to do', async () => {

        const { server, port } = await internals.busyPort();
        try {
            const result = await runInProcess(['authority', 'simulate', '--port', String(port)]);
            expect(result.code).to.equal(1);
            expect(result.stderr).to.equal(`Error: ${cliMessages.addressInUse('127.0.0.1', String(port))}\n`);
        }
        finally {
            server.close();
        }
    });

    it('stops quietly when its reader does (arcasync openapi | head -1)', async () => {

        const { stdout, stderr } = await promisify(execFile)('sh', ['-c', `"${process.execPath}" "${builtCli()}" openapi | head -1; echo "exit:\${PIPESTATUS:-0}"`], { env: cliEnv('sqlite::memory:') });
        expect(stdout.split('\n')[0]).to.equal('{');
        expect(stderr).to.equal('');
    });
});

for (const database of testDatabases()) {

    describe(`staff lists (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;

        before(async () => {

            server = await startTestServer(database);
        });

        after(async () => {

            await server.stop();
        });

        it('list accounts, users and tokens with their ids, never a token', async () => {

            const cli = (...args: string[]) => runCli(server.app.config.databaseUrl, args);
            const { id: accountId } = await createAccount(server.app.ports, { name: 'Estudio Lista', writingEnabled: true });
            const { id: ownerId } = await createUser(server.app.ports, { accountId, email: 'duena@lista.com' });
            const { id: memberId } = await createUser(server.app.ports, { accountId, email: 'socio@lista.com', role: 'member' });
            const kept = await createToken(server.app.ports, { userId: ownerId, name: 'ERP' });
            const revoked = await createToken(server.app.ports, { userId: memberId });
            await revokeToken(server.app.ports, { id: revoked.id });

            const accounts = internals.json(await cli('account', 'list', '--json')).accounts;
            expect(accounts.find((account: { id: number }) => account.id === accountId)).to.deep.include({
                name: 'Estudio Lista',
                writingEnabled: true,
                subscription: 'active',
                cuitCount: 0,
                userCount: 2
            });

            expect(internals.json(await cli('user', 'list', '--account', String(accountId), '--json'))).to.deep.equal({
                users: [
                    { id: ownerId, accountId, email: 'duena@lista.com', role: 'owner' },
                    { id: memberId, accountId, email: 'socio@lista.com', role: 'member' }
                ]
            });
            expect(internals.json(await cli('user', 'list', '--json')).users.map((user: { id: number }) => user.id)).to.include.members([ownerId, memberId]);

            const byAccount = internals.json(await cli('token', 'list', '--account', String(accountId), '--json')).tokens;
            expect(byAccount.map((token: { id: number }) => token.id)).to.deep.equal([kept.id, revoked.id]);
            expect(byAccount[0]).to.have.all.keys('id', 'userId', 'name', 'prefix', 'createdAt', 'revokedAt', 'lastUsedAt');
            expect(byAccount[0]).to.include({ userId: ownerId, name: 'ERP', prefix: kept.token.slice(0, 8), revokedAt: null, lastUsedAt: null });
            expect(byAccount[1].revokedAt).to.be.a('string');
            expect(
                internals.json(await cli('token', 'list', '--user', String(memberId), '--json')).tokens.map((token: { id: number }) => token.id)
            ).to.deep.equal([revoked.id]);

            const outputs = await Promise.all(
                [
                    cli('token', 'list', '--account', String(accountId)),
                    cli('token', 'list', '--json'),
                    cli('token', 'list'),
                    cli('user', 'list'),
                    cli('account', 'list')
                ]
            );
            for (const output of outputs) {
                expect(output.code).to.equal(0);
                for (const token of [kept.token, revoked.token]) {
                    expect(output.stdout).to.not.include(token.slice(0, 12));
                }
            }

            expect(outputs[0]!.stdout).to.include(`${kept.id}  ${kept.token.slice(0, 8)}…  ERP  usuario ${ownerId}`);
            expect(outputs[0]!.stdout).to.include('nunca usado');
            expect(outputs[0]!.stdout).to.include('revocado');
        });

        it('says what is missing, as JSON on stderr under --json', async () => {

            const cli = (...args: string[]) => runCli(server.app.config.databaseUrl, args);
            for (const [args, message] of [
                [['user', 'list', '--account', '999999'], messages.admin.accountNotFound(999999)],
                [['token', 'list', '--user', '999999'], messages.admin.userNotFound(999999)],
                [['account', 'show', '999999'], messages.admin.accountNotFound(999999)]
            ] as const) {
                const text = await cli(...args);
                expect(text.code).to.equal(1);
                expect(text.stderr).to.equal(`Error: ${message}\n`);
                const json = await cli(...args, '--json');
                expect(json.code).to.equal(1);
                expect(json.stdout).to.equal('');
                expect(JSON.parse(json.stderr)).to.deep.equal({ error: message });
            }

            const usage = await cli('--json', 'account', 'create');
            expect(JSON.parse(usage.stderr)).to.deep.equal({ error: "Falta la opción obligatoria '--name <name>'." });
        });
    });
}
