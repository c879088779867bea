import { expect } from 'chai';
import type { Knex } from 'knex';
import type { App } from '../../../app/compose.js';
import { dialectOf } from '../../../adapters/knex/connection.js';
import { listQueries } from '../../../adapters/knex/fast/list-queries.js';
import { createTag } from '../../../core/use-cases/staff/create-tag.js';
import { invoice, movement, notification } from '../../support/data.js';
import { databaseOf, useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount } from '../../support/fixtures.js';

// The plans of the paged lists (adapters/knex/fast/list-queries.ts), right after a bulk load and
// after ANALYZE: a page's keys come from the list's index alone (covering, in index order, no
// sort of the skipped entries), and only the page's rows are then read by primary key. That
// is what makes a deep page cost what the first one does; a plan that reads rows to skip them
// or sorts the whole range would pass every other test and still cost in proportion to the
// offset.

interface Plan {
    keys: string;              // the table reading the page's keys from the index
    index: string | null;      // null: any covering index (a count)
    rows: string | null;       // the table then read by primary key, if any
}

const internals = {

    async explain(knex: Knex, sql: string, bindings: (string | number)[]): Promise<{ mysql: Record<string, unknown>[]; sqlite: string[] }> {

        if (dialectOf(knex) === 'mysql') {
            const [rows] = await knex.raw(`explain ${sql}`, bindings) as [Record<string, unknown>[]];
            return { mysql: rows, sqlite: [] };
        }

        const rows = await knex.raw(`explain query plan ${sql}`, bindings) as { detail: string }[];
        return { mysql: [], sqlite: rows.map((row) => row.detail) };
    },

    async expectPlan(knex: Knex, name: string, sql: string, bindings: (string | number)[], plan: Plan) {

        const { mysql, sqlite } = await internals.explain(knex, sql, bindings);
        if (dialectOf(knex) === 'mysql') {
            // With a deferred join the keys are read in the derived table, the rows outside it.
            const keys = mysql.find((row) => row.table === plan.keys && (!plan.rows || row.select_type === 'DERIVED'));
            expect(keys, `${name}: ${JSON.stringify(mysql)}`).to.include(plan.index ? { key: plan.index } : {});
            expect(String(keys!.Extra), `${name}: ${JSON.stringify(mysql)}`).to.include('Using index').and.not.include('filesort');
            if (plan.rows) {
                const rows = mysql.find((row) => row.table === plan.rows && row.select_type === 'PRIMARY');
                expect(rows, `${name}: ${JSON.stringify(mysql)}`).to.include({ type: 'eq_ref', key: 'PRIMARY' });
                // The keys first, the rows after them.
                expect(mysql.indexOf(rows!)).to.be.greaterThan(mysql.findIndex((row) => String(row.table).startsWith('<derived')));
            }

            return;
        }

        expect(sqlite.some((line) => line.startsWith(`SEARCH ${plan.keys} USING COVERING INDEX ${plan.index ?? ''}`)), `${name}: ${sqlite.join(' / ')}`).to.equal(true);
        if (plan.rows) {
            expect(sqlite, `${name}: ${sqlite.join(' / ')}`).to.include(`SEARCH ${plan.rows} USING INTEGER PRIMARY KEY (rowid=?)`);
        }
    },

    // Enough rows that a scan and an index read differ, loaded the way a first sync does.
    async seed(app: App) {

        const owner = await seedAccount(app.ports);
        const clients = [];
        for (let n = 0; n < 60; n++) {
            clients.push(await addClient(app.ports, owner.accountId, { cuit: `20${String(30_000_000 + n).padStart(8, '0')}${n % 10}`, apellido: `Apellido ${n % 7}` }));
        }

        for (let n = 0; n < 30; n++) {
            await createTag(app.ports, { accountId: owner.accountId, name: `Etiqueta ${n}`, color: '#336699' });
        }

        const clientId = clients[0]!.id;
        for (const kind of ['issued', 'received'] as const) {
            const list = Array.from({ length: 3_000 }, (_, n) => invoice({ fecha: `2025-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`, numeroDesde: String(n) }));
            await app.ports.invoices.save(clientId, kind, list, Date.UTC(2026, 0, 1));
        }

        await app.ports.notifications.save(clientId, Array.from({ length: 200 }, (_, n) => notification({ arcaId: `n${n}`, fechaRecepcion: new Date(Date.UTC(2025, 0, 1 + n)).toISOString() })), Date.UTC(2026, 0, 1));
        await app.ports.ccma.replace(clientId, { saldoDeudor: 0, saldoAcreedor: 0 }, Array.from({ length: 300 }, (_, n) => movement({ orden: n, periodo: `${String(1 + (n % 12)).padStart(2, '0')}/20${10 + (n % 15)}` })), Date.UTC(2026, 0, 1));
        return { accountId: owner.accountId, clientId };
    }
};

