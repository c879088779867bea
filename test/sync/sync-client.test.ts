import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { App } from '../../app/compose.js';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { syncDeps } from '../../app/sync.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { ClientRecord } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import type { SyncDeps } from '../../core/use-cases/sync/deps.js';
import { createKeySessions } from '../../core/use-cases/sync/key-sessions.js';
import { failurePolicy } from '../../core/use-cases/sync/sync-policy.js';
import { runJob } from '../../core/use-cases/sync/run-job.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { AuthorityFailure } from '../../core/ports/authority-client.js';
import { syncClient } from '../../core/use-cases/sync/sync-client.js';
import { testDatabases } from '../support/databases.js';
import type { FakeAuthority } from '../support/fake-authority.js';
import { fakeAuthority, fakeTaxpayer } from '../support/fake-authority.js';
import { seedAccount } from '../support/fixtures.js';
import { messages } from '../../core/domain/messages.js';
import type { TestClock } from '../support/server.js';
import { testClock } from '../support/server.js';
import { databaseOf, testEnv } from '../support/app.js';

// The sync of one CUIT (core/use-cases/sync/sync-client.ts) against an in-test authority, on
// each database: what is stored, what a failure keeps, keys, legal entities, deletions.

for (const database of testDatabases()) {

    describe(`sync of one CUIT (${database.name})`, () => {

        let app: App;
        let deps: SyncDeps;
        let authority: FakeAuthority;
        let clock: TestClock;
        let release: () => Promise<void>;
        let accountId: number;
        let sequence = 0;

        const insertClient = async (input: {
            tipo?: 'persona-fisica' | 'persona-juridica';
            password?: string | null;
            representativeId?: number;
        }): Promise<ClientRecord> => {

            sequence++;
            const tipo = input.tipo ?? 'persona-fisica';
            const cuit = `${tipo === 'persona-fisica' ? '20' : '30'}${String(30_000_000 + sequence).padStart(8, '0')}5` as Cuit;
            const names = tipo === 'persona-fisica' ? { nombre: 'Ana', apellido: `García ${sequence}`, razonSocial: null } : { nombre: null, apellido: null, razonSocial: `Empresa ${sequence} SA` };
            const name = displayName({ tipo, ...names });
            const password = input.password === undefined ? 'clave-correcta' : input.password;
            const client = await app.ports.clients.insert({
                publicId: randomUUID(), accountId, cuit, tipo, ...names,
                representativeId: input.representativeId ?? null,
                displayName: name, sortName: sortKey(name), email: null, telefono: null,
                sealedKey: tipo === 'persona-fisica' && password !== null ? app.ports.secretBox.seal(password) : null,
                keyDigest: tipo === 'persona-fisica' && password !== null ? await app.ports.keyIdentity.of(cuit, password) : null,
                createdAt: clock.now().getTime()
            });
            authority.taxpayers.set(cuit, fakeTaxpayer());
            return client!;
        };

        const states = async (clientId: number) => {

            const rows = await databaseOf(app)('sync_states').where({ client_id: clientId }).orderBy('system');
            return Object.fromEntries(rows.map((row) => [row.system, {
                syncedAt: row.synced_at === null ? null : Number(row.synced_at),
                error: row.last_error
            }]));
        };

        before(async () => {

            const db = await database.create();
            release = db.release;
            clock = testClock('2026-03-15T12:00:00Z');
            app = await composeApp(loadConfig({ ...testEnv, DATABASE_URL: db.url, ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64') }), { clock });
            accountId = (await seedAccount(app.ports)).accountId;
        });

        beforeEach(() => {

            authority = fakeAuthority();
            // These cases log one key in many times a day (each sync on its own): the ledger's
            // allowance is not what they check (test/tenants.test.ts and sync-fleet.test.ts do).
            deps = { ...syncDeps(app, authority), maxRelogins: 100 };
        });

        after(async () => {

            await app.close();
            await release();
        });

        it('stores every system of a physical person, each with its syncedAt', async () => {

            const client = await insertClient({});
            const result = await syncClient(deps, { clientId: client.id });
            expect(result.outcome).to.equal('synced');
            expect(result.systems.map((entry) => entry.system)).to.deep.equal(['registry', 'issued_invoices', 'received_invoices', 'sct', 'ccma', 'dfe']);
            expect(authority.calls.login).to.deep.equal([{ loginCuit: client.cuit, password: 'clave-correcta' }]);

            const now = clock.now().getTime();
            const synced = await states(client.id);
            for (const system of ['registry', 'issued_invoices', 'received_invoices', 'sct', 'ccma', 'dfe']) {
                expect(synced[system], system).to.deep.equal({ syncedAt: now, error: null });
            }

            const row = await databaseOf(app)('clients').where({ id: client.id }).first();
            expect([Boolean(row.monotributista), Boolean(row.autonomo), row.categoria]).to.deep.equal([true, false, 'F']);
            expect(await databaseOf(app)('invoices').where({ client_id: client.id }).count({ n: '*' }).first()).to.deep.include({ n: 3 });
            expect((await app.ports.sct.get(client.id)).deuda).to.have.length(2);
            expect(await app.ports.ccma.getBalances(client.id)).to.deep.equal({ saldoDeudor: 25000, saldoAcreedor: null });
        });

        it('converts amounts to pesos: importe = importeOriginal × tipoCambio, tipoCambio 1 for pesos', async () => {

            const client = await insertClient({});
            authority.taxpayers.get(client.cuit)!.invoices.issued.push({
                ...fakeTaxpayer().invoices.issued[0]!,
                numeroDesde: '00000011',
                numeroHasta: '00000011',
                monedaOriginal: 'PES',
                tipoCambio: 0,
                importeOriginal: 500,
                importe: 0
            });
            await syncClient(deps, { clientId: client.id });
            const page = await app.ports.invoices.list(client.id, 'issued', { fromDate: '2025-01-01', toDate: '2026-12-31' }, { limit: 10, offset: 0 });
            const byNumber = Object.fromEntries(page.items.map((item) => [item.numeroDesde, item]));
            expect(byNumber['00000009']).to.include({ monedaOriginal: 'DOL', tipoCambio: 1050.5, importeOriginal: 100, importe: 105050 });
            expect(byNumber['00000010']).to.include({ tipoCambio: 1, importeOriginal: 1210, importe: 1210 });
            expect(byNumber['00000011']).to.include({ tipoCambio: 1, importe: 500 });
        });

        it('backfills 12 months first, then reads a rolling window of three calendar months, never duplicating', async () => {

            const client = await insertClient({});
            await syncClient(deps, { clientId: client.id });
            expect(authority.calls.invoices.filter((call) => call.kind === 'issued').map((call) => call.range)).to.deep.equal([{
                fromDate: '2025-03-16',
                toDate: '2026-03-15'
            }]);

            clock.advance(86_400_000);
            authority.calls.invoices = [];
            await syncClient(deps, { clientId: client.id });
            expect(authority.calls.invoices.filter((call) => call.kind === 'issued').map((call) => call.range)).to.deep.equal([{
                fromDate: '2026-01-01',
                toDate: '2026-03-16'
            }]);
            expect(await databaseOf(app)('invoices').where({ client_id: client.id }).count({ n: '*' }).first()).to.deep.include({ n: 3 });

            // Staff's full resync reads the whole backfill again.
            authority.calls.invoices = [];
            await syncClient(deps, { clientId: client.id, full: true });
            expect(
                authority.calls.invoices.filter((call) => call.kind === 'received').map((call) => call.range)
            ).to.deep.equal([{ fromDate: '2025-03-17', toDate: '2026-03-16' }]);
            expect(await databaseOf(app)('invoices').where({ client_id: client.id }).count({ n: '*' }).first()).to.deep.include({ n: 3 });
        });

        it('enters notifications read at the authority as read on the first sync only; a stored one keeps its leidaAt', async () => {

            const client = await insertClient({});
            await syncClient(deps, { clientId: client.id });
            const first = await app.ports.notifications.list(client.id, { limit: 10, offset: 0 });
            expect(first.items.map((item) => [item.arcaId, item.leidaAt])).to.deep.equal([['102', null], ['101', '2026-01-05T13:00:00.000Z']]);

            // Later: someone reads 102 in the service; a new one arrives already read at the
            // authority; the authority shows 102 read too.
            await databaseOf(app)('dfe_notifications').where({ client_id: client.id, arca_id: '102' }).update({ leida_at: Date.parse('2026-03-01T10:00:00Z') });
            const taxpayer = authority.taxpayers.get(client.cuit)!;
            taxpayer.notifications[1]!.readAtAuthority = true;
            taxpayer.notifications.push({
                ...taxpayer.notifications[0]!,
                arcaId: '103',
                asunto: 'Nueva',
                fechaRecepcion: '2026-03-10T13:00:00.000Z',
                readAtAuthority: true
            });
            clock.advance(86_400_000);
            await syncClient(deps, { clientId: client.id });
            const second = await app.ports.notifications.list(client.id, { limit: 10, offset: 0 });
            expect(second.items.map((item) => [item.arcaId, item.leidaAt])).to.deep.equal(
                [['103', null], ['102', '2026-03-01T10:00:00.000Z'], ['101', '2026-01-05T13:00:00.000Z']]
            );
        });

        it('keeps the previous data and syncedAt of a failing system, records its error and asks for a retry', async () => {

            const client = await insertClient({});
            await syncClient(deps, { clientId: client.id });
            const before = await states(client.id);
            const sctBefore = await app.ports.sct.get(client.id);

            clock.advance(86_400_000);
            authority.taxpayers.get(client.cuit)!.sct = { deuda: [], vencimientos: [], ddjj: [] };
            authority.failures.set('sct', ['unavailable']);
            const result = await syncClient(deps, { clientId: client.id });
            expect(result).to.include({ outcome: 'partial', retry: true });
            const after = await states(client.id);
            expect(after.sct!.syncedAt).to.equal(before.sct!.syncedAt);
            expect(after.sct!.error).to.match(/^ARCA no está disponible/);
            expect(after.ccma).to.deep.equal({ syncedAt: clock.now().getTime(), error: null });
            expect(await app.ports.sct.get(client.id)).to.deep.equal(sctBefore);

            // The retry of the same job fetches only what is still missing.
            authority.calls.systems = [];
            const retried = await syncClient(deps, { clientId: client.id, skipSyncedSince: clock.now().getTime() });
            expect(retried.outcome).to.equal('synced');
            expect(authority.calls.systems.map((call) => call.system)).to.deep.equal(['sct']);
            expect((await app.ports.sct.get(client.id)).deuda).to.deep.equal([]);
            expect((await states(client.id)).sct!.error).to.equal(null);
        });

        it('does not retry a refused key until the key changes, and never shows it', async () => {

            const client = await insertClient({ password: 'clave-vieja' });
            const first = await syncClient(deps, { clientId: client.id });
            expect(first).to.include({ outcome: 'key_refused', retry: false });
            expect(authority.calls.login).to.have.length(1);
            const recorded = await states(client.id);
            expect(Object.keys(recorded)).to.have.length(6);
            expect(recorded.dfe!.error).to.match(/rechazó la clave fiscal/);
            expect(JSON.stringify(recorded)).to.not.include('clave-vieja');

            const again = await syncClient(deps, { clientId: client.id });
            expect(again.outcome).to.equal('key_refused');
            expect(authority.calls.login).to.have.length(1);

            await app.ports.clients.update(client.id, {
                sealedKey: app.ports.secretBox.seal('clave-correcta'),
                keyDigest: await app.ports.keyIdentity.of(client.cuit, 'clave-correcta')
            }, clock.now().getTime());
            // Storing the new key queued the sync that tries it.
            expect(await databaseOf(app)('sync_jobs').where({ client_id: client.id, status: 'pending' }).count({ count: '*' }).first()).to.deep.equal({ count: 1 });
            await databaseOf(app)('sync_jobs').where({ client_id: client.id }).delete();
            // The account's new key already had its try today (the refused one): it waits for
            // the next ARCA day, never labelled with the old key's refusal.
            const waiting = await syncClient(deps, { clientId: client.id });
            expect(waiting).to.include({ outcome: 'failed', retry: true });
            expect(waiting.error).to.equal(messages.sync.unprovenToday);
            expect(authority.calls.login).to.have.length(1);
            clock.advance(24 * 60 * 60_000);
            const fixed = await syncClient(deps, { clientId: client.id });
            expect(fixed.outcome).to.equal('synced');
            expect(authority.calls.login).to.have.length(2);
        });

        it('retries transient login failures, but not a blocked or expired key', async () => {

            const client = await insertClient({});
            authority.failures.set('login', ['unavailable']);
            expect(await syncClient(deps, { clientId: client.id })).to.include({ outcome: 'failed', retry: true });
            authority.failures.set('login', ['blocked_key']);
            expect(await syncClient(deps, { clientId: client.id })).to.include({ outcome: 'key_refused', retry: false });
            expect((await states(client.id)).registry!.error).to.match(/bloqueada/);
        });

        it('logs a legal entity in with its representative key and selects the represented CUIT; no registry', async () => {

            const representative = await insertClient({ password: 'clave-rep' });
            authority.taxpayers.get(representative.cuit)!.password = 'clave-rep';
            const entity = await insertClient({ tipo: 'persona-juridica', representativeId: representative.id });
            const result = await syncClient(deps, { clientId: entity.id });
            expect(result.outcome).to.equal('synced');
            expect(authority.calls.login).to.deep.equal([{ loginCuit: representative.cuit, password: 'clave-rep' }]);
            expect(new Set(authority.calls.systems.map((call) => call.cuit))).to.deep.equal(new Set([entity.cuit]));
            expect(Object.keys(await states(entity.id)).sort()).to.deep.equal(['ccma', 'dfe', 'issued_invoices', 'received_invoices', 'sct']);
            expect(await states(representative.id)).to.deep.equal({});
        });

        it('writes nothing for a client deleted while its sync runs', async () => {

            const client = await insertClient({});
            authority.beforeFetch = async (_cuit, system) => {

                if (system === 'sct') {
                    await databaseOf(app)('clients').where({ id: client.id }).delete();
                }
            };

            const result = await syncClient(deps, { clientId: client.id });
            expect(result.outcome).to.equal('gone');
            for (const table of ['sync_states', 'invoices', 'sct_debts', 'ccma_movements', 'ccma_balances', 'dfe_notifications', 'sync_key_failures']) {
                expect(await databaseOf(app)(table).where({ client_id: client.id }), table).to.have.length(0);
            }
        });

        it('writes nothing more once the lease is lost', async () => {

            const client = await insertClient({});
            let writes = 0;
            // The registry, then both kinds of invoices in one write.
            const result = await syncClient(deps, { clientId: client.id, mayWrite: async () => ++writes <= 2 });
            expect(result.outcome).to.equal('interrupted');
            expect(Object.keys(await states(client.id)).sort()).to.deep.equal(['issued_invoices', 'received_invoices', 'registry']);
        });

        it('writes a CUIT\'s issued and received invoices in one transaction, each kind with its syncedAt', async () => {

            const client = await insertClient({});
            const writes: string[] = [];
            const { save, saveKinds } = deps.invoices;
            deps.invoices = {
                ...deps.invoices,
                save: (...args) => (writes.push(args[1]), save(...args)),
                saveKinds: (...args) => (writes.push(args[1].map((entry) => entry.kind).join('+')), saveKinds(...args))
            };
            expect((await syncClient(deps, { clientId: client.id })).outcome).to.equal('synced');
            expect(writes).to.deep.equal(['issued+received']);
            const synced = await states(client.id);
            expect([synced.issued_invoices, synced.received_invoices]).to.deep.equal(
                [{ syncedAt: clock.now().getTime(), error: null }, { syncedAt: clock.now().getTime(), error: null }]
            );
            const taxpayer = authority.taxpayers.get(client.cuit)!;
            for (const kind of ['issued', 'received'] as const) {
                const page = await app.ports.invoices.list(client.id, kind, { fromDate: '2000-01-01', toDate: '2099-12-31' }, { limit: 1, offset: 0 });
                expect(page.total, kind).to.equal(taxpayer.invoices[kind].length).and.to.be.above(0);
            }
        });

        it('writes the issued invoices on their own when the received ones fail, or when the worker stops before them', async () => {

            const client = await insertClient({});
            authority.failures.set('received_invoices', ['unavailable']);
            const result = await syncClient(deps, { clientId: client.id });
            expect(result).to.include({ outcome: 'partial', retry: true });
            expect(result.systems.map((entry) => [entry.system, entry.ok])).to.deep.equal(
                [['registry', true], ['issued_invoices', true], ['received_invoices', false], ['sct', true], ['ccma', true], ['dfe', true]]
            );
            const synced = await states(client.id);
            expect(synced.issued_invoices).to.deep.equal({ syncedAt: clock.now().getTime(), error: null });
            expect(synced.received_invoices!.syncedAt).to.equal(null);
            expect(synced.received_invoices!.error).to.match(/^ARCA no está disponible/);

            const stopped = await insertClient({});
            let stopping = false;
            authority.beforeFetch = (_cuit, system) => {

                stopping ||= system === 'issued_invoices';
            };
            expect((await syncClient(deps, { clientId: stopped.id, proceed: () => !stopping })).outcome).to.equal('interrupted');
            expect(Object.keys(await states(stopped.id)).sort()).to.deep.equal(['issued_invoices', 'registry']);
            expect(authority.calls.systems.filter((call) => call.cuit === stopped.cuit).map((call) => call.system)).to.not.include('received_invoices');
        });

        it('settles jobs: done, retried with backoff, failed when attempts run out', async () => {

            const client = await insertClient({});
            const now = clock.now().getTime();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            authority.failures.set('ccma', ['unavailable']);
            const job = (await deps.jobQueue.claim({ owner: 'w', now, leaseMs: 60_000 }))!;
            const first = await runJob(deps, job, { owner: 'w', leaseMs: 60_000, stopping: () => false, retryDelayMs: () => 1000, maxAttempts: 2 });
            expect(first.disposition).to.equal('retry');
            let row = await databaseOf(app)('sync_jobs').where({ id: job.id }).first();
            expect(row).to.include({ status: 'pending' });
            expect(Number(row.run_after)).to.equal(now + 1000);

            clock.advance(1000);
            authority.failures.set('ccma', ['unavailable']);
            const second = (await deps.jobQueue.claim({ owner: 'w', now: clock.now().getTime(), leaseMs: 60_000 }))!;
            const last = await runJob(deps, second, { owner: 'w', leaseMs: 60_000, stopping: () => false, retryDelayMs: () => 1000, maxAttempts: 2 });
            expect(last.disposition).to.equal('failed');
            row = await databaseOf(app)('sync_jobs').where({ id: job.id }).first();
            expect(row).to.include({ status: 'failed', active_client_id: null });
            expect(row.last_error).to.match(/^ARCA no está disponible/);

            // The next day: its key's logins of the day (one, and one more) are spent.
            clock.advance(24 * 60 * 60_000);
            await deps.jobQueue.enqueue(client.id, 'daily', clock.now().getTime());
            const third = (await deps.jobQueue.claim({ owner: 'w', now: clock.now().getTime(), leaseMs: 60_000 }))!;
            expect((await runJob(deps, third, { owner: 'w', leaseMs: 60_000, stopping: () => false })).disposition).to.equal('done');
        });

        it('a representative of five legal entities: one login for the whole day of jobs, each entity read as itself', async () => {

            const representative = await insertClient({ password: 'clave-rep' });
            authority.taxpayers.get(representative.cuit)!.password = 'clave-rep';
            const entities = [];
            for (let i = 0; i < 5; ++i) {
                entities.push(await insertClient({ tipo: 'persona-juridica', representativeId: representative.id }));
            }

            const ids = [representative.id, ...entities.map((entity) => entity.id)];
            for (const id of ids) {
                await deps.jobQueue.enqueue(id, 'first', clock.now().getTime());
            }

            const worker = startWorker(deps, { owner: 'w', leaseMs: 60_000, concurrency: 3, drain: true, pollMs: 5, clientIds: ids });
            const summary = await worker.done;
            expect(summary.synced).to.equal(6);
            expect(authority.calls.login).to.deep.equal([{ loginCuit: representative.cuit, password: 'clave-rep' }]);
            for (const entity of entities) {
                expect(
                    authority.calls.systems.filter((call) => call.cuit === entity.cuit).map((call) => call.system).sort()
                ).to.deep.equal(['ccma', 'dfe', 'issued_invoices', 'received_invoices', 'sct']);
            }
        });

        it('a key refused for one taxpayer is not posted again for the others of the day', async () => {

            const representative = await insertClient({ password: 'clave-rep' });
            authority.taxpayers.get(representative.cuit)!.password = 'clave-rep';
            const entity = await insertClient({ tipo: 'persona-juridica', representativeId: representative.id });
            const sessions = createKeySessions(authority, clock, { ledger: deps.loginLedger });
            authority.failures.set('login', ['captcha']);
            const first = await syncClient(deps, { clientId: representative.id, sessions });
            expect(first).to.include({ outcome: 'failed', retry: false });
            expect(first.error).to.match(/CAPTCHA/);
            // The CAPTCHA ended the key's logins for the day: the entity comes back tomorrow.
            const second = await syncClient(deps, { clientId: entity.id, sessions });
            expect(second).to.include({ outcome: 'failed', retry: true });
            expect(second.retryAfterMs).to.be.above(0);
            expect(second.error).to.match(/CAPTCHA.*Hoy no se vuelve a iniciar sesión/);
            expect(authority.calls.login).to.have.length(1);
            await sessions.close();
        });

        it('a firewall block leaves the systems unsynced with a "bloqueo" error and the job waits long', async () => {

            const client = await insertClient({});
            const now = clock.now().getTime();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            authority.failures.set('issued_invoices', ['firewall_block']);
            authority.failures.set('received_invoices', ['firewall_block']);
            const job = (await deps.jobQueue.claim({ owner: 'w', now, leaseMs: 60_000 }))!;
            const result = await runJob(deps, job, { owner: 'w', leaseMs: 60_000, stopping: () => false, retryDelayMs: () => 1000 });
            expect(result.disposition).to.equal('retry');
            const saved = await states(client.id);
            expect(saved.issued_invoices).to.deep.include({ syncedAt: null });
            expect(saved.issued_invoices!.error).to.match(/bloqueo/);
            expect(saved.received_invoices!.error).to.match(/bloqueo/);
            expect(saved.sct!.error).to.equal(null);
            const row = await databaseOf(app)('sync_jobs').where({ id: job.id }).first();
            expect(Number(row.run_after)).to.equal(now + failurePolicy.blockDelayMs);
        });

        it('a failure after the password was posted is not retried for hours', async () => {

            const client = await insertClient({});
            const now = clock.now().getTime();
            await deps.jobQueue.enqueue(client.id, 'first', now);
            const job = (await deps.jobQueue.claim({ owner: 'w', now, leaseMs: 60_000 }))!;
            const login = authority.login.bind(authority);
            authority.login = async () => {

                throw new AuthorityFailure('unexpected_page', 'página desconocida después de la clave', { touchedPassword: true });
            };

            const result = await runJob(deps, job, { owner: 'w', leaseMs: 60_000, stopping: () => false, retryDelayMs: () => 1000 });
            authority.login = login;
            expect(result.disposition).to.equal('retry');
            const row = await databaseOf(app)('sync_jobs').where({ id: job.id }).first();
            expect(Number(row.run_after)).to.equal(now + failurePolicy.passwordDelayMs);
        });

        it('gives the job back when the worker stops mid-sync', async () => {

            const client = await insertClient({});
            await deps.jobQueue.enqueue(client.id, 'first', clock.now().getTime());
            const job = (await deps.jobQueue.claim({ owner: 'w', now: clock.now().getTime(), leaseMs: 60_000 }))!;
            let stopping = false;
            authority.beforeFetch = (_cuit, system) => {

                if (system === 'received_invoices') {
                    stopping = true;
                }
            };

            const result = await runJob(deps, job, { owner: 'w', leaseMs: 60_000, stopping: () => stopping });
            expect(result.disposition).to.equal('released');
            const row = await databaseOf(app)('sync_jobs').where({ id: job.id }).first();
            expect(row).to.include({ status: 'pending', attempts: 0, lease_owner: null });
        });
    });
}
