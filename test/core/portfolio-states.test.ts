import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { arcaDay } from '../../core/domain/arca-day.js';
import { healthStates, needsAttention } from '../../core/domain/health.js';
import { syncSystems } from '../../core/domain/sync-system.js';
import { databaseOf } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// GET /v1/estados filtered by state or attention picks its page in the database
// (adapters/knex/health-states.ts): over a portfolio where every record the derivation reads
// varies (keys missing, refused while they are the refused one or before a new key, ARCA days
// ended by the key's own logins today or yesterday or by another key, systems missing, pending,
// ok, failing with a stored state or with only the words of older rows; legal entities with and without a representative, or one of another
// account), every filter answers exactly the CUITs, in the list's order, and the totals that
// the unfiltered pages (each CUIT derived in TypeScript) show, for an owner and for a member.

interface Entry {
    cuit: string;
    estado: string;
    requiereAtencion: boolean;
}

const internals = {
    persons: 150,
    entities: 50,

    // A fixed sequence of choices, the same on every run and database.
    random(seed: number): (n: number) => number {

        let state = seed;
        return (n: number) => {

            state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
            return Math.floor(state / 2_147_483_648 * n);
        };
    },

    cuit: (prefix: string, index: number): string => `${prefix}${String(20_000_000 + index).padStart(8, '0')}0`
};

