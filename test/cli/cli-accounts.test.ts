import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { addClient as addFixtureClient } from '../support/fixtures.js';
import { messages } from '../../core/domain/messages.js';
import { databaseOf } from '../support/app.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// Issue 36, item 10: staff commands that act on a CUIT's data as one tenant (`resync`,
// `sync --cuit`, `authority probe`) name the account when several manage the CUIT: each
// account's client is another tenant's, with its own key. Without --account they list the
// accounts (names escaped) and refuse; with it, only that account's client is touched. A CUIT
// one account manages needs nothing more.

const internals = {
    secretKey: randomBytes(32).toString('base64'),

    json(result: CliResult): any {

        expect(result.code, result.stderr).to.equal(0);
        const lines = result.stdout.trim().split('\n');
        expect(lines, result.stdout).to.have.length(1);
        return JSON.parse(lines[0]!);
    }
};

for (const database of testDatabases()) {

    describe(`CLI: a CUIT several accounts manage (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        let cli: (...args: string[]) => Promise<CliResult>;
        // Every password the authority received, with its login CUIT.
        const posted: [string, string][] = [];
        // Account names as another front end or an older version may have stored them: the
        // refusal shows them escaped.
        const accounts = { a: { id: 0, name: 'Estudio A\u001b]0;titulo\u0007' }, b: { id: 0, name: 'Estudio B\nlínea falsa' } };
        const shared = { sync: '20701234561', resync: '20701234562', probe: '20701234563' };
        const alone = '20701234564';
        const clientIds: Record<string, { a: number; b: number }> = {};

        const addClient = async (accountId: number, cuit: string, password: string): Promise<number> => {

            return (await addFixtureClient(server.app.ports, accountId, { cuit, apellido: cuit, claveArca: password })).id;
        };

        const jobsOf = async (clientId: number): Promise<{ reason: string }[]> => databaseOf(server.app)('sync_jobs').where({ client_id: clientId }).select('reason');

        before(async () => {

            authority = await startSimulatedAuthority({
                port: 0,
                login: (cuit, password) => {

                    posted.push([cuit, password]);
                    return password.startsWith('mala') ? 'rejected' : 'ok';
                }
            });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            for (const account of Object.values(accounts)) {
                [account.id] = await databaseOf(server.app)('accounts').insert({ name: account.name, writing_enabled: false, subscription: 'active', created_at: Date.now() });
            }

            for (const cuit of Object.values(shared)) {
                clientIds[cuit] = {
                    a: await addClient(accounts.a.id, cuit, `mala-clave-a-${cuit}`),
                    b: await addClient(accounts.b.id, cuit, `clave-b-${cuit}`)
                };
            }

            await addClient(accounts.b.id, alone, `clave-b-${alone}`);
            cli = (...args) => runCli(server.app.config.databaseUrl, args, {
                ARCASYNC_SECRET_KEY: internals.secretKey,
                AUTHORITY: 'simulated',
                AUTHORITY_URL: authority.url
            });
        });

        after(async () => {

            await server?.stop();
            await authority?.stop();
        });

        const refusal = (cuit: string): string => `Error: El CUIT ${cuit} lo gestionan 2 cuentas: ${accounts.a.id} (Estudio A\\x1b]0;titulo\\x07), ${
            accounts.b.id} (Estudio B\\nlínea falsa). Indicá cuál con --account ID.`;

        it('refuses resync, sync --cuit and authority probe without --account, listing the accounts escaped, and touches nothing', async () => {

            for (const [args, cuit] of [
                [['resync', shared.resync], shared.resync],
                [['sync', '--cuit', shared.sync], shared.sync],
                [['authority', 'probe', '--cuit', shared.probe], shared.probe]
            ] as const) {
                const text = await cli(...args);
                expect(text.code, args.join(' ')).to.equal(1);
                expect(text.stdout, args.join(' ')).to.equal('');
                expect(text.stderr.split('\n'), args.join(' ')).to.deep.equal([refusal(cuit), '']);

                const json = await cli(...args, '--json');
                expect(json.code).to.equal(1);
                expect(json.stdout).to.equal('');
                expect(JSON.parse(json.stderr)).to.deep.equal({
                    error: messages.sync.severalAccounts(cuit, [accounts.a, accounts.b]),
                    cuit,
                    accounts: [accounts.a, accounts.b]
                });
            }

            for (const cuit of Object.values(shared)) {
                expect(await jobsOf(clientIds[cuit]!.a)).to.deep.equal([]);
                expect(await jobsOf(clientIds[cuit]!.b)).to.deep.equal([]);
            }

            expect(posted).to.deep.equal([]);
        });

        it('with --account, resync queues only that account\'s client', async () => {

            const queued = internals.json(await cli('resync', shared.resync, '--account', String(accounts.a.id), '--json'));
            expect(queued).to.deep.include({ cuit: shared.resync, accountId: accounts.a.id });
            expect(queued.jobs).to.have.length(1);
            expect(await jobsOf(clientIds[shared.resync]!.a)).to.deep.equal([{ reason: 'forced' }]);
            expect(await jobsOf(clientIds[shared.resync]!.b)).to.deep.equal([]);

            const text = await cli('resync', shared.resync, '--account', String(accounts.b.id));
            expect(text.code, text.stderr).to.equal(0);
            expect(text.stdout).to.match(new RegExp(`^Resincronización completa del CUIT ${shared.resync} de la cuenta ${accounts.b.id} encolada \\(trabajo \\d+\\)\\.\\n$`));
            expect(await jobsOf(clientIds[shared.resync]!.b)).to.deep.equal([{ reason: 'forced' }]);
        });

        it('with --account, sync --cuit runs only that account\'s client, with its key', async () => {

            const result = internals.json(await cli('sync', '--cuit', shared.sync, '--account', String(accounts.b.id), '--json'));
            expect(result).to.include({ jobs: 1, synced: 1, failed: 0 });
            expect(posted.filter(([cuit]) => cuit === shared.sync)).to.deep.equal([[shared.sync, `clave-b-${shared.sync}`]]);
            const states = async (clientId: number) => databaseOf(server.app)('sync_states').where({ client_id: clientId }).whereNotNull('synced_at');
            expect(await states(clientIds[shared.sync]!.b)).to.have.length(6);
            expect(await states(clientIds[shared.sync]!.a)).to.have.length(0);
            expect(await jobsOf(clientIds[shared.sync]!.a)).to.deep.equal([]);
        });

        it('with --account, authority probe posts only that account\'s key', async () => {

            const ok = await cli('authority', 'probe', '--cuit', shared.probe, '--account', String(accounts.b.id));
            expect(ok.code, ok.stderr).to.equal(0);
            expect(ok.stdout).to.match(/^OK +login /m);
            expect(posted.filter(([cuit]) => cuit === shared.probe)).to.deep.equal([[shared.probe, `clave-b-${shared.probe}`]]);

            const wrong = await cli('authority', 'probe', '--cuit', shared.probe, '--account', String(accounts.a.id));
            expect(wrong.code).to.equal(1);
            expect(wrong.stdout).to.match(/^FALLA login .*rejected_key/m);
            expect(posted.filter(([cuit]) => cuit === shared.probe)).to.deep.equal([
                [shared.probe, `clave-b-${shared.probe}`],
                [shared.probe, `mala-clave-a-${shared.probe}`]
            ]);
        });

        it('keeps a CUIT one account manages working without --account, and refuses an account that does not manage it', async () => {

            const queued = internals.json(await cli('resync', alone, '--json'));
            expect(queued).to.deep.include({ cuit: alone, accountId: accounts.b.id });

            for (const [args, message] of [
                [['resync', alone, '--account', String(accounts.a.id)], messages.admin.cuitNotInAccount(alone, accounts.a.id)],
                [['sync', '--cuit', alone, '--account', String(accounts.a.id)], messages.admin.cuitNotInAccount(alone, accounts.a.id)],
                [['authority', 'probe', '--cuit', alone, '--account', String(accounts.a.id)], messages.admin.cuitNotInAccount(alone, accounts.a.id)],
                [['resync', alone, '--account', '999999'], messages.admin.accountNotFound(999999)],
                [['sync', '--all', '--account', String(accounts.a.id)], messages.sync.accountWithoutCuit],
                [['resync', alone, '--account', 'abc'], 'Identificador inválido']
            ] as const) {
                const result = await cli(...args);
                expect(result.code, args.join(' ')).to.equal(1);
                expect(result.stdout, args.join(' ')).to.equal('');
                const lines = result.stderr.trimEnd().split('\n');
                expect(lines, args.join(' ')).to.have.length(1);
                expect(lines[0], args.join(' ')).to.include(message);
            }

            expect(await databaseOf(server.app)('sync_jobs').where({ client_id: clientIds[shared.sync]!.a })).to.deep.equal([]);
        });
    });
}
