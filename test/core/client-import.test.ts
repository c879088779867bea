import { expect } from 'chai';
import type { Principal } from '../../core/domain/access.js';
import { messages } from '../../core/domain/messages.js';
import { confirmClientImport, previewClientImport } from '../../core/use-cases/import-clients.js';
import type { ImportRow } from '../../core/use-cases/import-rows.js';
import { importLimits } from '../../core/use-cases/import-rows.js';
import { createClient } from '../../core/use-cases/create-client.js';
import type { MemoryPorts } from '../support/memory-ports.js';
import { memoryPorts, refusalOf } from '../support/memory-ports.js';
import { cuitSequence } from '../support/client-bodies.js';

// Importing clients from a file (docs/panel.md, Importar clientes): each row checked by the
// API's contract, the file's own conflicts (repeated CUIT, representative on another row), the
// account's (CUIT taken, representative not managed), nothing stored before the confirmation,
// and the pending import's scope: its user and account, once, before it expires. Run on the
// in-memory ports; over HTTP on both databases: test/servers/panel/panel-import.test.ts.

const internals = {
    nextCuit: cuitSequence(40_000_000),

    person: (row: number, cuit: string, extra: Record<string, string> = {}): ImportRow => ({
        row,
        cells: { tipo: 'persona-fisica', cuit, nombre: 'Ana', apellido: 'Pérez', clave_arca: `clave ${cuit} `, ...extra }
    }),

    entity: (row: number, cuit: string, representante: string): ImportRow => ({
        row,
        cells: { tipo: 'persona-juridica', cuit, razon_social: 'Ejemplo SRL', representante }
    })
};

const { nextCuit, person, entity } = internals;

