import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { messages } from '../../core/domain/messages.js';
import { databaseOf } from '../support/app.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount, addClient as addFixtureClient } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// Issue 37, item 6: staff terminals stay safe. Text the CLI did not write (ARCA's error texts,
// names, URLs, what was typed) reaches human output with its control characters shown as
// `\x1b`-style text, never obeyed: no ESC sequence (window title, clear screen, hidden text),
// no C1 control, no forged line. Staff names refuse control characters and line breaks; a URL
// longer than its column is refused in Spanish, not by the database.

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    // ESC sequences that retitle the window, clear the screen and hide text; BEL, DEL and the
    // one-character CSI (C1) beside them.
    hostile: '\u001b]0;pwned\u0007\u001b[2J\u001b[8moculto\u007f\u009b31m',
    shown: '\\x1b]0;pwned\\x07\\x1b[2J\\x1b[8moculto\\x7f\\x9b31m',

    // No raw control character but the line breaks the CLI writes itself.
    assertClean(text: string, what: string): void {

        expect(text, what).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    },

    // An authority in front of the simulated one whose Mis Comprobantes answers every query
    // with an error text of its own (`consulta.error`), as the real one may.
    async startAuthorityProxy(target: string, errorText: string): Promise<{ url: string; stop(): Promise<void> }> {

        const server = createServer((req, res) => {

            const url = new URL(req.url!, 'http://proxy');
            if (url.pathname.endsWith('/ajax.do') && url.searchParams.get('f') === 'listaResultados') {
                res.writeHead(200, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ estado: 'ok', recordsTotal: 1, datos: { consulta: { idConsulta: Number(url.searchParams.get('id')), estado: 'FI', error: errorText } } }));
                return;
            }

            const forward = request(new URL(req.url!, target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {

                res.writeHead(answer.statusCode!, answer.headers);
                answer.pipe(res);
            });
            forward.on('error', () => res.destroy());
            req.pipe(forward);
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return {
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            stop: () => new Promise((resolve) => {

                server.closeAllConnections();
                server.close(() => resolve());
            })
        };
    }
};

