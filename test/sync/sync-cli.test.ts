import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { arcaDay, nextArcaDayStart } from '../../core/domain/arca-day.js';
import { messages } from '../../core/domain/messages.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import { queueDeps } from '../../app/sync.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import { cliMessages } from '../../cli/messages.js';
import { databaseOf } from '../support/app.js';

// The sync commands of the CLI contract as operators run them (child processes on the
// database): `sync`, `sync status`, `resync`, with their --json shapes, exit codes and
// Spanish one-line errors; their effect seen through the REST API.

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

    describe(`sync CLI (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        let token: string;
        let cli: (...args: string[]) => Promise<CliResult>;
        let accountId: number;
        const addClient = async (cuit: string, password: string): Promise<number> => {

            const names = { nombre: 'Ana', apellido: cuit, razonSocial: null };
            const name = displayName({ tipo: 'persona-fisica', ...names });
            const client = await server.app.ports.clients.insert({
                publicId: randomUUID(), accountId, cuit: cuit as Cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: server.app.ports.secretBox.seal(
                    password
                ), keyDigest: await server.app.ports.keyIdentity.of(cuit as Cuit, password), createdAt: Date.now()
            });
            return client!.id;
        };
        const people = ['20301234561', '27301234562'];
        const refused = '20301234563';

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0 });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey } });
            const user = await seedAccount(server.app.ports);
            token = user.token;
            accountId = user.accountId;
            for (const [cuit, password] of [[people[0]!, 'clave-1'], [people[1]!, 'clave-2'], [refused, 'mala-clave']] as const) {
                await addClient(cuit, password);
            }

            // A daily window away from now: `sync --due` plans the daily jobs there, and runs
            // only what is due now.
            const minute = Math.floor((Date.now() - 3 * 3_600_000) / 60_000) % 1440;
            const window = minute < 5 ? '12:00-12:01' : '00:00-00:01';
            cli = (...args) => runCli(server.app.config.databaseUrl, args, {
                ARCASYNC_SECRET_KEY: internals.secretKey,
                AUTHORITY: 'simulated',
                AUTHORITY_URL: authority.url,
                SYNC_WINDOW: window
            });
        });

        after(async () => {

            await server.stop();
            await authority.stop();
        });

        it('sync --cuit runs the named CUITs now and reports them; the API then serves their data', async () => {

            const result = internals.json(await cli('sync', '--cuit', '20-30123456-1', '--json'));
            expect(result).to.include({ jobs: 1, synced: 1, failed: 0 });
            expect(result.invoices).to.be.greaterThan(0);
            const list = await server.request('/v1/cuits', { token });
            const synced = list.body.data.filter(
                (item: { sistemaRegistralSyncedAt: string | null }) => item.sistemaRegistralSyncedAt !== null
            ).map((item: { cuit: string }) => item.cuit);
            expect(synced).to.deep.equal([people[0]]);
        });

        it('sync --all runs every CUIT and lists the failures without showing any key', async () => {

            const run = await cli('sync', '--all', '--json');
            // A CUIT ended with an error: the summary on stdout, one line on stderr, exit 3.
            expect(run.code, run.stderr).to.equal(3);
            expect(run.stderr.trimEnd().split('\n').map((line) => JSON.parse(line))).to.deep.equal([{ error: cliMessages.syncFailed(1) }]);
            const result = JSON.parse(run.stdout);
            expect(result).to.include({ jobs: 3, synced: 2, failed: 1, otherWorkers: 0 });
            expect(result.failures).to.have.length(1);
            expect(result.failures[0].cuit).to.equal(refused);
            expect(result.failures[0].error).to.include(messages.authority.rejected_key);
            expect(run.stdout + run.stderr).to.not.include('mala-clave');
        });

        it('sync status shows the last success and error per system, for one CUIT and overall', async () => {

            const one = internals.json(await cli('sync', 'status', '--cuit', refused, '--json'));
            expect(one.clients).to.have.length(1);
            expect(one.clients[0].systems.map((system: { system: string }) => system.system)).to.deep.equal(
                ['registry', 'issued_invoices', 'received_invoices', 'sct', 'ccma', 'dfe']
            );
            for (const system of one.clients[0].systems) {
                expect(system.syncedAt).to.equal(null);
                expect(system.lastError).to.include(messages.sync.keyNotRetried);
            }

            const ok = internals.json(await cli('sync', 'status', '--cuit', people[1]!, '--json'));
            expect(
                ok.clients[0].systems.every(
                    (system: { syncedAt: string | null; lastError: string | null }) => system.syncedAt !== null && system.lastError === null
                )
            ).to.equal(true);

            const all = internals.json(await cli('sync', 'status', '--json'));
            expect(all.summary.clients).to.equal(3);
            expect(all.summary.systems.find((entry: { system: string }) => entry.system === 'sct')).to.include({ synced: 2, failing: 1 });

            const text = await cli('sync', 'status', '--cuit', people[1]!);
            expect(text.code).to.equal(0);
            expect(text.stdout).to.match(/último éxito \d{4}-/);
        });

        it('resync enqueues a forced full resync; sync --due picks it up', async () => {

            const queued = internals.json(await cli('resync', people[1]!, '--json'));
            expect(queued.cuit).to.equal(people[1]);
            expect(queued.jobs).to.have.length(1);
            const job = await databaseOf(server.app)('sync_jobs').where({ id: queued.jobs[0] }).first();
            expect(job).to.include({ reason: 'forced', status: 'pending' });

            const due = internals.json(await cli('sync', '--due', '--json'));
            expect(due).to.include({ jobs: 1, synced: 1 });
            expect((await databaseOf(server.app)('sync_jobs').where({ id: queued.jobs[0] }).first()).status).to.equal('done');
        });

        it('fails with one Spanish line and a non-zero exit', async () => {

            for (const [args, message] of [
                [['sync'], messages.sync.nothingToRun],
                [['sync', '--cuit', '123'], messages.admin.invalidCuit],
                [['sync', '--cuit', '20-99999999-9'], messages.notFound],
                [['resync', '20-99999999-9'], messages.notFound],
                [['sync', '--all', '--concurrency', '0'], cliMessages.invalidConcurrency],
                [['serve', '--worker', '--concurrency', '5000'], cliMessages.invalidConcurrency]
            ] as const) {
                const result = await cli(...args);
                expect(result.code, args.join(' ')).to.equal(1);
                expect(result.stdout).to.equal('');
                expect(result.stderr.trimEnd().split('\n')).to.deep.equal([`Error: ${message}`]);
            }
        });

        it('counts CUITs, not attempts, says each failure once and exits 3 when the authority fails', async () => {

            const failing = await startSimulatedAuthority({ port: 0, failures: { serverError: 1 } });
            try {
                const cuits = ['20401234561', '20401234562', '20401234563', '20401234564'];
                for (const cuit of cuits) {
                    await addClient(cuit, `clave-${cuit}`);
                }

                const env = { ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: failing.url };
                const run = await runCli(server.app.config.databaseUrl, ['sync', ...cuits.flatMap((cuit) => ['--cuit', cuit])], env);
                expect(run.code, run.stderr).to.equal(3);
                expect(run.stderr.trimEnd().split('\n')).to.deep.equal([`Error: ${cliMessages.syncFailed(4)}`]);
                const lines = run.stdout.trimEnd().split('\n');
                expect(lines[0]).to.equal(cliMessages.syncSummary({ synced: 0, failed: 4, waiting: 0, invoices: 0 }));
                expect(lines.slice(1).map((line) => line.trim().slice(0, 11)).sort()).to.deep.equal(cuits);
                for (const line of lines.slice(1)) {
                    expect(line.split(messages.authority.unavailable).length - 1, line).to.equal(1);
                }

                const status = internals.json(await cli('sync', 'status', '--cuit', cuits[0]!, '--json'));
                for (const system of status.clients[0].systems) {
                    expect(system.lastError.split(messages.authority.unavailable).length - 1, system.lastError).to.equal(1);
                }
            }
            finally {
                await failing.stop();
            }
        });

        it('says so when another worker synchronized part of the run', async () => {

            const mine = '20501234561';
            const theirs = '20501234562';
            const [, theirId] = [await addClient(mine, 'clave-mia'), await addClient(theirs, 'clave-ajena')];
            const queue = queueDeps(server.app);
            const now = Date.now();
            await queue.jobQueue.enqueue(theirId, 'manual', now);
            // Another worker holds their job while this run goes, and finishes it.
            const held = (await queue.jobQueue.claim({ owner: 'otro-trabajador', now, leaseMs: 60_000, clientIds: [theirId] }))!;
            const myId = (await databaseOf(server.app)('clients').where({ cuit: mine }).first()).id;
            await queue.jobQueue.enqueue(myId, 'manual', now);
            // `sync --due` waits for the job the other worker runs, and does not run it again.
            const running = cli('sync', '--due', '--json');
            while (!await databaseOf(server.app)('sync_jobs').where({ client_id: myId, status: 'done' }).first()) {
                await sleep(50);
            }

            await queue.jobQueue.complete(held, 'otro-trabajador', Date.now());
            const result = internals.json(await running);
            expect(result).to.include({ jobs: 1, synced: 1, failed: 0, otherWorkers: 1 });

            const text = await cli('sync', '--cuit', mine);
            expect(text.code).to.equal(0);
            expect(text.stdout).to.not.include(cliMessages.syncByOthers(1));
        });

        it('authority probe --cuit walks the stored key through every step, prints each with its timing and verdict, and stores nothing', async () => {

            // Keys of their own: a probe's login counts in the key's day like a sync's.
            const [person, wrong] = ['20601234563', '20601234564'];
            await addClient(person, 'clave-1');
            await addClient(wrong, 'mala-clave');
            const before = await databaseOf(server.app)('sync_states').count({ n: '*' }).first();
            const result = await cli('authority', 'probe', '--cuit', person, '--json');
            expect(result.code, result.stderr).to.equal(0);
            const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as {
                type: string;
                step?: string;
                ok?: boolean;
                host?: string;
                status?: number;
            });
            expect(lines.filter((line) => line.type === 'step').map((line) => [line.step, line.ok])).to.deep.equal(
                [['login', true], ['registry', true], ['issued_invoices', true], ['received_invoices', true], ['sct', true], ['ccma', true], ['dfe', true]]
            );
            expect(lines.filter((line) => line.type === 'request').map((line) => line.host)).to.include.members(
                [
                    'auth.afip.gob.ar',
                    'portalcf.cloud.afip.gob.ar',
                    'fes.afip.gob.ar',
                    'ctacte.cloud.afip.gob.ar',
                    'servicios2.afip.gob.ar',
                    've.cloud.afip.gob.ar'
                ]
            );
            expect(result.stdout).to.not.include('clave-1');
            expect(await databaseOf(server.app)('sync_states').count({ n: '*' }).first()).to.deep.equal(before);

            const refusedRun = await cli('authority', 'probe', '--cuit', wrong);
            expect(refusedRun.code).to.equal(1);
            expect(refusedRun.stdout).to.match(/FALLA login .*rejected_key/);
            expect(refusedRun.stdout + refusedRun.stderr).to.not.include('mala-clave');

            // The refused key is remembered as a sync's is: not posted again until a new one.
            const logins = authority.stats().loginsByCuit[wrong];
            const again = await cli('authority', 'probe', '--cuit', wrong, '--json');
            expect(again.code).to.equal(1);
            expect(JSON.parse(again.stdout.trimEnd().split('\n').at(-1)!)).to.include({ type: 'not_tried', reason: 'key_refused', kind: 'rejected_key', retryAt: null });
            expect(JSON.parse(again.stderr.trimEnd()).error).to.include('Se puede probar de nuevo cuando se guarde una clave nueva.');
            expect(authority.stats().loginsByCuit[wrong]).to.equal(logins);
        });

        it('authority probe goes through the fleet\'s ledger gate: counted in sync status, the third probe of a day with one re-login is refused without logging in', async () => {

            const key = '20601234561';
            await addClient(key, 'clave-sonda');
            const day = arcaDay(Date.now());
            for (const [probe, logins] of [[1, 1], [2, 2]] as const) {
                const run = await cli('authority', 'probe', '--cuit', key, '--json');
                expect(run.code, `probe ${probe}: ${run.stderr}`).to.equal(0);
                expect(authority.stats().loginsByCuit[key]).to.equal(logins);
            }

            const status = internals.json(await cli('sync', 'status', '--cuit', key, '--json'));
            expect(status.clients[0].logins).to.deep.include({ keyCuit: key, day, logins: 2, passwordPosts: 2, relogins: 1, ended: null });

            const third = await cli('authority', 'probe', '--cuit', key);
            expect(third.code).to.equal(1);
            const tomorrow = arcaDay(nextArcaDayStart(Date.now()));
            expect(third.stderr.trimEnd().split('\n')).to.deep.equal([
                `Error: No se probó el ingreso: la clave de ${key} ya inició sesión en ARCA hoy (${day}) todas las veces permitidas (1 más 1 reingreso). Se puede probar de nuevo desde el ${tomorrow} a las 00:00 (hora de Buenos Aires).`
            ]);
            expect(authority.stats().loginsByCuit[key]).to.equal(2);
            expect((await cli('sync', 'status', '--cuit', key)).stdout).to.include(
                `  ingresos a ARCA hoy (${day}) con la clave de ${key}: 2 inicios de sesión, 2 envíos de la clave, 1 reingreso.`
            );
        });

        it('authority probe honours the fleet\'s firewall block of a host: no request to it before the block ends', async () => {

            const key = '20601234562';
            await addClient(key, 'clave-bloqueo');
            const host = 'auth.afip.gob.ar';
            const until = Date.now() + 2_500;
            await databaseOf(server.app)('authority_host_blocks').insert({ host, blocked_until: until, blocked_at: Date.now(), blocks: 1 });
            try {
                const run = await cli('authority', 'probe', '--cuit', key);
                expect(run.code, run.stderr).to.equal(0);
                const arrivals = authority.arrivals().filter((arrival) => arrival.host === host && arrival.at >= until - 2_500);
                expect(arrivals.length).to.be.greaterThan(0);
                expect(arrivals.filter((arrival) => arrival.at < until)).to.deep.equal([]);
            }
            finally {
                await databaseOf(server.app)('authority_host_blocks').where({ host }).delete();
            }
        });
    });
}
