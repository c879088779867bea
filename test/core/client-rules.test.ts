import { expect } from 'chai';
import type { Principal } from '../../core/domain/access.js';
import { messages } from '../../core/domain/messages.js';
import { createClient } from '../../core/use-cases/create-client.js';
import { deleteClient } from '../../core/use-cases/delete-client.js';
import { updateClient } from '../../core/use-cases/update-client.js';
import type { MemoryPorts } from '../support/memory-ports.js';
import { memoryPorts, refusalOf } from '../support/memory-ports.js';
import { cuitSequence, entityBody, personBody } from '../support/client-bodies.js';

// docs/api.md, Writes: what POST, PATCH and DELETE /v1/cuits refuse and in which order, and
// what they change, decided by the core's use cases; run on the in-memory ports. The same
// rules over HTTP, on both databases, with what only the database decides (the unique index,
// the delete's transaction, who sees which CUIT in SQL): http-cuits-write.test.ts.

const internals = {
    nextCuit: cuitSequence(),

    async invalid(call: Promise<unknown>, ...fragments: string[]): Promise<string> {

        const err = await refusalOf(call);
        expect(err.kind, err.message).to.equal('invalid');
        for (const fragment of fragments) {
            expect(err.message).to.contain(fragment);
        }

        return err.message;
    }
};

const { nextCuit } = internals;
const person = personBody;
const entity = entityBody;

