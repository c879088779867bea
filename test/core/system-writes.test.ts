import { expect } from 'chai';
import { createClient } from '../../core/use-cases/create-client.js';
import { memoryPorts } from '../support/memory-ports.js';
import type { MemoryPorts } from '../support/memory-ports.js';
import { cuitSequence, personBody } from '../support/client-bodies.js';

// core/use-cases/sync/system-writes.ts over the in-memory unit of work: which event a sync's
// record decides, announced once per change, and only to an account that listens. The same
// writes on both databases, with the stores' data and every event's wire shape:
// webhooks.test.ts, event-sizes.test.ts, sync-e2e.test.ts.

describe('system writes: the events a sync decides (core, in memory)', () => {

    const nextCuit = cuitSequence(30_000_000);
    let memory: MemoryPorts;
    let clientId: number;

    beforeEach(async () => {

        memory = memoryPorts();
        const owner = memory.account({ writing: true });
        await createClient(memory.ports, owner, personBody(nextCuit()));
        clientId = memory.world.clients.at(-1)!.id;
        memory.world.listening.add(owner.accountId);
    });

    it('a new cause of failure is one salud.cambio, the same cause again none, a recovery one more', async () => {

        const { syncStates } = memory.ports;
        expect(await syncStates.recordFailure(clientId, 'sct', 'Clave vencida.', 1, 'clave_vencida')).to.equal(true);
        expect(await syncStates.recordFailure(clientId, 'sct', 'Clave vencida.', 2, 'clave_vencida')).to.equal(true);
        expect(memory.world.events.map((event) => [event.type, event.system, event.data])).to.deep.equal([
            ['salud.cambio', 'sct', { estado: 'clave_vencida', estadoAnterior: 'pendiente' }]
        ]);
        expect(memory.world.syncStates[0]).to.include({ failingSince: 1, lastAttemptAt: 2, lastState: 'clave_vencida' });
    });

    it('the completed sync tells what the writes changed once, then nothing until something changes again', async () => {

        memory.world.changes.push({ clientId, system: 'dfe', nuevos: 2, cambiados: 0, eliminados: 0 });
        memory.world.changes.push({ clientId, system: 'registry', nuevos: 1, cambiados: 0, eliminados: 0 });
        expect(await memory.ports.syncStates.announceSyncCompleted(clientId, 5)).to.equal(true);
        expect(await memory.ports.syncStates.announceSyncCompleted(clientId, 6)).to.equal(false);
        expect(memory.world.events.map((event) => event.data)).to.deep.equal([{
            sistemas: [
                { sistema: 'registro', nuevos: 1, cambiados: 0, eliminados: 0 },
                { sistema: 'dfe', nuevos: 2, cambiados: 0, eliminados: 0 }
            ]
        }]);
    });

    it('an account without an active endpoint hears nothing; a deleted client gets nothing written', async () => {

        memory.world.listening.clear();
        await memory.ports.syncStates.recordFailure(clientId, 'ccma', 'Error interno.', 1, 'error');
        expect(memory.world.events).to.deep.equal([]);
        memory.world.clients = [];
        expect(await memory.ports.syncStates.recordFailure(clientId, 'ccma', 'Error interno.', 2, 'error')).to.equal(false);
        expect(memory.world.syncStates).to.have.length(1);
    });
});
