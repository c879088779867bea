import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { App } from '../../app/compose.js';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { arcaHosts } from '../../adapters/authority/hosts.js';
import { connect } from '../../adapters/knex/connection.js';
import { loginLedger } from '../../adapters/knex/login-ledger.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { arcaDay, nextArcaDayStart } from '../../core/domain/arca-day.js';
import { messages } from '../../core/domain/messages.js';
import { cliMessages } from '../../cli/messages.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import { databaseOf, testEnv } from '../support/app.js';
import { spawnSyncProcess, syncEnv, until } from '../support/sync-processes.js';
import { pendingJobRow } from '../../adapters/knex/pending-job.js';

// The fleet's promises to the authority, held by the database (docs/scaling.md): three
// `sync worker` processes and a `sync --all` from cron at once, over a portfolio where
// representatives log in for several legal entities: every key logs in once, never two
// sessions of one key at once, a firewall block met by one worker stops every worker's
// requests to that host, a CAPTCHA met by one ends the key's logins for the day in all, and a
// worker's free slots take other keys' jobs; `sync status` and the probe show the ledger; a
// worker killed (kill -9) while it holds a key lets it go when its lease ends.

const internals = {
    secretKey: randomBytes(32).toString('base64'),

    // A daily window away from now, so that only the run's own jobs are due.
    window(): string {

        const minute = Math.floor((Date.now() - 3 * 3_600_000) / 60_000) % 1440;
        return minute < 5 ? '12:00-12:01' : '00:00-00:01';
    },

    env: (databaseUrl: string, authorityUrl: string): NodeJS.ProcessEnv => syncEnv(databaseUrl, internals.secretKey, authorityUrl, {
        SYNC_WINDOW: internals.window(), SYNC_BLOCK_WAIT_MS: '2000', SYNC_KEY_IDLE_MS: '5000', SYNC_LOGIN_GAP_MS: '100'
    }),

    async add(app: App, accountId: number, cuit: string, input: { password?: string; representativeId?: number } = {}): Promise<number> {

        const entity = input.representativeId !== undefined;
        const names = entity ? { nombre: null, apellido: null, razonSocial: `Empresa ${cuit}` } : { nombre: 'Ana', apellido: `Prueba ${cuit}`, razonSocial: null };
        const tipo = entity ? 'persona-juridica' as const : 'persona-fisica' as const;
        const name = displayName({ tipo, ...names });
        const client = await app.ports.clients.insert({
            publicId: randomUUID(), accountId, cuit: cuit as Cuit, tipo, ...names, representativeId: input.representativeId ?? null,
            displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: entity ? null : app.ports.secretBox.seal(
                input.password ?? 'clave'
            ), keyDigest: entity ? null : await app.ports.keyIdentity.of(cuit as Cuit, input.password ?? 'clave'), createdAt: Date.now()
        });
        return client!.id;
    }
};

// Three representatives of two legal entities each, one whose key meets a CAPTCHA (with its
// entity), and four persons: eight keys, fourteen CUITs.
const portfolio = {
    representatives: {
        '20300000011': ['30700000011', '30700000021'],
        '20300000021': ['30700000031', '30700000041'],
        '20300000031': ['30700000051', '30700000061']
    },
    captcha: { '20300000041': ['30700000071'] },
    persons: ['20300000051', '20300000061', '20300000071', '20300000081']
};