describe('client writes: the rules of creating, editing and deleting a CUIT (core, in memory)', () => {

    let memory: MemoryPorts;
    let owner: Principal;

    beforeEach(() => {

        memory = memoryPorts();
        owner = memory.account({ writing: true });
    });

    const create = (principal: Principal, body: unknown) => createClient(memory.ports, principal, body);
    const update = (principal: Principal, cuit: string, body: unknown) => updateClient(memory.ports, principal, cuit, body);
    const remove = (principal: Principal, cuit: string) => deleteClient(memory.ports, principal, cuit);
    const stored = (cuit: string, accountId = owner.accountId) => memory.world.clients.find((row) => row.cuit === cuit && row.accountId === accountId);

    describe('creating', () => {

        it('shows a person as "<apellido>, <nombre>", seals the key and asks for the first sync due now', async () => {

            const cuit = nextCuit();
            const view = await create(owner, person(`${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`, { email: 'maria@example.com' }));
            expect(view).to.deep.include({ cuit, tipo: 'persona-fisica', nombre: 'González, María', email: 'maria@example.com', telefono: null });
            const row = stored(cuit)!;
            expect(row.sealedKey).to.not.contain('Clave-Secreta-1');
            expect(memory.ports.secretBox.open(row.sealedKey!)).to.equal('Clave-Secreta-1');
            expect(memory.world.jobs).to.deep.equal([{
                id: 1,
                clientId: row.id,
                reason: 'first',
                status: 'pending',
                runAfter: memory.clock.now().getTime(),
                attempts: 0,
                createdAt: memory.clock.now().getTime()
            }]);
        });

        it('stores no key for a legal entity, only its representative', async () => {

            const rep = nextCuit();
            await create(owner, person(rep));
            const cuit = nextCuit('30');
            expect(await create(owner, entity(cuit, rep))).to.deep.include({ cuit, tipo: 'persona-juridica', nombre: 'Panadería La Espiga SRL' });
            expect(stored(cuit)).to.include({ sealedKey: null, representativeId: stored(rep)!.id });
        });

        it('refuses a CUIT already in the account with 409, hyphens or not; another account may have it', async () => {

            const cuit = nextCuit();
            await create(owner, person(cuit));
            for (const again of [cuit, `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`]) {
                const err = await refusalOf(create(owner, person(again, { nombre: 'Otro' })));
                expect(err).to.include({ kind: 'conflict', message: messages.cuitTaken });
            }

            expect(stored(cuit)!.nombre).to.equal('María');
            await create(memory.account({ writing: true }), person(cuit));
        });

        it('lets the member who creates a CUIT manage it', async () => {

            const member = memory.member(owner.accountId);
            const cuit = nextCuit();
            await create(member, person(cuit));
            expect(await memory.ports.clients.findVisible(member, cuit)).to.not.equal(null);
            expect(await memory.ports.clients.findVisible(memory.member(owner.accountId), cuit)).to.equal(null);
        });

        it('refuses writing not enabled with 403 before reading the body', async () => {

            const reader = memory.account({ writing: false });
            for (const body of [person(nextCuit()), '{ no es json', { tipo: 'otro' }, null]) {
                const err = await refusalOf(create(reader, body));
                expect(err).to.include({ kind: 'forbidden', message: messages.writingDisabled });
            }

            expect(memory.world.clients).to.deep.equal([]);
        });

        describe('400 causes, each message naming its field', () => {

            const cases: [string, () => unknown, string[]][] = [
                ['body not an object', () => [person(nextCuit())], [messages.clientWrite.bodyNotObject]],
                ['body null', () => null, [messages.clientWrite.bodyNotObject]],
                ['tipo missing', () => ({ cuit: nextCuit(), nombre: 'A', apellido: 'B', clave_arca: 'c' }), ["'tipo'"]],
                ['tipo unknown', () => person(nextCuit(), { tipo: 'persona' }), [messages.clientWrite.tipo]],
                ['cuit missing', () => ({ tipo: 'persona-fisica', nombre: 'A', apellido: 'B', clave_arca: 'c' }), [messages.clientWrite.required('cuit')]],
                ['cuit malformed', () => person('20-1234567-86'), [messages.clientWrite.cuit]],
                ['cuit with letters', () => person('20l23456786'), [messages.clientWrite.cuit]],
                ['cuit not a string', () => person(nextCuit(), { cuit: 20123456786 }), [messages.clientWrite.cuit]],
                ['nombre missing', () => ({ ...person(nextCuit()), nombre: undefined }), [messages.clientWrite.required('nombre')]],
                ['nombre empty', () => person(nextCuit(), { nombre: '' }), [messages.clientWrite.nombre]],
                ['nombre blank', () => person(nextCuit(), { nombre: '   ' }), [messages.clientWrite.nombre]],
                ['nombre too long', () => person(nextCuit(), { nombre: 'x'.repeat(201) }), [messages.clientWrite.nombre]],
                ['nombre null', () => person(nextCuit(), { nombre: null }), [messages.clientWrite.nombre]],
                ['apellido missing', () => ({ ...person(nextCuit()), apellido: undefined }), [messages.clientWrite.required('apellido')]],
                ['apellido not a string', () => person(nextCuit(), { apellido: 7 }), [messages.clientWrite.apellido]],
                ['clave_arca missing', () => ({ ...person(nextCuit()), clave_arca: undefined }), [messages.clientWrite.required('clave_arca')]],
                ['clave_arca empty', () => person(nextCuit(), { clave_arca: '' }), [messages.clientWrite.clave_arca]],
                ['email malformed', () => person(nextCuit(), { email: 'maria@' }), [messages.clientWrite.email]],
                ['email not a string', () => person(nextCuit(), { email: true }), [messages.clientWrite.email]],
                ['telefono too long', () => person(nextCuit(), { telefono: '1'.repeat(61) }), [messages.clientWrite.telefono]],
                ['telefono a number', () => person(nextCuit(), { telefono: 1144445555 }), [messages.clientWrite.telefono]],
                [
                    'razon_social missing',
                    () => ({ tipo: 'persona-juridica', cuit: nextCuit('30'), representante: nextCuit() }),
                    [messages.clientWrite.required('razon_social')]
                ],
                ['razon_social empty', () => entity(nextCuit('30'), nextCuit(), { razon_social: '' }), [messages.clientWrite.razon_social]],
                [
                    'representante missing',
                    () => ({ tipo: 'persona-juridica', cuit: nextCuit('30'), razon_social: 'X SA' }),
                    [messages.clientWrite.required('representante')]
                ],
                ['representante malformed', () => entity(nextCuit('30'), '123'), [messages.clientWrite.representante]],
                ['monotributista sent', () => person(nextCuit(), { monotributista: true }), [messages.clientWrite.monotributista]],
                ['autonomo sent', () => person(nextCuit(), { autonomo: false }), [messages.clientWrite.autonomo]],
                ['monotributista sent by an entity', () => entity(nextCuit('30'), nextCuit(), { monotributista: null }), [messages.clientWrite.monotributista]],
                [
                    'clave_arca for a legal entity',
                    () => entity(nextCuit('30'), nextCuit(), { clave_arca: 'x' }),
                    [messages.clientWrite.notApplicable('clave_arca', 'persona-juridica')]
                ],
                ['razon_social for a person', () => person(nextCuit(), { razon_social: 'X SA' }), [messages.clientWrite.notApplicable('razon_social', 'persona-fisica')]],
                ['nombre for an entity', () => entity(nextCuit('30'), nextCuit(), { nombre: 'X' }), [messages.clientWrite.notApplicable('nombre', 'persona-juridica')]],
                ['unknown field', () => person(nextCuit(), { categoria: 'A' }), [messages.unknownField('categoria')]],
                ['another unknown field', () => person(nextCuit(), { etiquetas: ['x'] }), [messages.unknownField('etiquetas')]]
            ];

            for (const [name, body, fragments] of cases) {
                it(name, async () => {

                    const message = await internals.invalid(create(owner, body()), ...fragments);
                    expect(message).to.match(/'[a-z_]+'|objeto JSON/);
                    expect(memory.world.clients).to.deep.equal([]);
                });
            }

            it('joins every failure of one body in one message', async () => {

                await internals.invalid(create(owner, {
                    tipo: 'persona-fisica',
                    cuit: 'x',
                    nombre: '',
                    email: 'no',
                    monotributista: true,
                    autonomo: true,
                    foo: 1,
                    razon_social: 'S'
                }),
                messages.clientWrite.cuit,
                messages.clientWrite.nombre,
                messages.clientWrite.required('apellido'),
                messages.clientWrite.required('clave_arca'),
                messages.clientWrite.email,
                messages.clientWrite.monotributista,
                messages.clientWrite.autonomo,
                messages.unknownField('foo'),
                messages.clientWrite.notApplicable('razon_social', 'persona-fisica'));
            });

            it('refuses a representative that is absent, a legal entity, or in another account', async () => {

                const rep = nextCuit();
                await create(owner, person(rep));
                const otherEntity = nextCuit('30');
                await create(owner, entity(otherEntity, rep));
                const foreignPerson = nextCuit();
                await create(memory.account({ writing: true }), person(foreignPerson));

                for (const representante of [nextCuit(), otherEntity, foreignPerson]) {
                    const cuit = nextCuit('30');
                    await internals.invalid(create(owner, entity(cuit, representante)), messages.clientWrite.representativeNotFound);
                    expect(stored(cuit)).to.equal(undefined);
                }
            });

            it('lets a member name only a representative it manages, with the same 400 as an absent one', async () => {

                const member = memory.member(owner.accountId);
                const ownersPerson = nextCuit();
                await create(owner, person(ownersPerson));
                const borrowed = nextCuit('30');
                await internals.invalid(create(member, entity(borrowed, ownersPerson)), messages.clientWrite.representativeNotFound);
                expect(stored(borrowed)).to.equal(undefined);
                await create(owner, entity(nextCuit('30'), ownersPerson));
            });

            it('checks the body before the CUIT conflict', async () => {

                const cuit = nextCuit();
                await create(owner, person(cuit));
                await internals.invalid(create(owner, person(cuit, { monotributista: true })), messages.clientWrite.monotributista);
            });
        });
    });

    describe('editing (a merge patch)', () => {

        let personCuit: string;
        let entityCuit: string;
        let before: string;

        beforeEach(async () => {

            personCuit = nextCuit();
            await create(owner, person(personCuit, { email: 'keep@example.com', telefono: '123' }));
            entityCuit = nextCuit('30');
            await create(owner, entity(entityCuit, personCuit));
            before = JSON.stringify(memory.world.clients);
        });

        // Nothing a refused edit sent was stored.
        const unchanged = () => expect(JSON.stringify(memory.world.clients)).to.equal(before);

        it('changes the sent fields only and recomputes the shown name and its sort key', async () => {

            const sealed = stored(personCuit)!.sealedKey;
            expect(await update(owner, personCuit, { nombre: 'Ana' })).to.deep.include({ nombre: 'González, Ana', email: 'keep@example.com', telefono: '123' });
            expect(stored(personCuit)).to.include({ nombre: 'Ana', apellido: 'González', displayName: 'González, Ana', sortName: 'gonzalez, ana', sealedKey: sealed });
            expect((await update(owner, personCuit, { apellido: 'Álvarez' })).nombre).to.equal('Álvarez, Ana');
            expect(stored(personCuit)!.sortName).to.equal('alvarez, ana');
        });

        it('clears email and telefono with null and leaves them with absence', async () => {

            expect(await update(owner, personCuit, { email: null })).to.include({ email: null, telefono: '123' });
            expect(await update(owner, personCuit, { telefono: null, email: 'b@example.com' })).to.include({ email: 'b@example.com', telefono: null });
        });

        it('re-seals a new clave_arca and never returns it', async () => {

            const view = await update(owner, personCuit, { clave_arca: 'Nueva-Clave-2' });
            expect(JSON.stringify(view)).to.not.contain('Nueva-Clave-2');
            expect(memory.ports.secretBox.open(stored(personCuit)!.sealedKey!)).to.equal('Nueva-Clave-2');
        });

        it('edits a legal entity\'s business name and representative, which must be a person it may name', async () => {

            const rep2 = nextCuit();
            await create(owner, person(rep2));
            expect(await update(owner, entityCuit, { razon_social: 'La Espiga SA', representante: rep2 })).to.include({ nombre: 'La Espiga SA' });
            expect(stored(entityCuit)).to.include({ representativeId: stored(rep2)!.id, sortName: 'la espiga sa' });
            await internals.invalid(update(owner, entityCuit, { representante: entityCuit }), messages.clientWrite.representativeNotFound);
            await internals.invalid(update(owner, entityCuit, { representante: nextCuit() }), messages.clientWrite.representativeNotFound);
        });

        it('1. an empty object answers 400', async () => {

            await internals.invalid(update(owner, personCuit, {}), messages.clientWrite.emptyPatch);
            unchanged();
        });

        it('2. a field not applicable to the client type answers 400 naming it', async () => {

            await internals.invalid(update(owner, personCuit, { razon_social: 'X SA' }), messages.clientWrite.notApplicable('razon_social', 'persona-fisica'));
            await internals.invalid(update(owner, personCuit, { representante: personCuit }), messages.clientWrite.notApplicable('representante', 'persona-fisica'));
            await internals.invalid(update(owner, entityCuit, { nombre: 'X' }), messages.clientWrite.notApplicable('nombre', 'persona-juridica'));
            await internals.invalid(update(owner, entityCuit, { apellido: 'X' }), messages.clientWrite.notApplicable('apellido', 'persona-juridica'));
            await internals.invalid(update(owner, entityCuit, { clave_arca: 'x' }), messages.clientWrite.notApplicable('clave_arca', 'persona-juridica'));
            unchanged();
        });

        it('3. null on anything but email and telefono (nombre, apellido, clave_arca, razon_social, representante) answers 400 naming the field', async () => {

            for (const field of ['nombre', 'apellido', 'clave_arca']) {
                await internals.invalid(update(owner, personCuit, { [field]: null }), messages.clientWrite.notNullable(field));
            }

            for (const field of ['razon_social', 'representante']) {
                await internals.invalid(update(owner, entityCuit, { [field]: null }), messages.clientWrite.notNullable(field));
            }

            unchanged();
        });

        it('4. cuit or tipo in the body answers 400: they cannot be modified', async () => {

            for (const body of [{ cuit: nextCuit() }, { tipo: 'persona-juridica' }, { cuit: personCuit, tipo: 'persona-fisica', nombre: 'Ana' }]) {
                await internals.invalid(update(owner, personCuit, body), messages.clientWrite.immutable, "'cuit'", "'tipo'");
            }

            unchanged();
        });

        it('5. monotributista or autonomo in the body answers 400', async () => {

            await internals.invalid(update(owner, personCuit, { monotributista: true }), messages.clientWrite.monotributista);
            await internals.invalid(update(owner, personCuit, { autonomo: null }), messages.clientWrite.autonomo);
            await internals.invalid(
                update(owner, entityCuit, { monotributista: false, autonomo: false }),
                messages.clientWrite.monotributista,
                messages.clientWrite.autonomo
            );
            unchanged();
        });

        it('refuses invalid values naming each field, all joined, and a body that is not an object', async () => {

            await internals.invalid(
                update(owner, personCuit, { nombre: '', apellido: 5, email: 'x', telefono: 'y'.repeat(61), clave_arca: '', otro: 1 }),
                messages.clientWrite.nombre,
                messages.clientWrite.apellido,
                messages.clientWrite.email,
                messages.clientWrite.telefono,
                messages.clientWrite.clave_arca,
                messages.unknownField('otro')
            );
            await internals.invalid(update(owner, personCuit, [1]), messages.clientWrite.bodyNotObject);
            unchanged();
        });

        it('answers 400 naming the CUIT for a malformed {cuit}, together with the body\'s faults', async () => {

            await internals.invalid(update(owner, '20-123', { nombre: 'Ana' }), messages.field.cuitPath);
            await internals.invalid(update(owner, '20-123', { monotributista: true }), messages.field.cuitPath, messages.clientWrite.monotributista);
        });

        it('answers the identical 404 for an absent, a foreign and an unassigned CUIT, after the body\'s own faults', async () => {

            const foreign = memory.account({ writing: true });
            const foreignCuit = nextCuit();
            await create(foreign, person(foreignCuit));
            for (const [principal, cuit] of [[owner, nextCuit()], [owner, foreignCuit], [memory.member(owner.accountId), personCuit]] as const) {
                const err = await refusalOf(update(principal, cuit, { nombre: 'Intruso' }));
                expect(err).to.include({ kind: 'not_found', message: messages.notFound });
                await internals.invalid(update(principal, cuit, { monotributista: true }), messages.clientWrite.monotributista);
            }

            expect(stored(foreignCuit, foreign.accountId)!.nombre).to.equal('María');
        });

        it('answers 403 when writing is not enabled, before the body and the CUIT', async () => {

            const reader = memory.account({ writing: false });
            for (const body of [{ nombre: 'Ana' }, {}, '[1]']) {
                expect(await refusalOf(update(reader, personCuit, body))).to.include({ kind: 'forbidden', message: messages.writingDisabled });
            }

            unchanged();
        });
    });

    describe('deleting', () => {

        it('removes the client and its pending synchronizations', async () => {

            const cuit = nextCuit();
            await create(owner, person(cuit));
            expect(await remove(owner, cuit)).to.deep.equal({ cuit });
            expect(stored(cuit)).to.equal(undefined);
            expect(memory.world.jobs).to.deep.equal([]);
            expect(await refusalOf(remove(owner, cuit))).to.include({ kind: 'not_found', message: messages.notFound });
        });

        it('answers 409 while the client represents a legal entity of the account, and deletes nothing', async () => {

            const rep = nextCuit();
            await create(owner, person(rep));
            const cuit = nextCuit('30');
            await create(owner, entity(cuit, rep));
            expect(await refusalOf(remove(owner, rep))).to.include({ kind: 'conflict', message: messages.clientWrite.representsEntities });
            expect(stored(rep)).to.not.equal(undefined);
            expect(memory.world.jobs).to.have.length(2);
            await remove(owner, cuit);
            await remove(owner, rep);
        });

        it('answers the identical 404 for an absent, a foreign and an unassigned CUIT; 403 without writing; 400 for a malformed CUIT', async () => {

            const foreign = memory.account({ writing: true });
            const foreignCuit = nextCuit();
            await create(foreign, person(foreignCuit));
            const mine = nextCuit();
            await create(owner, person(mine));
            for (const [principal, cuit] of [[owner, nextCuit()], [owner, foreignCuit], [memory.member(owner.accountId), mine]] as const) {
                expect(await refusalOf(remove(principal, cuit))).to.include({ kind: 'not_found', message: messages.notFound });
            }

            const reader = memory.account({ writing: false });
            expect(await refusalOf(remove(reader, mine))).to.include({ kind: 'forbidden', message: messages.writingDisabled });
            await internals.invalid(remove(owner, '12'), messages.field.cuitPath);
            expect(memory.world.clients.map((row) => row.cuit)).to.deep.equal([foreignCuit, mine]);
        });

        it('lets a member delete a CUIT it manages', async () => {

            const member = memory.member(owner.accountId);
            const cuit = nextCuit();
            await create(member, person(cuit));
            await remove(member, cuit);
            expect(stored(cuit)).to.equal(undefined);
        });
    });

    describe('from the panel (SPEC\'s dashboard)', () => {

        it('creates, edits and deletes without API writing, which the API alone requires', async () => {

            const reader = memory.account({ writing: false });
            const cuit = nextCuit();
            expect(await refusalOf(create(reader, person(cuit)))).to.include({ kind: 'forbidden', message: messages.writingDisabled });
            await createClient(memory.ports, reader, person(cuit), 'panel');
            expect(await updateClient(memory.ports, reader, cuit, { email: 'nuevo@example.com' }, 'panel')).to.include({ email: 'nuevo@example.com' });
            expect(await refusalOf(update(reader, cuit, { email: null }))).to.include({ kind: 'forbidden' });
            expect(await refusalOf(remove(reader, cuit))).to.include({ kind: 'forbidden' });
            await deleteClient(memory.ports, reader, cuit, 'panel');
            expect(stored(cuit, reader.accountId)).to.equal(undefined);
        });

        it('keeps every other rule, and tells each refusal by its field', async () => {

            const reader = memory.account({ writing: false });
            const err = await refusalOf(createClient(memory.ports, reader, { tipo: 'persona-fisica', cuit: '12', nombre: 'Ana', email: 'no' }, 'panel'));
            expect(err.kind).to.equal('invalid');
            expect(err.fields).to.deep.equal({
                cuit: messages.clientWrite.cuit,
                apellido: messages.clientWrite.required('apellido'),
                clave_arca: messages.clientWrite.required('clave_arca'),
                email: messages.clientWrite.email
            });
            const rep = await refusalOf(createClient(memory.ports, reader, entity(nextCuit('30'), nextCuit()), 'panel'));
            expect(rep.fields).to.deep.equal({ representante: messages.clientWrite.representativeNotFound });
            expect(memory.world.clients).to.deep.equal([]);
        });
    });
});
