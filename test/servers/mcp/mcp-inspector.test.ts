import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { invoice, movement, notification, sctData } from '../../support/data.js';
import { builtCli } from '../../support/build.js';
import type { CliResult } from '../../support/cli.js';
import { runProcess } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';
import { cliMessages } from '../../../cli/messages.js';

// The MCP Inspector CLI (the pinned @modelcontextprotocol/inspector-cli, which is what
// `npx @modelcontextprotocol/inspector --cli` runs) as a third-party client: it lists the five
// tools and calls each, over stdio (`arcasync mcp`) and over HTTP with a bearer token.

const internals = {
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    inspector: fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url)),
    // The inspector finds its own package.json by a path relative to the working directory
    // (it works from its build directory; elsewhere it looks for the meta-package's).
    inspectorDir: fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/inspector-cli/build/', import.meta.url)),
    testKey: Buffer.alloc(32, 7).toString('base64')
};

const inspect = (args: string[], env: Record<string, string> = {}): Promise<CliResult> => {

    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete childEnv.TEST_MYSQL_URL;
    return runProcess([internals.inspector, '--cli', ...args], { cwd: internals.inspectorDir, env: childEnv });
};

const calls: [string, string[]][] = [
    ['listar_cuits', ['limit=10']],
    ['listar_mis_comprobantes', ['cuit=20-12345678-6', 'tipo=emitidos', 'from_date=2026-03-01', 'to_date=2026-03-31']],
    ['consultar_sct', ['cuit=20-12345678-6']],
    ['consultar_ccma', ['cuit=20-12345678-6', 'consulta=movimientos']],
    ['listar_dfe', ['cuit=20-12345678-6']]
];

const expectations = (run: (args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>) => async () => {

    const [list, ...results] = await Promise.all([
        run(['--method', 'tools/list']),
        ...calls.map(([name, args]) => run(['--method', 'tools/call', '--tool-name', name, ...args.flatMap((arg) => ['--tool-arg', arg])]))
    ]);

    expect(list.code, list.stderr).to.equal(0);
    const tools = (JSON.parse(list.stdout) as { tools: { name: string; annotations?: { readOnlyHint?: boolean } }[] }).tools;
    expect(tools.map((tool) => tool.name).sort()).to.deep.equal(['consultar_ccma', 'consultar_sct', 'listar_cuits', 'listar_dfe', 'listar_mis_comprobantes']);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).to.equal(true);

    results.forEach((result, index) => {

        const name = calls[index]![0];
        expect(result.code, `${name}: ${result.stderr}`).to.equal(0);
        const answer = JSON.parse(result.stdout) as { isError?: boolean; structuredContent?: { data: unknown } };
        expect(answer.isError, `${name}: ${result.stdout}`).to.not.equal(true);
        expect(answer.structuredContent, name).to.have.property('data');
    });

    const comprobantes = JSON.parse(results[1]!.stdout) as { structuredContent: { data: unknown[] } };
    expect(comprobantes.structuredContent.data).to.have.length(1);
};

// One database is enough here: the Inspector checks the protocol surface, and every process it
// starts costs seconds; the tools' behaviour on each database is covered by mcp-http and
// oauth-flow.
for (const database of testDatabases().slice(0, 1)) {

    describe(`MCP Inspector CLI (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let user: SeededUser;

        before(async () => {

            server = await startTestServer(database);
            const ports = server.app.ports;
            user = await seedAccount(ports);
            const client = await addClient(ports, user.accountId, { cuit: '20-12345678-6', nombre: 'María', apellido: 'González' });
            const syncedAt = Date.parse('2026-03-14T03:00:00Z');
            await ports.invoices.save(client.id, 'issued', [invoice({ fecha: '2026-03-02' })], syncedAt);
            await ports.sct.replace(client.id, sctData(), syncedAt);
            await ports.ccma.replace(client.id, { saldoDeudor: 100, saldoAcreedor: null }, [movement({ orden: 1, periodo: '01/2026' })], syncedAt);
            await ports.notifications.save(client.id, [notification({ arcaId: '1', fechaRecepcion: '2026-03-01T10:00:00.000Z' })], syncedAt);
        });

        after(async () => {

            await server.stop();
        });

        it('lists the five tools and calls each over stdio (arcasync mcp)', expectations((args) => inspect(
            [process.execPath, builtCli(), 'mcp', ...args],
            { DATABASE_URL: server.app.config.databaseUrl, ARCASYNC_TOKEN: user.token, ARCASYNC_SECRET_KEY: internals.testKey }
        )));

        it('lists the five tools and calls each over HTTP with a bearer token', expectations((args) => inspect(
            [`${server.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${user.token}`, ...args]
        )));

        it('refuses to start over stdio without a valid ARCASYNC_TOKEN, with a Spanish error', async () => {

            const run = (token: string) => new Promise<{ code: number | null; stderr: string }>((resolve) => {

                const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: server.app.config.databaseUrl, ARCASYNC_TOKEN: token };
                delete env.TEST_MYSQL_URL;
                const child = spawn(process.execPath, [builtCli(), 'mcp'], { cwd: internals.root, env, stdio: ['pipe', 'pipe', 'pipe'] });
                let stderr = '';
                child.stderr.on('data', (chunk: Buffer) => {

                    stderr += chunk.toString();
                });
                child.on('close', (code) => resolve({ code, stderr }));
            });

            const [missing, wrong] = await Promise.all([run(''), run('asy_invalido')]);
            expect(missing.code).to.equal(1);
            expect(missing.stderr).to.contain(cliMessages.noToken);
            expect(wrong.code).to.equal(1);
            expect(wrong.stderr).to.contain(messages.unauthenticated);
        });
    });
}
