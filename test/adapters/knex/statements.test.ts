import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { statements } from '../../../adapters/knex/fast/statements.js';
import { databaseOf, useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccount } from '../../support/fixtures.js';

// Fixed SQL sent straight to the driver (adapters/knex/fast/statements.ts): a list page's rows can
// be read as arrays of their columns, in the SELECT's order, with the values `all` gives.

for (const database of testDatabases()) {
    describe(`Fixed SQL rows as arrays (${database.name})`, () => {

        let app: App;
        let account: number;
        useApp(database, (opened) => (app = opened));

        before(async () => {

            const { accountId } = await seedAccount(app.ports);
            account = accountId;
            await databaseOf(app)('tags').insert([
                { account_id: accountId, name: 'Beta', sort_name: 'beta', color: '#00ff00' },
                { account_id: accountId, name: 'Alfa', sort_name: 'alfa', color: '#0000ff' }
            ]);
        });

        const sql = 'select t.color, t.name from tags t where t.account_id = ? order by t.sort_name asc';

        it('answers each row as its columns in the SELECT\'s order', async () => {

            expect(await statements(databaseOf(app)).arrays(sql, [account])).to.deep.equal([['#0000ff', 'Alfa'], ['#00ff00', 'Beta']]);
        });

        it('leaves the same SQL read as objects untouched, before and after, also in a transaction', async () => {

            const sqlOf = statements(databaseOf(app));
            const objects = [{ color: '#0000ff', name: 'Alfa' }, { color: '#00ff00', name: 'Beta' }];
            expect(await sqlOf.all(sql, [account])).to.deep.equal(objects);
            expect(await sqlOf.arrays(sql, [account])).to.have.length(2);
            expect(await sqlOf.all(sql, [account])).to.deep.equal(objects);
            expect(await sqlOf.first(sql, [account])).to.deep.equal(objects[0]);

            await databaseOf(app).transaction(async (trx) => {

                const inside = statements(trx);
                expect(await inside.arrays(sql, [account])).to.deep.equal([['#0000ff', 'Alfa'], ['#00ff00', 'Beta']]);
                expect(await inside.all(sql, [account])).to.deep.equal(objects);
            });
        });
    });
}
