import { expect } from 'chai';
import type { Knex } from 'knex';
import { connect } from '../../../adapters/knex/connection.js';
import { migrationSource } from '../../../adapters/knex/migrations/index.js';
import { oauthStore } from '../../../adapters/knex/repositories/oauth.js';
import { oauthAdapterFor } from '../../../servers/oauth/store.js';
import { testDatabases, useKnex } from '../../support/databases.js';
import type { TestDatabase } from '../../support/databases.js';

// A database already in service moves to the latest schema with its data: the migrations
// that derive data from existing rows fill it in.

const internals = {
    // A fresh database migrated up to the one before `name`.
    async migratedUpTo(database: TestDatabase, name: string): Promise<{ fresh: Knex; release: () => Promise<void> }> {

        const db = await database.create();
        const fresh = connect(db.url);
        const names = await migrationSource.getMigrations([]);
        for (let i = 0; i < names.indexOf(name); i++) {
            await fresh.migrate.up({ migrationSource });
        }

        return { fresh, release: db.release };
    }
};

for (const database of testDatabases()) {

    describe(`migrations over existing data (${database.name})`, () => {

        let knex: Knex;
        useKnex(database, (opened) => (knex = opened));

        it('counts the invoices already stored per client, kind and day (005_invoice_day_counts)', async () => {

            const names = await migrationSource.getMigrations([]);
            const before = names.indexOf('005_invoice_day_counts');
            for (let i = 0; i < before; i++) {
                await knex.migrate.up({ migrationSource });
            }

            const [accountId] = await knex('accounts').insert({ name: 'Estudio', writing_enabled: false, subscription: 'active', created_at: 0 });
            const [clientId] = await knex('clients').insert({
                public_id: 'c-1', account_id: accountId, cuit: '20123456786', tipo: 'persona-fisica', nombre: 'Ana', apellido: 'García',
                display_name: 'García, Ana', sort_name: 'garcia, ana', created_at: 0, updated_at: 0
            });
            const invoice = (kind: string, fecha: string, numero: string) => ({
                client_id: clientId, kind, issuer_key: '', fecha, tipo: '11', punto_venta: '00002', numero_desde: numero, numero_hasta: numero,
                tipo_cambio: 1, importe_original: 100, moneda_original: 'PES', importe: 100
            });
            await knex('invoices').insert([
                invoice('E', '2026-03-10', '1'), invoice('E', '2026-03-10', '2'), invoice('E', '2026-03-11', '3'), invoice('R', '2026-03-10', '4')
            ]);

            await knex.migrate.up({ migrationSource });
            const counts = await knex('invoice_day_counts').select('kind', 'fecha', 'count').orderBy(['kind', 'fecha']);
            expect(counts.map((row) => [row.kind, row.fecha, Number(row.count)])).to.deep.equal([
                ['E', '2026-03-10', 2], ['E', '2026-03-11', 1], ['R', '2026-03-10', 1]
            ]);

            await knex.migrate.latest({ migrationSource });
        });

        it('keeps OAuth entries by the digest of their id, tokens working, and drops unsealed keys (007_oauth_digests)', async () => {

            const { fresh, release: drop } = await internals.migratedUpTo(database, '007_oauth_digests');
            try {

                const later = Date.now() + 60_000;
                const entry = (kind: string, id: string, payload: Record<string, unknown>, expiresAt: number | null = later) => ({
                    kind,
                    id,
                    payload: JSON.stringify(payload),
                    grant_id: null,
                    user_code: null,
                    uid: null,
                    expires_at: expiresAt,
                    consumed_at: null
                });
                await fresh('oauth_entries').insert([
                    entry('AccessToken', 'token-de-acceso', { jti: 'token-de-acceso', kind: 'AccessToken', accountId: '7' }),
                    entry('AccessToken', 'token-vencido', { jti: 'token-vencido' }, Date.now() - 1000),
                    entry('Client', 'cliente-1', { client_id: 'cliente-1' }, null),
                    entry('ServerSecret', 'cookies', { value: ['clave-sin-sellar'] }, null)
                ]);

                await fresh.migrate.up({ migrationSource });
                const rows = await fresh('oauth_entries').select('kind', 'id', 'payload').orderBy('kind');
                expect(JSON.stringify(rows)).to.not.contain('token-de-acceso').and.not.contain('clave-sin-sellar').and.not.contain('token-vencido');

                const adapter = oauthAdapterFor(oauthStore(fresh));
                expect(await new adapter('AccessToken').find('token-de-acceso')).to.deep.equal({ jti: 'token-de-acceso', kind: 'AccessToken', accountId: '7' });
                expect(await new adapter('Client').find('cliente-1')).to.deep.equal({ client_id: 'cliente-1' });
                expect(await new adapter('ServerSecret').find('cookies')).to.equal(undefined);
                await fresh.migrate.latest({ migrationSource });
            }
            finally {
                await fresh.destroy();
                await drop();
            }
        });

        it('keeps the running jobs, their one-per-key rule and their cascade when SQLite declares the key\'s width (026_sqlite_active_key)', async () => {

            const { fresh, release: drop } = await internals.migratedUpTo(database, '026_sqlite_active_key');
            try {

                const [accountId] = await fresh('accounts').insert({ name: 'Estudio', writing_enabled: false, subscription: 'active', created_at: 0 });
                const client = async (cuit: string) => Number((await fresh('clients').insert({
                    public_id: `c-${cuit}`, account_id: accountId, cuit, tipo: 'persona-fisica', nombre: 'Ana', apellido: 'García',
                    display_name: 'García, Ana', sort_name: 'garcia, ana', created_at: 0, updated_at: 0
                }))[0]);
                const [first, second] = [await client('20123456786'), await client('27123456780')];
                const key = 'k'.repeat(64);
                const job = (clientId: number) => ({
                    client_id: clientId, reason: 'daily', status: 'running', run_after: 0, attempts: 1, created_at: 0, active_client_id: clientId, active_key: key
                });
                await fresh('sync_jobs').insert(job(first));

                await fresh.migrate.up({ migrationSource });
                expect(await fresh('sync_jobs').select('client_id', 'active_key')).to.deep.equal([{ client_id: first, active_key: key }]);
                const refused = await fresh('sync_jobs').insert(job(second)).then(() => null, (err: { message?: string }) => err.message);
                expect(refused, 'one running job per key').to.match(/unique|duplicate/i);
                await fresh('clients').where({ id: first }).delete();
                expect(await fresh('sync_jobs')).to.deep.equal([]);
                await fresh.migrate.latest({ migrationSource });
            }
            finally {
                await fresh.destroy();
                await drop();
            }
        });
    });
}