for (const database of testDatabases()) {

    describe(`a fleet of sync processes (${database.name})`, function () {

        this.timeout(300_000);
        let authority: SimulatedAuthority;
        let app: App;
        let release: () => Promise<void>;

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0, latencyMs: 4, relations: { ...portfolio.representatives, ...portfolio.captcha } });
            const db = await database.create();
            release = db.release;
            app = await composeApp(loadConfig({ ...testEnv, DATABASE_URL: db.url, ARCASYNC_SECRET_KEY: internals.secretKey }));
            const { accountId } = await seedAccount(app.ports);
            for (const [representative, entities] of Object.entries({ ...portfolio.representatives, ...portfolio.captcha })) {
                const id = await internals.add(app, accountId, representative, { password: representative in portfolio.captcha ? 'captcha-hoy' : 'clave' });
                for (const entity of entities) {
                    await internals.add(app, accountId, entity, { representativeId: id });
                }
            }

            for (const person of portfolio.persons) {
                await internals.add(app, accountId, person);
            }

            // The first syncs the clients came with are left to the run below.
            await databaseOf(app)('sync_jobs').delete();
        });

        after(async () => {

            await app.close();
            await release();
            await authority.stop();
        });

        it('two processes starting one key\'s login at once: the ledger lets one start, before either posts the password', async () => {

            const other = connect(app.config.databaseUrl);
            try {
                const ledgers = [loginLedger(databaseOf(app)), loginLedger(other)];
                const begin = { keyCuit: '20399999991' as Cuit, keyId: 'f'.repeat(64), accountId: 1, day: '2020-01-02', at: Date.now(), rules: { allowance: 1, weeklyWrongCap: 3 } };
                const permits = await Promise.all(ledgers.map((ledger) => ledger.begin(begin)));
                expect(permits.filter((permit) => permit.allowed)).to.have.length(1);
                // A start that never reached the password is given back: the next may start.
                const first = permits.find((permit) => permit.allowed)!;
                await ledgers[0]!.unposted(first.allowed ? first.attempt : 0);
                const second = await ledgers[1]!.begin(begin);
                expect(second).to.include({ allowed: true });
                await ledgers[1]!.passwordPosted(second.allowed ? second.attempt : 0, Date.now());
                expect(await ledgers[0]!.begin(begin)).to.include({ allowed: false });
                expect(await ledgers[0]!.list(begin.day, [begin.keyCuit])).to.deep.include.members([{
                    keyCuit: begin.keyCuit, day: begin.day, logins: 1, passwordPosts: 1, relogins: 0, ended: null, lastLoginAt: begin.at
                }]);
            }
            finally {
                await other.destroy();
            }
        });

        it('three workers and a cron run: one login per key, no overlapping session, a block and a CAPTCHA honoured by all, idle slots on other keys', async () => {

            const env = internals.env(app.config.databaseUrl, authority.url);
            // A block of Mis Comprobantes, met by whichever worker gets there first.
            authority.script({ host: arcaHosts.mcmp, answer: 'block', times: 1 });
            const workers = [0, 1, 2].map(
                () => spawnSyncProcess(['sync', 'worker', '--json', '--concurrency', '4', '--poll-seconds', '0.05', '--lease-seconds', '20'], env)
            );
            try {
                await until(() => workers.every((worker) => worker.events.some((event) => event.event === 'ready')), 120_000, 'the workers');
                const cron = spawnSyncProcess(['sync', '--all', '--json', '--concurrency', '4'], env);
                // Exit 3 when it ran the CAPTCHA's CUITs (they end with an error); the workers
                // may have taken every job first.
                expect([0, 3], cron.output()).to.include(await cron.exited);
                // The daily jobs the workers' schedulers plan wait for their window.
                await until(
                    async () => Number(
                        (await databaseOf(app)('sync_jobs').where(
                            (due) => due.where('status', 'running').orWhere(
                                (pending) => pending.where('status', 'pending').andWhere('run_after', '<=', Date.now())
                            )
                        ).count({ n: '*' }).first())!.n
                    ) === 0,
                    120_000,
                    'every job'
                )
                    .catch(async (err: unknown) => {

                        throw new Error(`${String(err)}: ${JSON.stringify(await databaseOf(app)('sync_jobs').select('client_id', 'status', 'run_after', 'attempts', 'lease_owner', 'last_error'))} ${JSON.stringify(await databaseOf(app)('sync_key_holds'))} ${Date.now()}`);
                    });
            }
            finally {
                for (const worker of workers) {
                    worker.child.kill('SIGTERM');
                    await worker.exited;
                }
            }

            const stats = authority.stats();
            const keys = [...Object.keys(portfolio.representatives), ...Object.keys(portfolio.captcha), ...portfolio.persons];
            // Every key posted its password once; the CAPTCHA key too, and no more.
            const jobs = await databaseOf(app)('sync_jobs').select('client_id', 'status', 'attempts', 'last_error');
            expect(Object.keys(stats.loginsByCuit).sort(), JSON.stringify(jobs)).to.deep.equal([...keys].sort());
            // The ledger every process read says the same.
            const ledgers = new Map((await loginLedger(databaseOf(app)).list(arcaDay(Date.now()))).map((entry) => [entry.keyCuit as string, entry]));
            for (const key of keys) {
                expect(stats.loginsByCuit[key], key).to.equal(1);
                expect(ledgers.get(key), `${key} ${JSON.stringify([...ledgers.values()])}`).to.include({ logins: 1, passwordPosts: 1, relogins: 0 });
            }

            expect(stats.overlappingSessions, JSON.stringify(stats.overlapsByCuit)).to.equal(0);

            // The CAPTCHA ended its key's day in every process: its entity never logged in again
            // and waits for tomorrow.
            expect(ledgers.get(Object.keys(portfolio.captcha)[0]!)?.ended).to.include({ kind: 'captcha' });
            const entity = await databaseOf(app)('clients').where({ cuit: portfolio.captcha['20300000041'][0] }).first();
            const entityJob = await databaseOf(app)('sync_jobs').where({ client_id: entity.id }).orderBy('id', 'desc').first();
            expect(entityJob.last_error).to.match(/CAPTCHA/);

            // The block stopped every process's requests to that host until it ended (one second
            // to see it; requests already sent arrive at once).
            const block = await databaseOf(app)('authority_host_blocks').where({ host: arcaHosts.mcmp }).first();
            expect(block, 'a recorded block').to.not.equal(undefined);
            const during = authority.arrivals().filter(
                (arrival) => arrival.host === arcaHosts.mcmp && arrival.at > Number(block.blocked_at) + 1_000 && arrival.at < Number(block.blocked_until)
            );
            expect(during).to.deep.equal([]);
            expect(stats.blocks).to.equal(1);

            // Jobs of one key never ran at once; some worker ran jobs of several keys at once.
            const runs = [...workers.entries()].flatMap(([index, worker]) => {

                const starts = new Map(worker.events.filter((event) => event.event === 'start').map((event) => [event.jobId!, event.at!]));
                return worker.events.filter((event) => event.event === 'end').map((event) => ({
                    worker: index,
                    clientId: event.clientId!,
                    start: starts.get(event.jobId!)!,
                    end: event.at!
                }));
            });
            const keyOf = new Map<number, string>();
            for (const row of await databaseOf(app)('clients as c').leftJoin(
                'clients as r',
                'r.id',
                'c.representative_id'
            ).select('c.id', 'c.cuit', 'r.cuit as rep')) {
                keyOf.set(Number(row.id), String(row.rep ?? row.cuit));
            }

            let severalKeys = false;
            for (const run of runs) {
                const overlapping = runs.filter((other) => other !== run && other.start < run.end && run.start < other.end);
                expect(overlapping.filter((other) => keyOf.get(other.clientId) === keyOf.get(run.clientId)), `key ${keyOf.get(run.clientId)}`).to.deep.equal([]);
                severalKeys ||= overlapping.some((other) => other.worker === run.worker);
            }

            expect(severalKeys, 'a worker ran jobs of two keys at once').to.equal(true);
        });

        it('then sync status and the probe show each key\'s logins of the day, and what ended the CAPTCHA key\'s', async () => {

            const env = { ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: authority.url, LOG_LEVEL: 'silent' };
            const cli = (...args: string[]) => runCli(app.config.databaseUrl, args, env);
            const day = arcaDay(Date.now());
            const captcha = Object.keys(portfolio.captcha)[0]!;

            const all = await cli('sync', 'status', '--json');
            expect(all.code, all.stderr).to.equal(0);
            const { logins } = JSON.parse(all.stdout);
            expect(logins).to.deep.include({ day, keys: 8, logins: 8, passwordPosts: 8, relogins: 0, ended: 1 });
            expect(logins.notable).to.have.length(1);
            expect(logins.notable[0]).to.deep.include({ keyCuit: captcha, logins: 1, passwordPosts: 1, relogins: 0 });
            expect(logins.notable[0].ended.kind).to.equal('captcha');

            const text = await cli('sync', 'status');
            expect(text.stdout).to.include(`Ingresos a ARCA hoy (${day}): 8 claves, 8 inicios de sesión, 8 envíos de la clave, 0 reingresos; 1 clave sin más ingresos hoy.`);
            expect(text.stdout).to.include(`  clave de ${captcha}: 1 inicio de sesión, 1 envío de la clave, 0 reingresos. Sin más ingresos hoy: ${messages.authority.captcha}`);

            // An entity shows its representative's key.
            const entity = await cli('sync', 'status', '--cuit', portfolio.captcha['20300000041'][0]!, '--json');
            expect(JSON.parse(entity.stdout).clients[0].logins).to.deep.include({ keyCuit: captcha, day, logins: 1, passwordPosts: 1, relogins: 0 });
            const represented = await cli('sync', 'status', '--cuit', portfolio.representatives['20300000011']![0]!);
            expect(represented.stdout).to.include(`  ingresos a ARCA hoy (${day}) con la clave de 20300000011: 1 inicio de sesión, 1 envío de la clave, 0 reingresos.\n`);

            // The probe says where the key stands before it logs in itself.
            const probe = await cli('authority', 'probe', '--cuit', portfolio.persons[0]!, '--json');
            expect(probe.code, probe.stderr).to.equal(0);
            expect(JSON.parse(probe.stdout.split('\n')[0]!)).to.deep.include({ type: 'logins', keyCuit: portfolio.persons[0], day, logins: 1, passwordPosts: 1, relogins: 0, ended: null });
            const probeText = await cli('authority', 'probe', '--cuit', captcha);
            expect(probeText.stdout.split('\n')[0]).to.equal(
                `Antes de la prueba, ingresos a ARCA hoy (${day}) con la clave de ${captcha}: 1 inicio de sesión, 1 envío de la clave, 0 reingresos. Sin más ingresos hoy: ${
                    messages.authority.captcha} (${logins.notable[0].ended.at})`
            );
        });

        it('the probe goes through the same ledger gate: refused once a CAPTCHA ended the key\'s day, it uses the re-login left and counts it', async () => {

            const env = { ARCASYNC_SECRET_KEY: internals.secretKey, AUTHORITY: 'simulated', AUTHORITY_URL: authority.url, LOG_LEVEL: 'silent' };
            const cli = (...args: string[]) => runCli(app.config.databaseUrl, args, env);
            const now = Date.now();
            const day = arcaDay(now);
            const tomorrow = arcaDay(nextArcaDayStart(now));
            const captcha = Object.keys(portfolio.captcha)[0]!;
            const loginsBefore = authority.stats().loginsByCuit[captcha];

            // The CAPTCHA the fleet met ended the key's day: the probe does not post its
            // password, says why and from when, in one line, and exits non-zero.
            const refused = await cli('authority', 'probe', '--cuit', captcha);
            expect(refused.code, refused.stdout).to.equal(1);
            expect(refused.stderr.trimEnd().split('\n')).to.deep.equal([`Error: ${cliMessages.probeNotTried({
                keyCuit: captcha, day, reason: 'day_ended', what: messages.authority.captcha, retryDay: tomorrow, relogins: 1
            })}`]);
            expect(refused.stderr).to.include(`desde el ${tomorrow} a las 00:00 (hora de Buenos Aires)`);
            expect(refused.stdout).to.not.match(/^(OK|FALLA)/m);
            const refusedJson = await cli('authority', 'probe', '--cuit', portfolio.captcha['20300000041'][0]!, '--json');
            expect(refusedJson.code).to.equal(1);
            expect(JSON.parse(refusedJson.stdout.trimEnd().split('\n').at(-1)!)).to.deep.equal({
                type: 'not_tried', reason: 'day_ended', kind: 'captcha', keyCuit: captcha, day, retryAt: new Date(nextArcaDayStart(now)).toISOString()
            });
            expect(authority.stats().loginsByCuit[captcha]).to.equal(loginsBefore);

            // A key that logged in once today: the probe uses the re-login left, and the
            // ledger (what sync status shows) counts it; the next probe finds none left.
            const person = portfolio.persons[1]!;
            const probe = await cli('authority', 'probe', '--cuit', person, '--json');
            expect(probe.code, probe.stderr).to.equal(0);
            expect(authority.stats().loginsByCuit[person]).to.equal(2);
            const status = await cli('sync', 'status', '--cuit', person);
            expect(status.stdout).to.include(`  ingresos a ARCA hoy (${day}) con la clave de ${person}: 2 inicios de sesión, 2 envíos de la clave, 1 reingreso.`);
            const again = await cli('authority', 'probe', '--cuit', person, '--json');
            expect(again.code).to.equal(1);
            expect(JSON.parse(again.stdout.trimEnd().split('\n').at(-1)!)).to.include({ type: 'not_tried', reason: 'logins_used', kind: null, keyCuit: person });
            expect(JSON.parse(again.stderr.trimEnd())).to.deep.equal({ error: cliMessages.probeNotTried({
                keyCuit: person, day, reason: 'logins_used', what: null, retryDay: tomorrow, relogins: 1
            }) });
            expect(authority.stats().loginsByCuit[person]).to.equal(2);
        });

        it('kill -9 of a worker holding a key: the key is released after the lease, another worker ends its jobs, nothing lost or run twice', async () => {

            const knex = databaseOf(app);
            const { accountId } = await seedAccount(app.ports);
            const key = '20300000091';
            const entities = ['30700000081', '30700000091'];
            authority.represent(key, ...entities);
            const representativeId = await internals.add(app, accountId, key);
            const clientIds = [representativeId, ...await Promise.all(entities.map((cuit) => internals.add(app, accountId, cuit, { representativeId })))];
            await knex('sync_jobs').whereIn('client_id', clientIds).delete();

            const env = internals.env(app.config.databaseUrl, authority.url);
            const workers = [0, 1].map(() => spawnSyncProcess(['sync', 'worker', '--json', '--concurrency', '2', '--poll-seconds', '0.05', '--lease-seconds', '3'], env));
            try {
                await until(() => workers.every((worker) => worker.events.some((event) => event.event === 'ready')), 120_000, 'the workers');
                const now = Date.now();
                await knex('sync_jobs').insert(clientIds.map((id) => pendingJobRow({ clientId: id, reason: 'manual', runAfter: now, createdAt: now })));
                // The worker that took the key, killed once it logged in.
                await until(() => (authority.stats().loginsByCuit[key] ?? 0) > 0, 60_000, 'the key\'s login');
                const holder = workers.findIndex((worker) => worker.events.some((event) => event.event === 'start' && clientIds.includes(event.clientId!)));
                expect(holder).to.not.equal(-1);
                workers[holder]!.child.kill('SIGKILL');
                await workers[holder]!.exited;
                const killedAt = Date.now();
                const survivor = workers[1 - holder]!;
                await until(async () => (await knex('sync_jobs').whereIn('client_id', clientIds).where({ reason: 'manual', status: 'done' })).length === clientIds.length, 120_000, 'the key\'s jobs');

                // Nothing lost, nothing run twice: one job per CUIT, done; the one killed was
                // taken again (its second attempt), by the other worker after the kill.
                // (The workers' schedulers add the next daily jobs, for their window.)
                const jobs = await knex('sync_jobs').whereIn('client_id', clientIds).where({ reason: 'manual' }).select('client_id', 'status', 'attempts');
                expect(jobs).to.have.length(clientIds.length);
                expect(jobs.every((job) => job.status === 'done')).to.equal(true);
                expect(jobs.filter((job) => Number(job.attempts) === 2)).to.have.length(1);
                const retaken = survivor.events.filter((event) => event.event === 'start' && clientIds.includes(event.clientId!));
                expect(retaken.length).to.be.at.least(1);
                for (const start of retaken) {
                    expect(start.at!).to.be.at.least(killedAt - 50);
                }

                // Two sessions of the key that day, never at once: the dead worker's and the
                // re-login the ledger allows.
                const stats = authority.stats();
                expect(stats.loginsByCuit[key]).to.equal(2);
                expect(stats.overlapsByCuit[key] ?? 0).to.equal(0);
                // Both starts counted; the dead worker may have died before it wrote its post.
                const [ledger] = await loginLedger(knex).list(arcaDay(Date.now()), [key as Cuit]);
                expect(ledger).to.include({ logins: 2, relogins: 1 });
                expect(ledger!.passwordPosts).to.be.within(1, 2);
            }
            finally {
                for (const worker of workers) {
                    if (worker.child.exitCode === null && worker.child.signalCode === null) {
                        worker.child.kill('SIGTERM');
                    }

                    await worker.exited;
                }
            }
        });
    });
}
