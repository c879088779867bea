import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import type { Principal } from '../../../core/domain/access.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { hashToken } from '../../../core/domain/token.js';
import type { Ports } from '../../../core/ports/index.js';
import { findTokenUser } from '../../../core/use-cases/find-token-user.js';
import { findVisibleClient } from '../../../core/use-cases/find-visible-client.js';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { revokeToken } from '../../../core/use-cases/staff/revoke-token.js';
import { useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';

// A request about one CUIT asks the database once for who is asking and about which client
// (Principal.named): the token lookup answers the client under the same rule as
// ClientRepository.findVisible, for every user of a batch on its own.

const cuits = { assigned: '20123456786' as Cuit, unassigned: '27234567891' as Cuit, foreign: '30712345671' as Cuit, absent: '20999999998' as Cuit };

for (const database of testDatabases()) {

    describe(`Token lookup with the CUIT a request names (${database.name})`, () => {

        let app: App;
        useApp(database, (opened) => (app = opened), { pool: { max: 10 } });

        const setup = async () => {

            const owner = await seedAccount(app.ports);
            const member = await seedUser(app.ports, owner.accountId, 'member');
            const other = await seedAccount(app.ports);
            for (const cuit of [cuits.assigned, cuits.unassigned]) {
                await addClient(app.ports, owner.accountId, { cuit, nombre: 'Ana', apellido: cuit });
            }

            await addClient(app.ports, other.accountId, { cuit: cuits.foreign, nombre: 'Otra', apellido: 'Cuenta' });
            await assignClientToUser(app.ports, { userId: member.userId, cuit: cuits.assigned });
            return { owner, member, other };
        };

        const lookup = (token: string, cuit?: Cuit) => app.ports.tokens.findPrincipal(hashToken(token), cuit);

        it('answers the client each user manages, and null for what it does not, all asked in the same turn', async () => {

            const { owner, member, other } = await setup();
            // Asked together, as concurrent requests are (one statement on MySQL).
            const [ownerAssigned, ownerUnassigned, memberAssigned, memberUnassigned, ownerForeign, otherForeign, ownerAbsent, bare] = await Promise.all([
                lookup(owner.token, cuits.assigned), lookup(owner.token, cuits.unassigned),
                lookup(member.token, cuits.assigned), lookup(member.token, cuits.unassigned),
                lookup(owner.token, cuits.foreign), lookup(other.token, cuits.foreign),
                lookup(owner.token, cuits.absent), lookup(member.token)
            ]);

            const named = (principal: Principal | null) => principal?.named && { cuit: principal.named.cuit, client: principal.named.client?.cuit ?? null };
            expect(named(ownerAssigned)).to.deep.equal({ cuit: cuits.assigned, client: cuits.assigned });
            expect(named(ownerUnassigned)).to.deep.equal({ cuit: cuits.unassigned, client: cuits.unassigned });
            expect(named(memberAssigned)).to.deep.equal({ cuit: cuits.assigned, client: cuits.assigned });
            // The owner asked for it in the same turn; the member still does not see it.
            expect(named(memberUnassigned)).to.deep.equal({ cuit: cuits.unassigned, client: null });
            expect(named(ownerForeign)).to.deep.equal({ cuit: cuits.foreign, client: null });
            expect(named(otherForeign)).to.deep.equal({ cuit: cuits.foreign, client: cuits.foreign });
            expect(named(ownerAbsent)).to.deep.equal({ cuit: cuits.absent, client: null });
            expect(bare).to.include({ userId: member.userId, role: 'member' });
            expect(bare).to.not.have.property('named');

            // The client is the one findVisible reads.
            expect(ownerAssigned!.named!.client).to.deep.equal(await app.ports.clients.findVisible(ownerAssigned!, cuits.assigned));
        });

        it('answers nothing for a revoked token, CUIT or not', async () => {

            const { owner } = await setup();
            const [token] = await app.ports.tokens.list({ userId: owner.userId });
            await revokeToken(app.ports, { id: token!.id });
            expect(await lookup(owner.token, cuits.assigned)).to.equal(null);
            expect(await lookup(owner.token)).to.equal(null);
        });

        it('hands the read its client without asking the database again, and 404 when not visible', async () => {

            const { member } = await setup();
            // A lookup by CUIT now would fail the test: the principal already holds the answer.
            const ports = { clients: { findVisible: () => Promise.reject(new Error('looked up twice')) } } as unknown as Pick<Ports, 'clients'>;
            const principal = await findTokenUser(app.ports, member.token, '20-12345678-6');
            expect((await findVisibleClient(ports, principal, cuits.assigned)).cuit).to.equal(cuits.assigned);

            const unassigned = await findTokenUser(app.ports, member.token, cuits.unassigned);
            const notFound = await findVisibleClient(ports, unassigned, cuits.unassigned).catch((err: unknown) => err);
            expect(notFound).to.include({ kind: 'not_found' });

            // A CUIT other than the one named is looked up as always.
            const other = await findVisibleClient(app.ports, unassigned, cuits.assigned);
            expect(other.cuit).to.equal(cuits.assigned);
        });
    });
}
