import { expect } from 'chai';
import type { Principal } from '../../core/domain/access.js';
import { keepsAnOwner } from '../../core/domain/access.js';
import { invitationLifetimeMs } from '../../core/domain/invitation.js';
import { messages } from '../../core/domain/messages.js';
import { minPasswordLength, verifyPassword } from '../../core/domain/password.js';
import { acceptInvitation, findInvitation } from '../../core/use-cases/accept-invitation.js';
import { assignClientToUser, unassignClientFromUser } from '../../core/use-cases/staff/assign-client-to-user.js';
import { changeUserRole } from '../../core/use-cases/staff/change-user-role.js';
import { inviteUser, renewInvitation } from '../../core/use-cases/staff/invite-user.js';
import { listTeam } from '../../core/use-cases/staff/list-team.js';
import { removeUser } from '../../core/use-cases/staff/remove-user.js';
import type { MemoryPorts } from '../support/memory-ports.js';
import { memoryPorts, refusalOf } from '../support/memory-ports.js';

// The team (docs/panel.md, El equipo; the CLI's `user` commands): an account keeps an owner,
// an invitation link sets one password within its week, and what goes with a removed user.
// Run on the in-memory ports; the same over HTTP on both databases: panel-team.test.ts.

const internals = {
    password: 'una clave larga de prueba',

    async unusable(call: Promise<unknown>): Promise<void> {

        const err = await refusalOf(call);
        expect(err.kind).to.equal('not_found');
        expect(err.message).to.equal(messages.team.invitationUnusable);
    }
};