for (const database of testDatabases()) {

    describe(`CLI: terminals stay safe (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        let cli: (...args: string[]) => Promise<CliResult>;
        let accountId: number;
        let userId: number;

        const addClient = async (cuit: string, password: string): Promise<number> => {

            return (await addFixtureClient(server.app.ports, accountId, { cuit, apellido: cuit, claveArca: password })).id;
        };

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0 });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            ({ accountId, userId } = await seedAccount(server.app.ports));
            cli = (...args) => runCli(server.app.config.databaseUrl, args, {
                ARCASYNC_SECRET_KEY: internals.secretKey,
                AUTHORITY: 'simulated',
                AUTHORITY_URL: authority.url,
                WEBHOOK_ALLOW_HTTP_LOOPBACK: '1'
            });
        });

        after(async () => {

            await server?.stop();
            await authority?.stop();
        });

        it('refuses account, token and tag names with control characters or line breaks, naming the input, and stores nothing', async () => {

            const count = async (table: string): Promise<number> => Number((await databaseOf(server.app)(table).count({ n: '*' }).first())!.n);
            const before = { accounts: await count('accounts'), tokens: await count('tokens'), tags: await count('tags') };
            for (const [args, what] of [
                [['account', 'create', '--name', 'Estudio\u001b[2J'], 'El nombre de la cuenta'],
                [['account', 'create', '--name', 'Estudio\n  2  Cuenta falsa'], 'El nombre de la cuenta'],
                [['account', 'create', '--name', 'Estudio\u009b31m'], 'El nombre de la cuenta'],
                [['token', 'create', '--user', String(userId), '--name', 'ERP\u001b]0;x\u0007'], 'El nombre del token'],
                [['token', 'create', '--user', String(userId), '--name', 'ERP\r\n  99  asy_falso…'], 'El nombre del token'],
                [['tag', 'create', '--account', String(accountId), '--name', 'Sueldos\u001b[8m', '--color', '#112233'], 'El nombre de la etiqueta'],
                [['tag', 'create', '--account', String(accountId), '--name', 'Sueldos\nIVA', '--color', '#112233'], 'El nombre de la etiqueta']
            ] as const) {
                const result = await cli(...args);
                expect(result.code, args.join(' ')).to.equal(1);
                expect(result.stdout).to.equal('');
                expect(result.stderr, args.join(' ')).to.equal(`Error: ${messages.admin.nameCharacters(what)}\n`);
            }

            expect({ accounts: await count('accounts'), tokens: await count('tokens'), tags: await count('tags') }).to.deep.equal(before);

            const long = await cli('account', 'create', '--name', 'x'.repeat(201));
            expect(long.stderr).to.equal(`Error: ${messages.admin.nameTooLong('El nombre de la cuenta', 200)}\n`);
        });

        it('shows names stored before the rule escaped: no forged line in account list or token list', async () => {

            const [id] = await databaseOf(server.app)('accounts').insert({
                name: `Vieja${internals.hostile}\n  1  Cuenta falsa`, writing_enabled: false, subscription: 'active', created_at: Date.now()
            });
            const tokenId = Number((await cli('token', 'create', '--user', String(userId), '--json')).stdout.match(/"id":(\d+)/)![1]);
            await databaseOf(server.app)('tokens').where({ id: tokenId }).update({ name: `ERP${internals.hostile}\n  7  asy_falso` });

            const list = await cli('account', 'list');
            expect(list.code, list.stderr).to.equal(0);
            internals.assertClean(list.stdout, 'account list');
            expect(list.stdout).to.include(`  ${id}  Vieja${internals.shown}\\n  1  Cuenta falsa · suscripción`);
            expect(list.stdout.split('\n').filter((line) => line.includes('Cuenta falsa'))).to.have.length(1);

            const shown = await cli('account', 'show', String(id));
            internals.assertClean(shown.stdout, 'account show');
            expect(shown.stdout.split('\n')[0]).to.equal(`Cuenta ${id}: Vieja${internals.shown}\\n  1  Cuenta falsa`);

            const tokens = await cli('token', 'list', '--user', String(userId));
            internals.assertClean(tokens.stdout, 'token list');
            expect(tokens.stdout.split('\n').filter((line) => line.includes('asy_falso'))).to.have.length(1);
            expect(tokens.stdout).to.include(`ERP${internals.shown}\\n  7  asy_falso`);

            // --json keeps the stored value, every control character escaped as JSON does
            // (C1 and DEL included, which JSON.stringify leaves raw).
            const json = await cli('account', 'list', '--json');
            internals.assertClean(json.stdout, 'account list --json');
            const stored = JSON.parse(json.stdout).accounts.find((entry: { id: number }) => entry.id === id);
            expect(stored.name).to.equal(`Vieja${internals.hostile}\n  1  Cuenta falsa`);
        });

        it('shows an error ARCA recorded in sync_states escaped in sync status --cuit', async () => {

            const cuit = '20801234561';
            const clientId = await addClient(cuit, 'clave-estado');
            const now = Date.now();
            await databaseOf(server.app)('sync_states').insert({
                client_id: clientId, system: 'sct', synced_at: null, last_attempt_at: now, last_error: `Texto de ARCA${internals.hostile}\nlínea falsa`
            });

            const text = await cli('sync', 'status', '--cuit', cuit);
            expect(text.code, text.stderr).to.equal(0);
            internals.assertClean(text.stdout, 'sync status --cuit');
            expect(text.stdout).to.include(`error (${new Date(now).toISOString()}): Texto de ARCA${internals.shown}\\nlínea falsa`);
            expect(text.stdout.split('\n').filter((line) => line.includes('línea falsa'))).to.have.length(1);

            const json = await cli('sync', 'status', '--cuit', cuit, '--json');
            internals.assertClean(json.stdout, 'sync status --json');
            const sct = JSON.parse(json.stdout).clients[0].systems.find((entry: { system: string }) => entry.system === 'sct');
            expect(sct.lastError).to.equal(`Texto de ARCA${internals.hostile}\nlínea falsa`);
        });

        it('shows Mis Comprobantes\' own error text escaped in sync, sync status --cuit and authority probe', async () => {

            const proxy = await internals.startAuthorityProxy(authority.url, `Consulta rechazada${internals.hostile}`);
            try {
                const run = (...args: string[]) => runCli(server.app.config.databaseUrl, args, {
                    ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: proxy.url
                });
                const [synced, probed] = ['20801234562', '20801234563'];
                await addClient(synced, 'clave-sync');
                await addClient(probed, 'clave-sonda');

                const sync = await run('sync', '--cuit', synced);
                expect(sync.code, sync.stderr).to.equal(3);
                internals.assertClean(sync.stdout + sync.stderr, 'sync');
                expect(sync.stdout).to.include(`Consulta rechazada${internals.shown}`);

                const status = await run('sync', 'status', '--cuit', synced);
                internals.assertClean(status.stdout, 'sync status --cuit');
                expect(status.stdout).to.include(`Consulta rechazada${internals.shown}`);

                const probe = await run('authority', 'probe', '--cuit', probed);
                expect(probe.code).to.equal(1);
                internals.assertClean(probe.stdout + probe.stderr, 'authority probe');
                expect(probe.stdout).to.match(/^FALLA issued_invoices .*Consulta rechazada\\x1b\]0;pwned\\x07/m);
            }
            finally {
                await proxy.stop();
            }
        });

        it('refuses a 5,000-character --url in Spanish, naming it, and echoes unknown --events escaped', async () => {

            const url = `http://127.0.0.1:9/${'a'.repeat(5000)}`;
            const long = await cli('webhook', 'create', '--account', String(accountId), '--url', url);
            expect(long.code).to.equal(1);
            expect(long.stdout).to.equal('');
            expect(long.stderr).to.equal('Error: La URL del webhook puede tener hasta 2048 caracteres.\n');

            const events = await cli('webhook', 'create', '--account', String(accountId), '--url', 'http://127.0.0.1:9/x', '--events', `salud.cambio,x${internals.hostile}\ny`);
            expect(events.code).to.equal(1);
            internals.assertClean(events.stderr, 'webhook create --events');
            expect(events.stderr.split('\n')).to.deep.equal([`Error: Tipos de evento desconocidos: x${internals.shown}\\ny. Los tipos son: sincronizacion.completada, salud.cambio, dfe.nuevas, sct.deuda_cambio, monotributo.tope, prueba.`, '']);
            expect(await databaseOf(server.app)('webhook_endpoints').where({ account_id: accountId })).to.deep.equal([]);
        });
    });
}