describe('client import: a file previewed by the API\'s rules, then stored once confirmed (core, in memory)', () => {

    let memory: MemoryPorts;
    let owner: Principal;

    beforeEach(() => {

        memory = memoryPorts();
        owner = memory.account();
    });

    const preview = (principal: Principal, rows: ImportRow[]) => previewClientImport(memory.ports, principal, rows);
    const confirm = (principal: Principal, id: string) => confirmClientImport(memory.ports, principal, id);

    it('lists each bad row with its number and the API\'s Spanish messages, and stores nothing until confirmed', async () => {

        const good = nextCuit();
        const result = await preview(owner, [
            person(2, good),
            { row: 3, cells: { tipo: 'persona-fisica', cuit: '123', nombre: 'Ana', apellido: 'Pérez', clave_arca: 'x', email: 'no-es-email' } },
            { row: 5, cells: { tipo: 'monotributista', cuit: nextCuit() } }
        ]);

        expect(result.accepted.map((row) => [row.row, row.cuit, row.nombre])).to.deep.equal([[2, good, 'Pérez, Ana']]);
        expect(result.refused).to.deep.equal([
            { row: 3, cuit: '123', errors: [messages.clientWrite.cuit, messages.clientWrite.email] },
            { row: 5, cuit: result.refused[1]!.cuit, errors: [messages.clientWrite.tipo] }
        ]);
        expect(result.id).to.be.a('string');
        expect(memory.world.clients).to.have.length(0);
        expect(memory.world.jobs).to.have.length(0);
    });

    it('keeps the pending rows sealed: no key in what is stored or in what the preview answers', async () => {

        const cuit = nextCuit();
        const result = await preview(owner, [person(2, cuit, { clave_arca: 'Clave-Muy-Secreta-9' })]);
        expect(JSON.stringify(result)).to.not.contain('Clave-Muy-Secreta-9');
        expect(memory.world.imports).to.have.length(1);
        expect(JSON.stringify(memory.world.imports)).to.not.contain('Clave-Muy-Secreta-9');
        expect(memory.world.imports[0]!.sealedRows.startsWith('sellada:')).to.equal(true);
    });

    it('refuses a CUIT repeated in the file (the later rows) and one the account already has', async () => {

        const taken = nextCuit();
        await createClient(memory.ports, { ...owner, writingEnabled: true }, { tipo: 'persona-fisica', cuit: taken, nombre: 'A', apellido: 'B', clave_arca: 'k' });
        const twice = nextCuit();
        const result = await preview(owner, [person(2, twice), person(3, taken), person(4, `${twice.slice(0, 2)}-${twice.slice(2, 10)}-${twice.slice(10)}`)]);
        expect(result.accepted.map((row) => row.row)).to.deep.equal([2]);
        expect(result.refused).to.deep.equal([
            { row: 3, cuit: taken, errors: [messages.cuitTaken] },
            { row: 4, cuit: result.refused[1]!.cuit, errors: [messages.clientImport.duplicate(2)] }
        ]);
    });

    it('takes a representative from the account or from a good person row of the file, and says when its row is bad', async () => {

        const known = nextCuit();
        await createClient(memory.ports, { ...owner, writingEnabled: true }, { tipo: 'persona-fisica', cuit: known, nombre: 'A', apellido: 'B', clave_arca: 'k' });
        const inFile = nextCuit();
        const badPerson = nextCuit();
        const [a, b, c, d] = [nextCuit('30'), nextCuit('30'), nextCuit('30'), nextCuit('30')];
        const result = await preview(owner, [
            entity(2, a, known),
            entity(3, b, inFile),          // its person comes later in the file
            person(4, inFile),
            person(5, badPerson, { email: 'mal' }),
            entity(6, c, badPerson),
            entity(7, d, nextCuit())
        ]);

        expect(result.accepted.map((row) => row.row)).to.deep.equal([2, 3, 4]);
        expect(result.refused.map((row) => [row.row, row.errors])).to.deep.equal([
            [5, [messages.clientWrite.email]],
            [6, [messages.clientImport.representativeRefused(5)]],
            [7, [messages.clientWrite.representativeNotFound]]
        ]);

        // Confirmed: people stored before the entities they represent, each with its first sync.
        const report = await confirm(owner, result.id!);
        expect(report.imported.map((row) => row.row)).to.deep.equal([2, 3, 4]);
        expect(report.skipped.map((row) => row.row)).to.deep.equal([5, 6, 7]);
        const stored = (cuit: string) => memory.world.clients.find((client) => client.cuit === cuit)!;
        expect(stored(b).representativeId).to.equal(stored(inFile).id);
        expect(stored(a).representativeId).to.equal(stored(known).id);
        expect(stored(inFile).id).to.be.below(stored(b).id);
        expect(memory.ports.secretBox.open(stored(inFile).sealedKey!)).to.equal(`clave ${inFile} `);
        for (const cuit of [a, b, inFile]) {
            expect(memory.world.jobs.filter((job) => job.clientId === stored(cuit).id).map((job) => job.reason)).to.deep.equal(['first']);
        }
    });

    it('gives a member\'s imported CUITs to the member, and refuses a representative it does not manage', async () => {

        const member = memory.member(owner.accountId);
        const ownersPerson = nextCuit();
        await createClient(memory.ports, { ...owner, writingEnabled: true }, { tipo: 'persona-fisica', cuit: ownersPerson, nombre: 'A', apellido: 'B', clave_arca: 'k' });
        const mine = nextCuit();
        const result = await preview(member, [person(2, mine), entity(3, nextCuit('30'), ownersPerson)]);
        expect(result.refused.map((row) => [row.row, row.errors])).to.deep.equal([[3, [messages.clientWrite.representativeNotFound]]]);

        await confirm(member, result.id!);
        const id = memory.world.clients.find((client) => client.cuit === mine)!.id;
        expect([...memory.world.users.find((user) => user.id === member.userId)!.clients]).to.deep.equal([id]);
    });

    it('is confirmed once, by its own user and account only, before it expires', async () => {

        const other = memory.account();
        const colleague = memory.member(owner.accountId);
        const first = await preview(owner, [person(2, nextCuit())]);

        for (const stranger of [other, colleague]) {
            const err = await refusalOf(confirm(stranger, first.id!));
            expect([err.kind, err.message]).to.deep.equal(['not_found', messages.clientImport.gone]);
        }

        expect((await confirm(owner, first.id!)).imported).to.have.length(1);
        expect((await refusalOf(confirm(owner, first.id!))).message).to.equal(messages.clientImport.gone);

        const late = await preview(owner, [person(2, nextCuit())]);
        memory.clock.advance(importLimits.pendingMs);
        expect((await refusalOf(confirm(owner, late.id!))).message).to.equal(messages.clientImport.gone);
        expect(memory.world.clients).to.have.length(1);
    });

    it('counts an import it can no longer open (sealed under a retired key) as gone, never a failure', async () => {

        const result = await preview(owner, [person(2, nextCuit())]);
        memory.world.imports[0]!.sealedRows = 'sellada con una clave retirada';
        const err = await refusalOf(confirm(owner, result.id!));
        expect([err.kind, err.message]).to.deep.equal(['not_found', messages.clientImport.gone]);
    });

    it('checks the rows again on confirmation: a CUIT added meanwhile is skipped and reported, the rest stored', async () => {

        const [one, two] = [nextCuit(), nextCuit()];
        const result = await preview(owner, [person(2, one), person(3, two)]);
        await createClient(memory.ports, { ...owner, writingEnabled: true }, { tipo: 'persona-fisica', cuit: two, nombre: 'A', apellido: 'B', clave_arca: 'k' });
        const report = await confirm(owner, result.id!);
        expect(report.imported.map((row) => row.cuit)).to.deep.equal([one]);
        expect(report.skipped).to.deep.equal([{ row: 3, cuit: two, errors: [messages.cuitTaken] }]);
    });

    it('refuses an empty file and one past the row limit, and keeps nothing when no row is good', async () => {

        expect((await refusalOf(preview(owner, []))).message).to.equal(messages.clientImport.empty);
        const many = Array.from({ length: importLimits.maxRows + 1 }, (_, i) => person(i + 2, nextCuit()));
        const err = await refusalOf(preview(owner, many));
        expect([err.kind, err.message]).to.deep.equal(['invalid', messages.clientImport.tooManyRows('5.000')]);

        const none = await preview(owner, [{ row: 2, cells: { cuit: nextCuit() } }]);
        expect(none.id).to.equal(null);
        expect(none.refused[0]!.errors).to.deep.equal([messages.clientWrite.required('tipo')]);
        expect(memory.world.imports).to.have.length(0);
    });

    it('needs an active subscription, as every request does', async () => {

        const paused = memory.account({ subscription: 'paused' });
        expect((await refusalOf(preview(paused, [person(2, nextCuit())]))).message).to.equal(messages.subscriptionPaused);
    });
});