describe('the team: owners, invitation links, removal (core, in memory)', () => {

    let memory: MemoryPorts;
    let owner: Principal;

    beforeEach(() => {

        memory = memoryPorts();
        owner = memory.account();
    });

    describe('an account keeps an owner', () => {

        it('keepsAnOwner: after the change, some user is an owner', () => {

            const team = [{ id: 1, role: 'owner' as const }, { id: 2, role: 'member' as const }];
            expect(keepsAnOwner(team, { userId: 1, role: 'member' })).to.equal(false);
            expect(keepsAnOwner(team, { userId: 1, role: null })).to.equal(false);
            expect(keepsAnOwner(team, { userId: 2, role: 'owner' })).to.equal(true);
            expect(keepsAnOwner(team, { userId: 2, role: null })).to.equal(true);
            expect(keepsAnOwner([...team, { id: 3, role: 'owner' }], { userId: 1, role: null })).to.equal(true);
        });

        it('refuses to demote or remove the last owner (409), and allows it once another owner exists', async () => {

            const demoted = await refusalOf(changeUserRole(memory.ports, { userId: owner.userId, role: 'member' }));
            expect(demoted.kind).to.equal('conflict');
            expect(demoted.message).to.equal(messages.team.lastOwner);
            const removed = await refusalOf(removeUser(memory.ports, { userId: owner.userId }));
            expect(removed.kind).to.equal('conflict');
            expect(memory.world.users.map((user) => user.role)).to.deep.equal(['owner']);

            const member = memory.member(owner.accountId);
            await changeUserRole(memory.ports, { userId: member.userId, role: 'owner' });
            await changeUserRole(memory.ports, { userId: owner.userId, role: 'member' });
            expect(memory.world.users.map((user) => user.role)).to.deep.equal(['member', 'owner']);
            const last = await refusalOf(removeUser(memory.ports, { userId: member.userId }));
            expect(last.message).to.equal(messages.team.lastOwner);
        });

        it('the repository\'s own check refuses what another change made the last owner meanwhile', async () => {

            const other = memory.member(owner.accountId);
            await changeUserRole(memory.ports, { userId: other.userId, role: 'owner' });
            // Both owners read two owners; the first demotion lands before the second writes.
            const listed = memory.ports.users.listByAccount.bind(memory.ports.users);
            memory.ports.users.listByAccount = async (accountId) => {

                const team = await listed(accountId);
                memory.world.users.find((user) => user.id === other.userId)!.role = 'member';
                return team;
            };

            const err = await refusalOf(changeUserRole(memory.ports, { userId: owner.userId, role: 'member' }));
            expect(err.message).to.equal(messages.team.lastOwner);
            expect(memory.world.users.find((user) => user.id === owner.userId)!.role).to.equal('owner');
        });

        it('acts only on the users of the account it is given: another account\'s user is not found', async () => {

            const elsewhere = memory.account();
            for (const call of [
                changeUserRole(memory.ports, { userId: elsewhere.userId, role: 'member', by: owner }),
                removeUser(memory.ports, { userId: elsewhere.userId, by: owner }),
                renewInvitation(memory.ports, { userId: elsewhere.userId, by: owner }),
                assignClientToUser(memory.ports, { userId: elsewhere.userId, cuit: '20123456786', by: owner })
            ]) {
                expect((await refusalOf(call)).kind).to.equal('not_found');
            }
        });
    });

    describe('invitation links', () => {

        it('sets the password once: the link then fails like an unknown one', async () => {

            const invited = await inviteUser(memory.ports, { accountId: owner.accountId, email: 'Nueva@Example.com', role: 'member' });
            expect(invited.token).to.match(/^[A-Za-z0-9_-]{43}$/);
            expect(invited.expiresAt).to.equal(memory.clock.now().getTime() + invitationLifetimeMs);
            // Only the digest is kept.
            expect(JSON.stringify(memory.world.invitations)).to.not.contain(invited.token);
            expect(memory.world.passwords.has(invited.id)).to.equal(false);
            expect((await listTeam(memory.ports, { accountId: owner.accountId })).users.find((user) => user.id === invited.id)).to.include({ pending: true, role: 'member', email: 'nueva@example.com' });

            expect(await findInvitation(memory.ports, { token: invited.token })).to.deep.equal({ email: 'nueva@example.com' });
            const accepted = await acceptInvitation(memory.ports, { token: invited.token, password: internals.password, repeated: internals.password });
            expect(accepted).to.deep.equal({ userId: invited.id, email: 'nueva@example.com' });
            expect(await verifyPassword(internals.password, memory.world.passwords.get(invited.id)!)).to.equal(true);

            await internals.unusable(acceptInvitation(memory.ports, { token: invited.token, password: 'otra clave larga', repeated: 'otra clave larga' }));
            await internals.unusable(findInvitation(memory.ports, { token: invited.token }));
            expect(await verifyPassword(internals.password, memory.world.passwords.get(invited.id)!)).to.equal(true);
            await internals.unusable(findInvitation(memory.ports, { token: 'x'.repeat(43) }));
            await internals.unusable(findInvitation(memory.ports, { token: '../' }));
        });

        it('works until 7 days have passed, not after', async () => {

            const invited = await inviteUser(memory.ports, { accountId: owner.accountId, email: 'semana@example.com', role: 'member' });
            memory.clock.advance(invitationLifetimeMs - 1);
            expect(await findInvitation(memory.ports, { token: invited.token })).to.deep.equal({ email: 'semana@example.com' });
            memory.clock.advance(1);
            await internals.unusable(findInvitation(memory.ports, { token: invited.token }));
            await internals.unusable(acceptInvitation(memory.ports, { token: invited.token, password: internals.password, repeated: internals.password }));
            expect(memory.world.passwords.has(invited.id)).to.equal(false);
        });

        it('two invitees of one address accepting at once: one signs in with it, the other is told (409), never a failure', async () => {

            const other = memory.account();
            const first = await inviteUser(memory.ports, { accountId: owner.accountId, email: 'compartida@example.com', role: 'member' });
            const second = await inviteUser(memory.ports, { accountId: other.accountId, email: 'compartida@example.com', role: 'member' });
            const outcomes = await Promise.allSettled([first, second].map((invited) => acceptInvitation(memory.ports, {
                token: invited.token, password: internals.password, repeated: internals.password
            })));
            expect(outcomes.map((outcome) => outcome.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
            const refused = outcomes.findIndex((outcome) => outcome.status === 'rejected');
            expect((outcomes[refused] as PromiseRejectedResult).reason).to.include({ kind: 'conflict', message: messages.team.emailInUse });
            expect([first, second].map((invited) => memory.world.passwords.has(invited.id))).to.deep.equal([refused === 1, refused === 0]);
        });

        it('one address invited twice into one account at once: one user, the other invitation refused (409)', async () => {

            const outcomes = await Promise.allSettled([1, 2].map(() => inviteUser(memory.ports, { accountId: owner.accountId, email: 'doble@example.com', role: 'member' })));
            expect(outcomes.map((outcome) => outcome.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
            expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason)
                .to.include({ kind: 'conflict', message: messages.admin.emailTaken('doble@example.com') });
            expect(memory.world.users.filter((user) => user.email === 'doble@example.com')).to.have.length(1);
        });

        it('a refused password leaves the link usable', async () => {

            const invited = await inviteUser(memory.ports, { accountId: owner.accountId, email: 'corta@example.com', role: 'member' });
            const short = await refusalOf(acceptInvitation(memory.ports, { token: invited.token, password: 'corta', repeated: 'corta' }));
            expect(short.message).to.equal(messages.admin.shortPassword(minPasswordLength));
            const mismatch = await refusalOf(acceptInvitation(memory.ports, { token: invited.token, password: internals.password, repeated: `${internals.password}x` }));
            expect(mismatch.message).to.equal(messages.password.mismatch);
            await acceptInvitation(memory.ports, { token: invited.token, password: internals.password, repeated: internals.password });
        });

        it('a new link ends the earlier one, and only users without a password get one', async () => {

            const invited = await inviteUser(memory.ports, { accountId: owner.accountId, email: 'otra@example.com', role: 'member' });
            const renewed = await renewInvitation(memory.ports, { userId: invited.id, by: owner });
            await internals.unusable(findInvitation(memory.ports, { token: invited.token }));
            await acceptInvitation(memory.ports, { token: renewed.token, password: internals.password, repeated: internals.password });
            const again = await refusalOf(renewInvitation(memory.ports, { userId: invited.id }));
            expect(again.kind).to.equal('conflict');
            expect(again.message).to.equal(messages.team.notPending);
        });

        it('counts every link tried from an address, as sign-ins are: a guesser is refused (429) even a real link', async () => {

            const invited = await inviteUser(memory.ports, { accountId: owner.accountId, email: 'adivinada@example.com', role: 'member' });
            // Real links give their attempt back.
            for (let i = 0; i < 30; i++) {
                await findInvitation(memory.ports, { token: invited.token, address: '203.0.113.9' });
            }

            for (let i = 0; i < 20; i++) {
                await internals.unusable(findInvitation(memory.ports, { token: `${'a'.repeat(40)}${String(i).padStart(3, '0')}`, address: '203.0.113.9' }));
            }

            const throttled = await refusalOf(findInvitation(memory.ports, { token: invited.token, address: '203.0.113.9' }));
            expect(throttled.kind).to.equal('rate_limited');
            expect(throttled.message).to.equal(messages.team.invitationThrottled);
            expect(await findInvitation(memory.ports, { token: invited.token, address: '198.51.100.1' })).to.deep.equal({ email: 'adivinada@example.com' });
        });
    });

    describe('assignments and removal', () => {

        it('assigns no CUIT to an owner, and none outside the account', async () => {

            const member = memory.member(owner.accountId);
            const refused = await refusalOf(assignClientToUser(memory.ports, { userId: owner.userId, cuit: '20123456786' }));
            expect(refused.message).to.equal(messages.admin.ownerSeesAll);
            const missing = await refusalOf(unassignClientFromUser(memory.ports, { userId: member.userId, cuit: '20123456786' }));
            expect(missing.message).to.equal(messages.admin.clientNotInAccount('20123456786'));
        });

        it('removing a user takes its tokens and links and ends its sessions and grants', async () => {

            const invited = await inviteUser(memory.ports, { accountId: owner.accountId, email: 'se-va@example.com', role: 'member' });
            memory.world.tokens.push({ id: 99, userId: invited.id, tokenHash: 'h', revoked: false, lastUsedAt: null });
            const removed = await removeUser(memory.ports, { userId: invited.id, by: owner });
            expect(removed).to.deep.equal({ id: invited.id, email: 'se-va@example.com', removed: true });
            expect(memory.world.tokens).to.deep.equal([]);
            expect(memory.world.oauthRevoked).to.deep.equal([invited.id]);
            await internals.unusable(findInvitation(memory.ports, { token: invited.token }));
        });
    });
});
