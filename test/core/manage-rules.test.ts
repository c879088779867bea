import { expect } from 'chai';
import type { Principal } from '../../core/domain/access.js';
import { assertMayManageAccount, mayManageAccount } from '../../core/domain/access.js';
import { messages } from '../../core/domain/messages.js';
import { assignClientToUser, unassignClientFromUser } from '../../core/use-cases/staff/assign-client-to-user.js';
import { assignTag, unassignTag } from '../../core/use-cases/staff/assign-tag.js';
import { deleteTag, updateTag } from '../../core/use-cases/staff/change-tag.js';
import { changeUserRole } from '../../core/use-cases/staff/change-user-role.js';
import { createTag } from '../../core/use-cases/staff/create-tag.js';
import { inviteUser, renewInvitation } from '../../core/use-cases/staff/invite-user.js';
import { listTeam, teamMember } from '../../core/use-cases/staff/list-team.js';
import { removeUser } from '../../core/use-cases/staff/remove-user.js';
import type { MemoryPorts } from '../support/memory-ports.js';
import { memoryPorts, refusalOf } from '../support/memory-ports.js';

// Only owners manage what spans the account, its tags and its team (access.ts); the panel
// shows the refusal as its 403 page (panel-estudio.test.ts, panel-team.test.ts). The operator,
// through the CLI, names the account instead of acting as a user (team-rules.test.ts).

describe('who manages the account\'s tags and team (core, in memory)', () => {

    let memory: MemoryPorts;
    let owner: Principal;
    let member: Principal;

    beforeEach(() => {

        memory = memoryPorts();
        owner = memory.account();
        member = memory.member(owner.accountId);
    });

    it('owners may, members may not: the refusal is a 403 with its Spanish message', () => {

        expect(mayManageAccount(owner)).to.equal(true);
        expect(mayManageAccount(member)).to.equal(false);
        expect(() => assertMayManageAccount(owner)).not.to.throw();
        expect(() => assertMayManageAccount(member)).to.throw(messages.team.ownersOnly).with.property('kind', 'forbidden');
    });

    it('every use case on tags and the team refuses a member before reading or changing anything', async () => {

        // The memory ports have no tags: a use case that reached them would fail otherwise.
        const by = member;
        const userId = owner.userId;
        for (const call of [
            createTag(memory.ports, { by, name: 'Sociedades', color: '#336699' }),
            updateTag(memory.ports, { by, name: 'Sociedades', newName: 'Otra', color: '#336699' }),
            deleteTag(memory.ports, { by, name: 'Sociedades' }),
            assignTag(memory.ports, { by, cuit: '20123456786', name: 'Sociedades' }),
            unassignTag(memory.ports, { by, cuit: '20123456786', name: 'Sociedades' }),
            inviteUser(memory.ports, { by, email: 'nueva@example.com', role: 'owner' }),
            renewInvitation(memory.ports, { userId, by }),
            changeUserRole(memory.ports, { userId: member.userId, role: 'owner', by }),
            assignClientToUser(memory.ports, { userId: member.userId, cuit: '20123456786', by }),
            unassignClientFromUser(memory.ports, { userId: member.userId, cuit: '20123456786', by }),
            removeUser(memory.ports, { userId, by }),
            listTeam(memory.ports, { by }),
            teamMember(memory.ports, member, { userId })
        ]) {
            const refused = await refusalOf(call);
            expect(refused.kind).to.equal('forbidden');
            expect(refused.message).to.equal(messages.team.ownersOnly);
        }

        const team = await listTeam(memory.ports, { by: owner });
        expect(team.users.map((user) => [user.id, user.role])).to.deep.equal([[owner.userId, 'owner'], [member.userId, 'member']]);
        expect(memory.world.oauthRevoked).to.deep.equal([]);
    });

    it('an owner acts on its own account through the same use cases', async () => {

        const invited = await inviteUser(memory.ports, { by: owner, email: 'nueva@example.com', role: 'member' });
        expect(await changeUserRole(memory.ports, { userId: member.userId, role: 'owner', by: owner })).to.deep.equal({ id: member.userId, role: 'owner' });
        expect((await listTeam(memory.ports, { by: owner })).users.map((user) => user.id)).to.include(invited.id);
    });
});
