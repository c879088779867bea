import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccount, seedUser } from '../../support/fixtures.js';

// The last-owner rule where only the database can keep it (UserRepository.setRole, remove): two
// owners stepping down or leaving at once, each having read two owners, leave exactly one.

for (const database of testDatabases()) {

    describe(`team changes keep an owner under concurrency (${database.name})`, () => {

        let app: App;
        // SQLite's driver is synchronous: one process serves it through one connection (as the
        // service does), so there the changes queue; MySQL's connections race for real.
        useApp(database, (opened) => (app = opened), { pool: { max: database.name === 'mysql' ? 10 : 1 } });

        const twoOwners = async () => {

            const first = await seedAccount(app.ports);
            const second = await seedUser(app.ports, first.accountId, 'owner');
            return { accountId: first.accountId, ids: [first.userId, second.userId] as const };
        };

        const owners = async (accountId: number) => (await app.ports.users.listByAccount(accountId)).filter((user) => user.role === 'owner').length;

        it('two owners demoting each other, removing each other, or one of each: one owner stays', async () => {

            for (let round = 0; round < 4; round++) {
                const demoted = await twoOwners();
                const outcomes = await Promise.all(demoted.ids.map((id) => app.ports.users.setRole(id, 'member')));
                expect(outcomes.sort(), `round ${round}: demoting`).to.deep.equal(['changed', 'last_owner']);
                expect(await owners(demoted.accountId)).to.equal(1);

                const removed = await twoOwners();
                const gone = await Promise.all(removed.ids.map((id) => app.ports.users.remove(id)));
                expect(gone.sort(), `round ${round}: removing`).to.deep.equal(['last_owner', 'removed']);
                expect(await owners(removed.accountId)).to.equal(1);

                const mixed = await twoOwners();
                const both = await Promise.all([app.ports.users.remove(mixed.ids[0]), app.ports.users.setRole(mixed.ids[1], 'member')]);
                expect(both.filter((outcome) => outcome === 'last_owner'), `round ${round}: mixed`).to.have.length(1);
                expect(await owners(mixed.accountId)).to.equal(1);
            }
        });

        it('answers absent for a user that is not there, and changes nothing of another account', async () => {

            const { accountId, ids } = await twoOwners();
            const other = await seedAccount(app.ports);
            expect(await app.ports.users.setRole(999_999, 'member')).to.equal('absent');
            expect(await app.ports.users.remove(999_999)).to.equal('absent');
            // The other account's lone owner is its own: this account's two owners do not count for it.
            expect(await app.ports.users.setRole(other.userId, 'member')).to.equal('last_owner');
            expect(await app.ports.users.setRole(ids[0], 'member')).to.equal('changed');
            expect(await owners(accountId)).to.equal(1);
        });
    });
}
