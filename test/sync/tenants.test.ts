import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { spreadFairly } from '../../core/use-cases/sync/daily-window.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// Tenants (issue 36; docs/architecture.md, Keys, sessions and the ledger): one account can never
// reach another's taxpayer through ARCA, spend its logins or learn about it. Each case registers
// CUITs through the REST API as an integrator would, runs the sync as cron does (`arcasync sync
// --all`, a child process against the simulated authority), and reads what ARCA received (the
// authority's own count of password posts, by digest) and what each account sees (REST).

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    digest: (password: string): string => createHash('sha256').update(password).digest('hex').slice(0, 16),

    person: (cuit: string, clave: string) => ({ tipo: 'persona-fisica', cuit, nombre: 'Ana', apellido: `Prueba ${cuit}`, clave_arca: clave }),
    entity: (cuit: string, representante: string) => ({ tipo: 'persona-juridica', cuit, razon_social: `Empresa ${cuit}`, representante })
};

for (const database of testDatabases()) {

    describe(`tenants: one account never reaches another's taxpayer (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        let a: SeededUser;
        let b: SeededUser;
        let sync: (...args: string[]) => Promise<CliResult>;

        const create = async (user: SeededUser, body: object): Promise<void> => {

            const response = await server.request('/v1/cuits', { token: user.token, method: 'POST', body });
            expect(response.status, response.text).to.equal(201);
        };

        const estado = async (user: SeededUser, cuit: string): Promise<any> => (await server.ok(`/v1/cuits/${cuit}/estado`, user.token)).data;
        const posted = (cuit: string): string[] => authority.stats().passwordsByCuit[cuit] ?? [];
        const registrySynced = async (user: SeededUser, cuit: string): Promise<boolean> => {

            const list = await server.ok('/v1/cuits?limit=100', user.token);
            const client = list.data.find((item: { cuit: string }) => item.cuit === cuit);
            return client.sistemaRegistralSyncedAt !== null;
        };

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0 });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            a = await seedAccount(server.app.ports, { writing: true });
            b = await seedAccount(server.app.ports, { writing: true });
            sync = (...args) => runCli(server.app.config.databaseUrl, ['sync', ...args], {
                ARCASYNC_SECRET_KEY: internals.secretKey,
                AUTHORITY: 'simulated',
                AUTHORITY_URL: authority.url,
                SYNC_CHECK_DIGITS: '0'
            });
        });

        after(async () => {

            await server?.stop();
            await authority?.stop();
        });

        it('a wrong key for another account\'s CUIT logs in for itself and fails for itself; the other account sees nothing of it', async () => {

            const cuit = '20301234561';
            await create(b, internals.person(cuit, 'clave-buena-b'));
            await create(a, internals.person(cuit, 'mala-cualquiera'));
            const run = await sync('--all', '--json');
            expect([0, 3], run.stderr).to.include(run.code);

            // ARCA received both keys, each once: A's session was never B's.
            expect([...posted(cuit)].sort()).to.deep.equal([internals.digest('clave-buena-b'), internals.digest('mala-cualquiera')].sort());
            expect(await registrySynced(b, cuit)).to.equal(true);
            expect(await registrySynced(a, cuit)).to.equal(false);
            const mine = await estado(a, cuit);
            expect(mine.estado).to.equal('clave_rechazada');
            expect(mine.clave.estado).to.equal('clave_rechazada');
            const theirs = await estado(b, cuit);
            expect(theirs.estado).to.equal('ok');
            expect(theirs.clave.estado).to.equal('funciona');
        });

        it('through a representative: A\'s made-up key for B\'s accountant reads neither the accountant nor an entity B does not manage', async () => {

            const accountant = '20301234563';
            await create(b, internals.person(accountant, 'clave-contador'));
            await create(b, internals.entity('30712345671', accountant));
            await create(a, internals.person(accountant, 'mala-inventada'));
            await create(a, internals.entity('30712345672', accountant));
            await sync('--all', '--json');

            expect(posted(accountant).filter((digest) => digest === internals.digest('mala-inventada'))).to.have.length(1);
            expect(await registrySynced(b, accountant)).to.equal(true);
            for (const cuit of [accountant, '30712345672']) {
                expect((await estado(a, cuit)).estado, cuit).to.equal('clave_rechazada');
            }

            const entity = await server.ok('/v1/cuits/30712345672/sct', a.token).catch(() => null);
            expect(entity?.data ?? null, 'no SCT read for A through B\'s session').to.satisfy((data: any) => data === null || data.syncedAt === null || data.deuda?.length === 0);
            expect((await estado(b, '30712345671')).estado).to.equal('ok');
        });

        it('one account\'s wrong keys post one password a day; B\'s right key still logs in that day', async () => {

            const cuit = '27301234562';
            await create(a, internals.person(cuit, 'mala-1'));
            await sync('--all', '--json');
            // Five corrections and six delete-and-create cycles of wrong keys the same day.
            for (let i = 2; i <= 6; i++) {
                const patch = await server.request(`/v1/cuits/${cuit}`, { token: a.token, method: 'PATCH', body: { clave_arca: `mala-${i}` } });
                expect(patch.status, patch.text).to.equal(200);
                await sync('--all', '--json');
            }

            for (let i = 7; i <= 12; i++) {
                expect((await server.request(`/v1/cuits/${cuit}`, { token: a.token, method: 'DELETE' })).status).to.equal(204);
                await create(a, internals.person(cuit, `mala-${i}`));
                await sync('--all', '--json');
            }

            expect(posted(cuit)).to.deep.equal([internals.digest('mala-1')]);
            // A's newest key waits its turn: it is not said to be refused.
            const waiting = await estado(a, cuit);
            expect(waiting.estado).to.equal('espera_arca');
            expect(waiting.requiereAtencion).to.equal(false);

            await create(b, internals.person(cuit, 'clave-buena'));
            await sync('--all', '--json');
            expect(posted(cuit)).to.deep.equal([internals.digest('mala-1'), internals.digest('clave-buena')]);
            expect(await registrySynced(b, cuit)).to.equal(true);
            const theirs = await estado(b, cuit);
            expect(theirs.estado).to.equal('ok');
            expect(theirs.clave.estado).to.equal('funciona');
        });

        it('the same wrong plaintext is posted once, whoever stores it; a key never sent reads pendiente', async () => {

            const cuit = '20301234565';
            await create(a, internals.person(cuit, 'mala-compartida'));
            await sync('--all', '--json');
            await create(b, internals.person(cuit, 'mala-compartida'));
            await sync('--all', '--json');
            expect(posted(cuit)).to.deep.equal([internals.digest('mala-compartida')]);
            expect((await estado(b, cuit)).clave.estado).to.equal('clave_rechazada');

            // A key another account proved today says nothing of this one, never sent.
            const proven = '27301234566';
            await create(b, internals.person(proven, 'clave-probada'));
            await sync('--all', '--json');
            await create(a, internals.person(proven, 'clave-de-a'));
            const unsent = await estado(a, proven);
            expect(unsent.clave.estado).to.equal('pendiente');
            expect(unsent.estado).to.equal('pendiente');
        });

        it('a corrected key is queued and shown pending, never with the old key\'s refusal', async () => {

            const cuit = '20301234567';
            await create(a, internals.person(cuit, 'mala-vieja'));
            await sync('--all', '--json');
            expect((await estado(a, cuit)).estado).to.equal('clave_rechazada');
            const patch = await server.request(`/v1/cuits/${cuit}`, { token: a.token, method: 'PATCH', body: { clave_arca: 'clave-nueva' } });
            expect(patch.status, patch.text).to.equal(200);
            const corrected = await estado(a, cuit);
            expect(corrected.estado).to.equal('pendiente');
            expect(corrected.clave.estado).to.equal('pendiente');
            // Queued by the service: `sync --due` (what cron runs) takes it now.
            const due = JSON.parse((await sync('--due', '--json')).stdout);
            expect(due.jobs).to.be.at.least(1);
            // Same day: the account's unproven try was spent, so it waits, never "refused".
            expect((await estado(a, cuit)).estado).to.equal('espera_arca');
        });

        it('at most the weekly number of unproven posts per CUIT over every account; past it, keys wait', async () => {

            const cuit = '27301234568';
            const accounts = [a, b, await seedAccount(server.app.ports, { writing: true }), await seedAccount(server.app.ports, { writing: true })];
            for (const [index, user] of accounts.entries()) {
                await create(user, internals.person(cuit, `mala-semana-${index}`));
            }

            // A daily allowance wide enough that only the weekly cap (3) stops the fourth.
            const run = await runCli(server.app.config.databaseUrl, ['sync', '--all', '--json'], {
                ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: authority.url, SYNC_CHECK_DIGITS: '0', SYNC_RELOGINS_PER_DAY: '10'
            });
            expect([0, 3], run.stderr).to.include(run.code);
            expect(posted(cuit)).to.have.length(3);
            const states = await Promise.all(accounts.map(async (user) => (await estado(user, cuit)).estado));
            expect(states.filter((state) => state === 'clave_rechazada')).to.have.length(3);
            expect(states.filter((state) => state === 'espera_arca')).to.have.length(1);

            // Staff see why, and may let new keys be tried again once the client confirmed.
            const status = await sync('status', '--cuit', cuit);
            expect(status.stdout).to.include('claves nuevas probadas en ARCA en 7 días: 3 de 3. Las claves nuevas del CUIT esperan (no fueron rechazadas)');
            const unblocked = await sync('unblock', cuit, '--json');
            expect(unblocked.code, unblocked.stderr).to.equal(0);
            expect(JSON.parse(unblocked.stdout)).to.deep.equal({ cuit });
            await runCli(server.app.config.databaseUrl, ['sync', '--all', '--json'], {
                ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: authority.url, SYNC_CHECK_DIGITS: '0', SYNC_RELOGINS_PER_DAY: '10'
            });
            expect(posted(cuit)).to.have.length(4);
        });

        it('a spent login day is a wait, not a failure: sync --all exits 0 and says how many wait', async () => {

            const cuit = '20301234569';
            await create(b, internals.person(cuit, 'clave-del-dia'));
            // One login and one re-login a day: the third run of the day finds them spent.
            for (let run = 0; run < 2; run++) {
                await sync('--cuit', cuit, '--account', String(b.accountId), '--json');
            }

            const third = await sync('--cuit', cuit, '--account', String(b.accountId), '--json');
            expect(third.code, third.stderr).to.equal(0);
            expect(JSON.parse(third.stdout)).to.include({ synced: 0, failed: 0, waiting: 1 });
            const state = await estado(b, cuit);
            expect(state.estado).to.equal('espera_arca');
            expect(state.requiereAtencion).to.equal(false);
            expect(posted(cuit)).to.have.length(2);
        });

        it('a CUIT whose check digit is wrong is accepted but never sent to ARCA', async () => {

            const cuit = '20123456780';
            await create(a, internals.person(cuit, 'clave'));
            await runCli(server.app.config.databaseUrl, ['sync', '--all', '--json'], {
                ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: authority.url, SYNC_CHECK_DIGITS: '1'
            });
            expect(posted(cuit)).to.deep.equal([]);
            const invalid = await estado(a, cuit);
            expect(invalid.estado).to.equal('cuit_invalido');
            expect(invalid.requiereAtencion).to.equal(true);
        });
    });
}

describe('tenants: the daily window', () => {

    it('gives two accounts\' keys for one CUIT their own turns, never one shared start', () => {

        const planned = spreadFairly([
            { clientId: 1, accountId: 1, keyId: 'clave-de-a' },
            { clientId: 2, accountId: 2, keyId: 'clave-de-b' }
        ], 0, 1000);
        expect(new Set(planned.map((job) => job.runAfter)).size).to.equal(2);
    });
});
