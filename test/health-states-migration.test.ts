import { expect } from 'chai';
import type { Knex } from 'knex';
import { connect } from '../adapters/knex/connection.js';
import { migrationSource } from '../adapters/knex/migrations/index.js';
import { messages } from '../core/domain/messages.js';
import { testDatabases } from './support/databases.js';

// Migration 018: failures recorded before their state was stored beside them
// (sync_states.last_state) get the state their words name, as the derivation read them, so
// that the database can page the portfolio by state; a state stored stays as it was.

for (const database of testDatabases()) {

    describe(`stored states of older failures (018_health_states, ${database.name})`, () => {

        let knex: Knex;
        let release: () => Promise<void>;

        before(async () => {

            const db = await database.create();
            release = db.release;
            knex = connect(db.url);
        });

        after(async () => {

            await knex.destroy();
            await release();
        });

        it('stores the state each older error names, in batches, and keeps the states already stored', async () => {

            const names = await migrationSource.getMigrations([]);
            for (let i = 0; i < names.indexOf('018_health_states'); i++) {
                await knex.migrate.up({ migrationSource });
            }

            const [accountId] = await knex('accounts').insert({ name: 'Estudio', writing_enabled: false, subscription: 'active', created_at: 0 });
            const errors = [
                [messages.authority.not_adhered, 'no_adherido'],
                [`${messages.authority.rejected_key} (detalle)`, 'clave_rechazada'],
                [messages.sync.loginsUsedToday, 'espera_arca'],
                [messages.sync.noRepresentative, 'sin_clave'],
                ['Un error que nadie conoce.', 'error']
            ] as const;
            const expected: [number, string, string | null][] = [];
            // More rows than a batch of the migration.
            for (let i = 0; i < 130; i++) {
                const [clientId] = await knex('clients').insert({
                    public_id: `c-${i}`, account_id: accountId, cuit: `20${String(10_000_000 + i)}6`, tipo: 'persona-fisica', nombre: 'Ana', apellido: 'García',
                    display_name: 'García, Ana', sort_name: 'garcia, ana', created_at: 0, updated_at: 0
                });
                const [error, state] = errors[i % errors.length]!;
                const rows = [
                    { system: 'sct', last_error: error, last_state: null },
                    { system: 'ccma', last_error: error, last_state: 'arca_bloqueo' },
                    { system: 'dfe', last_error: null, last_state: null }
                ];
                await knex('sync_states').insert(rows.map((row) => ({ client_id: clientId, synced_at: null, last_attempt_at: 1, failing_since: null, ...row })));
                expected.push([Number(clientId), 'ccma', 'arca_bloqueo'], [Number(clientId), 'dfe', null], [Number(clientId), 'sct', state]);
            }

            await knex.migrate.up({ migrationSource });
            const stored = await knex('sync_states').select('client_id', 'system', 'last_state').orderBy(['client_id', 'system']) as Record<string, unknown>[];
            expect(stored.map((row) => [Number(row.client_id), row.system, row.last_state])).to.deep.equal(expected);

            await knex.migrate.latest({ migrationSource });
        });
    });
}
