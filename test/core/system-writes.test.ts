import { expect } from 'chai';
import type { CategoryTable } from '../../core/domain/monotributo.js';
import { createClient } from '../../core/use-cases/create-client.js';
import { loadCategoryTable } from '../../core/use-cases/monotributo.js';
import { memoryPorts } from '../support/memory-ports.js';
import type { MemoryPorts } from '../support/memory-ports.js';
import { cuitSequence, personBody } from '../support/client-bodies.js';
import { invoice } from '../support/data.js';

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

    describe('invoice saves', () => {

        // Today 2026-03-15 in Buenos Aires: the window 2025-03 to 2026-02, A's cap 10.277.988,13.
        const at = Date.parse('2026-03-15T12:00:00Z');
        let number = 0;
        const issued = (importe: number, tipo = '11') => {

            number++;
            return { kind: 'issued' as const, invoices: [invoice({ fecha: '2026-02-10', tipo, numeroDesde: String(number), numeroHasta: String(number), importe })] };
        };

        const events = (type: string) => memory.world.events.filter((event) => event.type === type);

        it('a kind that was failing recovers with its save: one salud.cambio from the state the sync found', async () => {

            await memory.ports.syncStates.recordFailure(clientId, 'received_invoices', 'Clave vencida.', 1, 'clave_vencida');
            const states = await memory.ports.syncStates.list(clientId);
            memory.world.events = [];
            await memory.ports.invoices.saveKinds(clientId, [issued(1_000), { kind: 'received', invoices: [] }], at, { states, monotributista: false });
            expect(events('salud.cambio').map((event) => [event.system, event.previousError, event.error, event.data])).to.deep.equal([
                ['received_invoices', 'Clave vencida.', null, { estado: 'ok', estadoAnterior: 'clave_vencida' }]
            ]);
            expect(memory.world.syncStates.find((state) => state.system === 'received_invoices')).to.include({ lastError: null, syncedAt: at });

            // Stored now: the next save is no recovery.
            await memory.ports.invoices.saveKinds(clientId, [{ kind: 'received', invoices: [] }], at + 1);
            expect(events('salud.cambio')).to.have.length(1);
        });

        it('without the sync\'s context a save reads the states itself; an account that does not listen hears nothing', async () => {

            memory.world.listening.clear();
            await memory.ports.syncStates.recordFailure(clientId, 'issued_invoices', 'Error interno.', 1, 'error');
            await memory.ports.invoices.save(clientId, 'issued', [], at);
            expect(memory.world.events).to.deep.equal([]);

            await memory.ports.syncStates.recordFailure(clientId, 'issued_invoices', 'Error interno.', 2, 'error');
            memory.world.listening.add(memory.world.clients.at(-1)!.accountId);
            await memory.ports.invoices.save(clientId, 'issued', [], at);
            expect(events('salud.cambio').map((event) => event.data)).to.deep.equal([{ estado: 'ok', estadoAnterior: 'error' }]);
        });

        it('a monotributista\'s save announces each rise of its cap level once, with its data', async () => {

            Object.assign(memory.world.clients.at(-1)!, { monotributista: true, categoria: 'A' });
            const known = { states: [], monotributista: true };
            await memory.ports.invoices.saveKinds(clientId, [issued(5_000_000)], at, known);
            expect(events('monotributo.tope'), '48,6 %').to.deep.equal([]);
            await memory.ports.invoices.saveKinds(clientId, [issued(3_500_000)], at, known);
            await memory.ports.invoices.saveKinds(clientId, [issued(1)], at, known);
            await memory.ports.invoices.saveKinds(clientId, [issued(1_000_000, '13')], at, known);
            await memory.ports.invoices.saveKinds(clientId, [issued(3_200_000)], at, known);
            expect(events('monotributo.tope').map((event) => (event.data as { umbral: string }).umbral), '82,7 %, again, 73 %, 104 %')
                .to.deep.equal(['tope_cerca', 'tope_superado']);
            expect(events('monotributo.tope')[1]!.data).to.deep.include({ categoria: 'A', facturado: 10_700_001, tope: 10_277_988.13, listado: `/v1/cuits/${memory.world.clients.at(-1)!.cuit}/monotributo` });
            expect(memory.world.capLevels.get(clientId)).to.deep.include({ level: 2, previousLevel: 0 });
        });

        it('the category tables are read once across saves, and again when a table is loaded or replaced', async () => {

            Object.assign(memory.world.clients.at(-1)!, { monotributista: true, categoria: 'A' });
            const known = { states: [], monotributista: true };
            for (let save = 0; save < 5; save++) {
                await memory.ports.invoices.saveKinds(clientId, [issued(1_000_000)], at, known);
            }

            expect(memory.world.categoryTableReads, 'five saves').to.equal(1);
            expect(events('monotributo.tope'), '48,6 % of A').to.deep.equal([]);

            // Staff load the next semester's table ahead of time (the caps of the one in force
            // halved from March): the next save checks against it.
            const halved = (table: CategoryTable) => Object.fromEntries(Object.entries(table.topes).map(([letter, cap]) => [letter, cap / 2]));
            const inForce = memory.world.categoryTables.at(-1)!;
            await loadCategoryTable(memory.ports, { vigenciaDesde: '2026-03-01', fuente: 'ARCA', topes: halved(inForce) });
            await memory.ports.invoices.saveKinds(clientId, [issued(1)], at, known);
            expect(memory.world.categoryTableReads, 'a table loaded').to.equal(2);
            expect(events('monotributo.tope').map((event) => (event.data as { tope: number }).tope)).to.deep.equal([inForce.topes.A / 2]);

            // A table replaced (its caps corrected) is read again too; saves after it are not.
            await loadCategoryTable(memory.ports, { vigenciaDesde: '2026-03-01', fuente: 'ARCA', topes: { ...halved(inForce), A: 4_000_000 } });
            await memory.ports.invoices.saveKinds(clientId, [issued(1)], at, known);
            await memory.ports.invoices.saveKinds(clientId, [issued(1)], at, known);
            expect(memory.world.categoryTableReads, 'a table replaced').to.equal(3);
            expect(memory.world.capLevels.get(clientId)).to.deep.include({ tope: 4_000_000, level: 2 });
        });

        it('a client the sync knows is no monotributista has no cap checked; received invoices none either', async () => {

            Object.assign(memory.world.clients.at(-1)!, { monotributista: true, categoria: 'A' });
            await memory.ports.invoices.saveKinds(clientId, [issued(9_000_000)], at, { states: [], monotributista: false });
            await memory.ports.invoices.saveKinds(clientId, [{ kind: 'received', invoices: [invoice({ tipo: '11', importe: 9_000_000 })] }], at);
            expect(events('monotributo.tope')).to.deep.equal([]);
            expect(memory.world.capLevels.size).to.equal(0);
        });

        it('a change of category in the registry checks the cap with it', async () => {

            await memory.ports.registry.save(clientId, { monotributista: true, autonomo: false, categoria: 'H' }, at);
            await memory.ports.invoices.saveKinds(clientId, [issued(9_000_000)], at, { states: [], monotributista: true });
            expect(events('monotributo.tope')).to.deep.equal([]);
            await memory.ports.registry.save(clientId, { monotributista: true, autonomo: false, categoria: 'A' }, at);
            expect(events('monotributo.tope').map((event) => (event.data as { umbral: string }).umbral)).to.deep.equal(['tope_cerca']);
        });
    });
});
