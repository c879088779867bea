import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrationSource } from '../../../adapters/knex/migrations/index.js';
import { messages } from '../../../core/domain/messages.js';
import { testDatabases, useKnex } from '../../support/databases.js';

// Migration 018: failures recorded before their state was stored beside them
// (sync_states.last_state) get the state their words name, as the derivation read them, so
// that the database can page the portfolio by state; a state stored stays as it was.
// Migration 020: health reads stored states only, so what an older process left without one
// gets it from its words, once: a failure of sync_states, and a system's change of health
// waiting in the outbox (its state and the one before, in `data`). The words are the messages
// as the sync wrote them (frozen in the migration), not today's.

for (const database of testDatabases()) {

    describe(`stored states of older failures (018_health_states, 020_health_kinds, ${database.name})`, () => {

        let knex: Knex;
        useKnex(database, (opened) => (knex = opened), { each: true });

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

        it('stores the state each older failure and change of health names, and keeps what was stored', async () => {

            const names = await migrationSource.getMigrations([]);
            for (let i = 0; i < names.indexOf('020_health_kinds'); i++) {
                await knex.migrate.up({ migrationSource });
            }

            const [accountId] = await knex('accounts').insert({ name: 'Estudio', writing_enabled: false, subscription: 'active', created_at: 0 });
            const [clientId] = await knex('clients').insert({
                public_id: 'c-1', account_id: accountId, cuit: '20123456786', tipo: 'persona-fisica', nombre: 'Ana', apellido: 'García',
                display_name: 'García, Ana', sort_name: 'garcia, ana', created_at: 0, updated_at: 0
            });
            // Written by a process of an older version after 018 ran: no state beside the error.
            await knex('sync_states').insert([
                { system: 'sct', last_error: 'La clave fiscal venció en ARCA y hay que cambiarla. (detalle)', last_state: null },
                { system: 'ccma', last_error: 'Un error que nadie conoce.', last_state: null },
                { system: 'dfe', last_error: 'ARCA pidió resolver un CAPTCHA para ingresar.', last_state: 'arca_bloqueo' },
                { system: 'registry', last_error: null, last_state: null }
            ].map((row) => ({ client_id: clientId, synced_at: null, last_attempt_at: 1, failing_since: null, ...row })));

            const event = (id: number, fields: Record<string, unknown>) => ({
                id, public_id: `evt_${id}`, account_id: accountId, client_id: clientId, cuit: '20123456786', type: 'salud.cambio', sync_system: 'sct',
                previous_error: null, error: null, data: null, created_at: 0, fanned_out: false, ...fields
            });
            await knex('webhook_events').insert([
                // A failure, as recordFailure wrote it: the state before in `data`, the new one in the words.
                event(1, { error: 'ARCA pidió un segundo factor de autenticación.', data: JSON.stringify({ estadoAnterior: 'ok' }) }),
                // A recovery, as markSynced wrote it: only the error it left.
                event(2, { previous_error: 'El servicio de ARCA no está adherido para el CUIT.' }),
                // The first failure of a system never synced.
                event(3, { error: 'Error interno al sincronizar; se reintentará.', data: JSON.stringify({ estadoAnterior: 'pendiente' }) }),
                // A key's change (no system) and another event: left as they are.
                event(4, { sync_system: null, data: JSON.stringify({ clave: '20-12345678-6', estado: 'captcha', estadoAnterior: 'funciona', desde: 0 }) }),
                event(5, { type: 'dfe.nuevas', data: JSON.stringify({ nuevas: 1 }) })
            ]);

            await knex.migrate.up({ migrationSource });

            const states = await knex('sync_states').select('system', 'last_state').orderBy('system') as { system: string; last_state: string | null }[];
            expect(Object.fromEntries(states.map((row) => [row.system, row.last_state]))).to.deep.equal({
                ccma: 'error', dfe: 'arca_bloqueo', registry: null, sct: 'clave_vencida'
            });
            const events = await knex('webhook_events').select('id', 'data').orderBy('id') as { id: number; data: string }[];
            expect(events.map((row) => JSON.parse(row.data))).to.deep.equal([
                { estado: 'segundo_factor', estadoAnterior: 'ok' },
                { estado: 'ok', estadoAnterior: 'no_adherido' },
                { estado: 'error', estadoAnterior: 'pendiente' },
                { clave: '20-12345678-6', estado: 'captcha', estadoAnterior: 'funciona', desde: 0 },
                { nuevas: 1 }
            ]);

            await knex.migrate.latest({ migrationSource });
        });
    });
}
