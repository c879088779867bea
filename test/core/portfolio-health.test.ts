import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { messages } from '../../core/domain/messages.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { syncSystems } from '../../core/domain/sync-system.js';
import { databaseOf } from '../support/app.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// GET /v1/estados on a portfolio larger than what the service derives at a time (500 CUITs):
// filters, totals and pages agree with the CUIT list across those chunks, and an unfiltered
// page reads the states of its own CUITs, not the account's.

const internals = {
    persons: 999,
    entities: 200,
    cuit: (prefix: string, index: number): string => `${prefix}${String(10_000_000 + index).padStart(8, '0')}0`
};

for (const database of testDatabases()) {

    describe(`the portfolio's health on a large account (${database.name})`, function () {

        this.timeout(180_000);
        let server: TestServer;
        let user: SeededUser;
        // The CUITs in the list's order, and those of each state.
        let order: string[];
        const byState = new Map<string, Set<string>>();

        const estados = async (query: string) => (await server.ok(`/v1/estados?${query}`, user.token));

        before(async () => {

            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64') } });
            user = await seedAccount(server.app.ports);
            const db = databaseOf(server.app);
            const now = server.clock.now().getTime();
            const states: Record<string, unknown>[] = [];
            const mark = (state: string, cuit: string) => byState.set(state, (byState.get(state) ?? new Set()).add(cuit));

            // A representative whose key ARCA refused: it and its 200 entities are clave_rechazada.
            const representative = await addClient(server.app.ports, user.accountId, { cuit: internals.cuit('20', 0), apellido: 'Zeta' });
            const sealed = server.app.ports.secretBox.seal('rechazada');
            const digest = await server.app.ports.keyIdentity.of(representative.cuit as Cuit, 'rechazada');
            await db('clients').where({ id: representative.id }).update({ clave_arca: sealed, key_digest: digest });
            await db('sync_key_failures').insert({ client_id: representative.id, key_fingerprint: digest, kind: 'rejected_key', failed_at: now });
            mark('clave_rechazada', representative.cuit);
            for (let i = 1; i <= internals.entities; i++) {
                const entity = await addClient(server.app.ports, user.accountId, {
                    cuit: internals.cuit('30', i),
                    tipo: 'persona-juridica',
                    razonSocial: `Empresa ${i}`,
                    representativeId: representative.id
                });
                mark('clave_rechazada', entity.cuit);
            }

            // People with working keys: every third one's SCT is not adhered, the rest are ok.
            for (let i = 1; i <= internals.persons; i++) {
                const person = await addClient(server.app.ports, user.accountId, {
                    cuit: internals.cuit('27', i),
                    apellido: `Persona ${String(i).padStart(4, '0')}`,
                    claveArca: `clave-${i}`
                });
                const notAdhered = i % 3 === 0;
                for (const system of syncSystems) {
                    const failing = notAdhered && system === 'sct';
                    states.push({
                        client_id: person.id,
                        system,
                        synced_at: failing ? null : now,
                        last_attempt_at: now,
                        last_error: failing ? messages.authority.not_adhered : null,
                        last_state: failing ? 'no_adherido' : null,
                        failing_since: failing ? now : null
                    });
                }

                mark(notAdhered ? 'no_adherido' : 'ok', person.cuit);
            }

            for (let i = 0; i < states.length; i += 200) {
                await db('sync_states').insert(states.slice(i, i + 200));
            }

            order = await db('clients').where({ account_id: user.accountId }).orderBy([{ column: 'sort_name' }, { column: 'id' }]).pluck('cuit') as string[];
            expect(order).to.have.length(1 + internals.entities + internals.persons);
        });

        after(async () => {

            await server?.stop();
        });

        it('pages the unfiltered portfolio as the CUIT list, reading only the page\'s states', async () => {

            // What the health repository read for the page: its clients (with those their keys
            // reach) and their systems' states (it reads them straight from the driver, so
            // they are counted at the port).
            const health = server.app.ports.health;
            const rows = health.rows;
            let clientRows = 0;
            let stateRows = 0;
            health.rows = async (...args) => {

                const read = await rows(...args);
                clientRows += read.clients.length;
                stateRows += read.clients.reduce((sum, client) => sum + client.systems.length, 0);
                return read;
            };
            let page;
            try {
                // People's CUITs (after the entities in the list's order), six systems each.
                page = await estados('limit=10&offset=400');
            }
            finally {
                health.rows = rows;
            }

            expect(page.pagination).to.deep.equal({ limit: 10, offset: 400, total: order.length });
            expect(page.data.map((entry: { cuit: string }) => entry.cuit)).to.deep.equal(order.slice(400, 410));
            expect(page.data.every((entry: { cuit: string }) => entry.cuit.startsWith('27'))).to.equal(true);
            expect(clientRows).to.equal(10);
            expect(stateRows).to.equal(10 * syncSystems.length);

            const last = await estados('limit=50&offset=1150');
            expect(last.data.map((entry: { cuit: string }) => entry.cuit)).to.deep.equal(order.slice(1150, 1200));
            const list = await server.ok('/v1/cuits?limit=50&offset=1150', user.token);
            expect(list.data.map((entry: { cuit: string }) => entry.cuit)).to.deep.equal(order.slice(1150, 1200));
            expect(new Set(last.data.map((entry: { estado: string }) => entry.estado))).to.satisfy(
                (seen: Set<string>) => [...seen].every((state) => ['ok', 'no_adherido', 'clave_rechazada'].includes(state))
            );
        });

        it('filters by state and by attention across the whole portfolio, with totals and pages in the list\'s order', async () => {

            const inOrder = (...states: string[]) => order.filter((cuit) => states.some((state) => byState.get(state)!.has(cuit)));
            const rejected = inOrder('clave_rechazada');
            const page = await estados('estado=clave_rechazada&limit=50&offset=180');
            expect(page.pagination).to.deep.equal({ limit: 50, offset: 180, total: 201 });
            expect(page.data.map((entry: { cuit: string }) => entry.cuit)).to.deep.equal(rejected.slice(180));
            expect(page.data.every((entry: { estado: string; clave: { estado: string } }) => entry.estado === 'clave_rechazada' && entry.clave.estado === 'clave_rechazada')).to.equal(true);

            const attention = inOrder('clave_rechazada', 'no_adherido');
            const needs = await estados('requiere_atencion=true&limit=100&offset=450');
            expect(needs.pagination.total).to.equal(201 + 333);
            expect(needs.data.map((entry: { cuit: string }) => entry.cuit)).to.deep.equal(attention.slice(450, 550));

            const either = await estados('estado=ok&estado=no_adherido&limit=5&offset=995');
            expect(either.pagination.total).to.equal(999);
            expect(either.data.map((entry: { cuit: string }) => entry.cuit)).to.deep.equal(inOrder('ok', 'no_adherido').slice(995));

            const none = await estados('estado=captcha');
            expect(none).to.deep.include({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
        });
    });
}