for (const database of testDatabases()) {

    describe(`Paged list plans (${database.name})`, () => {

        let app: App;
        let seeded: Awaited<ReturnType<typeof internals.seed>>;
        useApp(database, (opened) => (app = opened));

        before(async () => {

            seeded = await internals.seed(app);
        });

        const expectPlans = async () => {

            const knex = databaseOf(app);
            const queries = listQueries(dialectOf(knex));
            const { clientId, accountId } = seeded;
            const deep = [50, 2_000];
            await internals.expectPlan(
                knex,
                'invoices',
                queries.invoices.page,
                [clientId, 'E', '2025-03-01', '2025-03-31', ...deep],
                { keys: 'k', index: 'invoices_list', rows: 'i' }
            );
            await internals.expectPlan(
                knex,
                'notifications',
                queries.notifications.page,
                [clientId, ...deep],
                { keys: 'k', index: 'dfe_notifications_list', rows: 'n' }
            );
            await internals.expectPlan(knex, 'notifications count', queries.notifications.count, [clientId], { keys: 'n', index: null, rows: null });
            await internals.expectPlan(knex, 'tags', queries.tags.page, [accountId, ...deep], {
                keys: 'k',
                index: 'tags_account_id_sort_name_unique',
                rows: 't'
            });
            await internals.expectPlan(knex, 'tags count', queries.tags.count, [accountId], { keys: 't', index: null, rows: null });
            await internals.expectPlan(
                knex,
                'ccma periods',
                queries.ccma.periods,
                [clientId, ...deep],
                { keys: 'm', index: 'ccma_movements_list', rows: null }
            );
            await internals.expectPlan(knex, 'ccma count', queries.ccma.count, [clientId], { keys: 'm', index: null, rows: null });
            const owners = queries.clients('c.account_id = ?', true);
            await internals.expectPlan(knex, 'clients', owners.page, [accountId, ...deep], {
                keys: 'c',
                index: 'clients_account_id_sort_name_id_index',
                rows: 'c'
            });
            await internals.expectPlan(knex, 'clients count', owners.count, [accountId], { keys: 'c', index: null, rows: null });
            const tagged = queries.clients(
                'c.account_id = ? and exists (select 1 from client_tags ct inner join tags t on t.id = ct.tag_id where ct.client_id = c.id and t.sort_name in (?))',
                true
            );
            await internals.expectPlan(
                knex,
                'clients with a tag',
                tagged.page,
                [accountId, 'etiqueta 1', ...deep],
                { keys: 'c', index: 'clients_account_id_sort_name_id_index', rows: 'c' }
            );
        };

        it('reads a page\'s keys from the list index and only the page\'s rows, right after a bulk load', expectPlans);

        it('keeps the same plans once the statistics are refreshed', async () => {

            if (dialectOf(databaseOf(app)) === 'mysql') {
                await databaseOf(app).raw('analyze table invoices, dfe_notifications, tags, ccma_movements, clients, user_clients, sync_states');
            }
            else {
                await databaseOf(app).raw('analyze');
            }

            await expectPlans();
        });
    });
}
