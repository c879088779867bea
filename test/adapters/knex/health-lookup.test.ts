import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { messages } from '../../../core/domain/messages.js';
import { syncSystems } from '../../../core/domain/sync-system.js';
import { databaseOf } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

// A failure's state is looked up, never read from its words (issue 39, item 2): a stored row
// reads the state stored beside its error, whatever the error says, on the CUIT's health and
// on the portfolio filtered by state (which the database pages). Rewording a message, or a
// message that once named another state, changes nothing of how a row already stored reads.

for (const database of testDatabases()) {

    describe(`health as a lookup of stored states (${database.name})`, () => {

        let server: TestServer;
        let user: SeededUser;
        const cuit = '20111111112';

        before(async () => {

            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64') } });
            user = await seedAccount(server.app.ports);
            const client = await addClient(server.app.ports, user.accountId, { cuit, claveArca: 'clave-buena' });
            const now = server.clock.now().getTime();
            const failing: Record<string, { last_error: string; last_state: string | null }> = {
                // A message reworded since the row was stored: no words of any version.
                sct: { last_error: 'El servicio todavía no fue adherido por el contribuyente.', last_state: 'no_adherido' },
                // The very words of another state's message: the stored state wins.
                ccma: { last_error: messages.authority.rejected_key, last_state: 'arca_bloqueo' },
                // A failure without a state (none is written since migration 020 gave every
                // older one its own): an error, though its words are the CAPTCHA's.
                dfe: { last_error: messages.authority.captcha, last_state: null }
            };
            await databaseOf(server.app)('sync_states').insert(syncSystems.map((system) => ({
                client_id: client.id,
                system,
                synced_at: failing[system] ? null : now,
                last_attempt_at: now,
                last_error: failing[system]?.last_error ?? null,
                last_state: failing[system]?.last_state ?? null,
                failing_since: failing[system] ? now : null
            })));
        });

        after(async () => {

            await server?.stop();
        });

        it('reads each system in the state stored with its error, whatever its words say', async () => {

            const body = (await server.ok(`/v1/cuits/${cuit}/estado`, user.token)).data;
            const states = Object.fromEntries((body.sistemas as { sistema: string; estado: string }[]).map((entry) => [entry.sistema, entry.estado]));
            expect(states.sct).to.equal('no_adherido');
            expect(states.ccma).to.equal('arca_bloqueo');
            expect(states.dfe).to.equal('error');
            expect(body.estado).to.equal('no_adherido');
        });

        it('pages the portfolio by the stored states, not by the words', async () => {

            const cuitsOf = async (estado: string) => ((await server.ok(`/v1/estados?estado=${estado}`, user.token)).data as { cuit: string }[]).map((entry) => entry.cuit);
            expect(await cuitsOf('no_adherido')).to.have.length(1);
            expect(await cuitsOf('clave_rechazada')).to.deep.equal([]);
            expect(await cuitsOf('captcha')).to.deep.equal([]);
        });
    });
}
