import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import type { Ports } from '../../../core/ports/index.js';
import { assignTagToClients, unassignTagFromClients } from '../../../core/use-cases/staff/assign-tag.js';
import { assignClientsToUser, unassignClientsFromUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { createTag } from '../../../core/use-cases/staff/create-tag.js';
import { databaseOf, useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';

// La cartera's selection gains or loses a tag, or is assigned to a member, all at once
// (core/use-cases/staff/assign-tag.ts, assign-client-to-user.ts): the CUITs are checked first,
// then one transaction writes. A client deleted between the check and the write is left out;
// the rest still change, and nothing fails.

const internals = {
    cuits: ['20123456786', '27234567891', '30712345674'],

    // The real ports, but the client found second is deleted right after it is found: the
    // race between la cartera's check and its write, made certain.
    deletingSecond(ports: Ports, deleted: number[]): Ports {

        let found = 0;
        const clients = Object.create(ports.clients) as Ports['clients'];
        clients.findInAccount = async (accountId, cuit) => {

            const client = await ports.clients.findInAccount(accountId, cuit);
            if (client && ++found === 2) {
                await ports.clients.delete(client.id);
                deleted.push(client.id);
            }

            return client;
        };
        return { ...ports, clients };
    }
};

for (const database of testDatabases()) {

    describe(`la cartera's selection: a tag or a member for all of it (${database.name})`, () => {

        let app: App;
        useApp(database, (opened) => (app = opened));

        const tagged = async (clients: { id: number }[]) => (await databaseOf(app)('client_tags').whereIn('client_id', clients.map((client) => client.id))).length;

        it('tags every CUIT still there when one is deleted meanwhile, and takes the tag off them the same way', async () => {

            const owner = await seedAccount(app.ports);
            const clients = [];
            for (const cuit of internals.cuits) {
                clients.push(await addClient(app.ports, owner.accountId, { cuit }));
            }

            await createTag(app.ports, { accountId: owner.accountId, name: 'Mensuales', color: '#336699' });
            const deleted: number[] = [];
            const result = await assignTagToClients(internals.deletingSecond(app.ports, deleted), { accountId: owner.accountId, cuits: internals.cuits, name: 'Mensuales' });
            expect(result.etiqueta).to.equal('Mensuales');
            expect(deleted).to.have.length(1);
            expect(await tagged(clients)).to.equal(2);

            const left = internals.cuits.filter((_, index) => index !== 1);
            await unassignTagFromClients(app.ports, { accountId: owner.accountId, cuits: left, name: 'Mensuales' });
            expect(await tagged(clients)).to.equal(0);
        });

        it('assigns every CUIT still there to a member when one is deleted meanwhile, and unassigns them the same way', async () => {

            const owner = await seedAccount(app.ports);
            const member = await seedUser(app.ports, owner.accountId, 'member');
            for (const cuit of internals.cuits) {
                await addClient(app.ports, owner.accountId, { cuit });
            }

            const deleted: number[] = [];
            await assignClientsToUser(internals.deletingSecond(app.ports, deleted), { userId: member.userId, cuits: internals.cuits });
            expect(deleted).to.have.length(1);
            const left = internals.cuits.filter((_, index) => index !== 1);
            expect(await app.ports.users.assignedCuits(member.userId)).to.deep.equal(left);

            await unassignClientsFromUser(app.ports, { userId: member.userId, cuits: left });
            expect(await app.ports.users.assignedCuits(member.userId)).to.deep.equal([]);
        });

        it('changes none of them when the tag is not the account\'s', async () => {

            const owner = await seedAccount(app.ports);
            const other = await seedAccount(app.ports);
            await createTag(app.ports, { accountId: other.accountId, name: 'Ajena', color: '#336699' });
            const clients = [];
            for (const cuit of internals.cuits) {
                clients.push(await addClient(app.ports, owner.accountId, { cuit }));
            }

            const refused = await assignTagToClients(app.ports, { accountId: owner.accountId, cuits: internals.cuits, name: 'Ajena' }).catch((err: unknown) => err);
            expect(refused).to.include({ kind: 'not_found' });
            expect(await tagged(clients)).to.equal(0);
        });
    });
}
