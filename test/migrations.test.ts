import { expect } from 'chai';
import type { Knex } from 'knex';
import { connect } from '../adapters/knex/connection.js';
import { migrationSource } from '../adapters/knex/migrations/index.js';
import { testDatabases } from './support/databases.js';

// A database already in service moves to the latest schema with its data: the migrations
// that derive data from existing rows fill it in.

for (const database of testDatabases()) {

    describe(`migrations over existing data (${database.name})`, () => {

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
    });
}