for (const database of testDatabases()) {

    describe(`the portfolio filtered by state agrees with each CUIT's derived state (${database.name})`, function () {

        this.timeout(180_000);
        let server: TestServer;
        let owner: SeededUser;
        let member: SeededUser;

        // Every page of the unfiltered portfolio: each CUIT's state as the derivation says it.
        const derived = async (token: string): Promise<Entry[]> => {

            const entries: Entry[] = [];
            for (let offset = 0; ; offset += 100) {
                const page = await server.ok(`/v1/estados?limit=100&offset=${offset}`, token);
                entries.push(...page.data);
                if (page.data.length < 100) {
                    expect(page.pagination.total).to.equal(entries.length);
                    return entries;
                }
            }
        };

        // Every page of a filter, in pages of 7 (several pages, the last one short).
        const filtered = async (token: string, query: string): Promise<{ cuits: string[]; totals: number[] }> => {

            const cuits: string[] = [];
            const totals: number[] = [];
            for (let offset = 0; ; offset += 7) {
                const page = await server.ok(`/v1/estados?${query}&limit=7&offset=${offset}`, token);
                cuits.push(...page.data.map((entry: Entry) => entry.cuit));
                totals.push(page.pagination.total);
                if (page.data.length < 7) {
                    return { cuits, totals };
                }
            }
        };

        const agree = async (token: string, reference: Entry[], query: string, admits: (entry: Entry) => boolean) => {

            const expected = reference.filter(admits).map((entry) => entry.cuit);
            const { cuits, totals } = await filtered(token, query);
            expect(cuits, query).to.deep.equal(expected);
            expect(new Set(totals), query).to.deep.equal(new Set([expected.length]));
            // A page past the last one still counts them.
            const past = await server.ok(`/v1/estados?${query}&limit=5&offset=${expected.length + 3}`, token);
            expect(past.data, query).to.deep.equal([]);
            expect(past.pagination.total, query).to.equal(expected.length);
        };

        before(async () => {

            server = await startTestServer(database, {
                env: { ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_MONTH: '100000' }
            });
            owner = await seedAccount(server.app.ports);
            member = await seedUser(server.app.ports, owner.accountId, 'member');
            const other = await seedAccount(server.app.ports);
            const db = databaseOf(server.app);
            const now = server.clock.now().getTime();
            const today = arcaDay(now);
            const yesterday = arcaDay(now - 86_400_000);
            const pick = internals.random(36);
            const choose = <T>(options: readonly T[]): T => options[pick(options.length)]!;

            const foreign = await addClient(server.app.ports, other.accountId, { cuit: internals.cuit('20', 999), claveArca: 'de-otra-cuenta' });
            const persons = [];
            for (let i = 0; i < internals.persons; i++) {
                const keyed = pick(10) > 0;
                persons.push(await addClient(server.app.ports, owner.accountId, {
                    cuit: internals.cuit('20', i),
                    apellido: `Persona ${pick(40)}`,
                    ...(keyed ? { claveArca: `clave-${i}` } : {})
                }));
            }

            const entities = [];
            for (let i = 0; i < internals.entities; i++) {
                const representative = choose(['own', 'own', 'own', 'own', 'own', 'own', 'none', 'foreign'] as const);
                entities.push(await addClient(server.app.ports, owner.accountId, {
                    cuit: internals.cuit('30', i),
                    tipo: 'persona-juridica',
                    razonSocial: `Empresa ${pick(40)}`,
                    ...(representative === 'none' ? {} : { representativeId: representative === 'foreign' ? foreign.id : choose(persons).id })
                }));
            }

            // The keys: refused while they are the refused one, or a refusal of an older key;
            // ARCA days ended (or not) by their own logins, today or yesterday.
            const keys = await db('clients').select('id', 'key_digest').where({ account_id: owner.accountId }).whereNotNull('key_digest') as { id: number; key_digest: string }[];
            for (const key of keys) {
                const refusal = pick(8);
                if (refusal < 2) {
                    await db('sync_key_failures').insert({
                        client_id: key.id,
                        key_fingerprint: refusal === 0 ? key.key_digest : 'f'.repeat(64),
                        kind: choose(['rejected_key', 'blocked_key', 'expired_key', 'captcha', 'algo_raro']),
                        failed_at: now - 3_600_000
                    });
                }

                for (let n = pick(6) - 3; n > 0; n--) {
                    const outcome = choose(['ok', 'captcha', 'second_factor', 'rejected_key', 'expired_key', 'unavailable', null]);
                    await db('sync_login_attempts').insert({
                        key_cuit: '20000000000',
                        key_id: pick(6) === 0 ? 'e'.repeat(64) : key.key_digest,
                        account_id: owner.accountId,
                        day: pick(4) === 0 ? yesterday : today,
                        proven: true,
                        relogin: false,
                        started_at: now - 600_000,
                        posted_at: now - 600_000,
                        outcome,
                        ends_day: pick(3) > 0 && outcome !== 'ok'
                    });
                }
            }

            // The systems: some never recorded, some recorded and never finished, ok, failing
            // with their state stored, or without one (none is written since migration 020: read as
            // 'error', whatever the words). Legal entities get a registry row they have no use for.
            const words = ['La clave fiscal está bloqueada en ARCA.', 'Un error que nadie conoce.'];
            const rows: Record<string, unknown>[] = [];
            for (const client of [...persons, ...entities]) {
                for (const system of syncSystems) {
                    const kind = choose(['none', 'pending', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'stored', 'stored', 'stored', 'words'] as const);
                    if (kind === 'none') {
                        continue;
                    }

                    const fails = kind === 'stored' || kind === 'words';
                    rows.push({
                        client_id: client.id,
                        system,
                        synced_at: kind === 'ok' || (fails && pick(2)) ? now - 7_200_000 : null,
                        last_attempt_at: kind === 'pending' ? now : now - 3_600_000,
                        last_error: fails ? `${choose(words)} (intento ${pick(100)})` : null,
                        last_state: kind === 'stored' ? choose(healthStates) : null,
                        failing_since: fails ? now - 3_600_000 : null
                    });
                }
            }

            for (let i = 0; i < rows.length; i += 100) {
                await db('sync_states').insert(rows.slice(i, i + 100));
            }

            // The member manages a third of the CUITs.
            const assigned = [...persons, ...entities].filter(() => pick(3) === 0);
            await db('user_clients').insert(assigned.map((client) => ({ user_id: member.userId, client_id: client.id })));
        });

        after(async () => {

            await server?.stop();
        });

        it('answers each state, each attention and their combinations as the derivation does', async () => {

            const reference = await derived(owner.token);
            expect(reference).to.have.length(internals.persons + internals.entities);
            // The portfolio is varied: every state is someone's.
            const seen = new Set(reference.map((entry) => entry.estado));
            expect([...seen].sort(), 'every state').to.deep.equal([...healthStates].sort());

            for (const state of healthStates) {
                await agree(owner.token, reference, `estado=${state}`, (entry) => entry.estado === state);
            }

            await agree(owner.token, reference, 'requiere_atencion=true', (entry) => entry.requiereAtencion);
            await agree(owner.token, reference, 'requiere_atencion=false', (entry) => !entry.requiereAtencion);
            await agree(owner.token, reference, 'estado=pendiente&estado=clave_rechazada&estado=ok', (entry) => ['pendiente', 'clave_rechazada', 'ok'].includes(entry.estado));
            await agree(owner.token, reference, 'estado=captcha&estado=no_adherido&requiere_atencion=true', (entry) => entry.estado === 'no_adherido');
            await agree(owner.token, reference, 'estado=sin_clave&estado=espera_arca&requiere_atencion=false', (entry) => entry.estado === 'espera_arca');
            expect(reference.every((entry) => entry.requiereAtencion === needsAttention(entry.estado as never))).to.equal(true);
        });

        it('reads the systems of the page\'s CUITs only, not the account\'s', async () => {

            const db = databaseOf(server.app);
            let stateRows = 0;
            const count = (response: unknown, query: { sql?: string }) => {

                if (/sync_states/.test(query.sql ?? '') && Array.isArray(response)) {
                    stateRows += response.length;
                }
            };
            db.on('query-response', count);
            // The health repository reads the page's states straight from the driver: counted at
            // its port, by the systems it answers.
            const health = server.app.ports.health;
            const rows = health.rows;
            health.rows = async (...args) => {

                const read = await rows(...args);
                stateRows += read.clients.reduce((sum, client) => sum + client.systems.length, 0);
                return read;
            };
            let page;
            try {
                page = await server.ok('/v1/estados?requiere_atencion=true&limit=5&offset=20', owner.token);
            }
            finally {
                db.removeListener('query-response', count);
                health.rows = rows;
            }

            expect(page.data).to.have.length(5);
            // The page's ids, then the systems of those CUITs and of the CUITs their keys reach
            // (a key's state comes from all of them): far fewer than the account's.
            const accountRows = Number((await db('sync_states').count({ n: '*' }).first())!.n);
            expect(stateRows).to.be.above(0).and.below(accountRows / 4);
        });

        it('answers a member\'s filters over the CUITs assigned to the member only', async () => {

            const reference = await derived(member.token);
            expect(reference.length).to.be.within(30, 120);
            for (const state of ['ok', 'pendiente', 'sin_clave', 'clave_rechazada', 'captcha', 'no_adherido']) {
                await agree(member.token, reference, `estado=${state}`, (entry) => entry.estado === state);
            }

            await agree(member.token, reference, 'requiere_atencion=true', (entry) => entry.requiereAtencion);
        });
    });
}
