import { expect } from 'chai';
import type { Principal } from '../../core/domain/access.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { messages } from '../../core/domain/messages.js';
import { getNotification } from '../../core/use-cases/get-notification.js';
import { markNotificationRead } from '../../core/use-cases/mark-notification-read.js';
import { cuitSequence, personBody } from '../support/client-bodies.js';
import { createClient } from '../../core/use-cases/create-client.js';
import { notification } from '../support/data.js';
import type { MemoryPorts } from '../support/memory-ports.js';
import { memoryPorts, refusalOf } from '../support/memory-ports.js';

// SPEC, DFE notification: leidaAt is when it was marked read in the service. The core's rules
// of marking (core/use-cases/mark-notification-read.ts), on the in-memory ports: the first
// reading is kept, unread clears it, the client's data version moves with every mark, and a
// CUIT or id the user may not see is the one 404. Through the panel on both databases, with
// REST serving the change: panel-client.test.ts.

describe('marking a DFE notification read or unread (core, in memory)', () => {

    const nextCuit = cuitSequence(30_000_000);
    let memory: MemoryPorts;
    let owner: Principal;
    let cuit: Cuit;

    const version = () => memory.world.clients.find((row) => row.cuit === cuit)!.dataVersion;
    const mark = (principal: Principal, read: boolean, arcaId = '501') => markNotificationRead(memory.ports, principal, { cuit, arcaId, read });

    beforeEach(async () => {

        memory = memoryPorts({ now: '2026-03-15T12:00:00Z' });
        owner = memory.account({ writing: true });
        cuit = nextCuit();
        await createClient(memory.ports, owner, personBody(cuit));
        const client = memory.world.clients.find((row) => row.cuit === cuit)!;
        memory.world.notifications.set(client.id, [notification({ arcaId: '501', fechaRecepcion: '2026-03-14T10:00:00.000Z' })]);
    });

    it('sets leidaAt to now, keeps the first reading, and clears it when marked unread', async () => {

        const before = version();
        expect((await mark(owner, true)).leidaAt).to.equal('2026-03-15T12:00:00.000Z');
        expect(version()).to.be.greaterThan(before);
        memory.clock.advance(3_600_000);
        expect((await mark(owner, true)).leidaAt).to.equal('2026-03-15T12:00:00.000Z');
        const read = version();
        expect((await mark(owner, false)).leidaAt).to.equal(null);
        expect(version()).to.be.greaterThan(read);
        expect((await getNotification(memory.ports, owner, { cuit, arcaId: '501' })).leidaAt).to.equal(null);
    });

    it('answers one 404 for an unknown id, an unassigned CUIT and another account\'s', async () => {

        const unknown = await refusalOf(mark(owner, true, '999'));
        expect(unknown.kind).to.equal('not_found');
        const member = memory.member(owner.accountId);
        const unassigned = await refusalOf(mark(member, true));
        expect(unassigned.kind).to.equal('not_found');
        expect(unassigned.message).to.equal(unknown.message);
        const stranger = memory.account();
        expect((await refusalOf(mark(stranger, true))).message).to.equal(unknown.message);
        expect((await getNotification(memory.ports, owner, { cuit, arcaId: '501' })).leidaAt).to.equal(null);
    });

    it('refuses with the subscription\'s message when it is not active', async () => {

        memory.world.accounts.find((row) => row.id === owner.accountId)!.subscription = 'paused';
        const refused = await refusalOf(mark(memory.principalOf(owner.userId), true));
        expect(refused.kind).to.equal('forbidden');
        expect(refused.message).to.equal(messages.subscriptionPaused);
    });
});
