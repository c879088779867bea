import { expect } from 'chai';
import type { Knex } from 'knex';
import { messages } from '../../../core/domain/messages.js';
import { testDatabases } from '../../support/databases.js';
import { noRateLimits, perCuitEndpoints } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { seedAccount, seedUser, tagClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { injectServer, startTestServer, writeServerEnv } from '../../support/server.js';
import type { MemoryPorts } from '../../support/memory-ports.js';
import { memoryPorts } from '../../support/memory-ports.js';
import { cuitSequence, entityBody, personBody } from '../../support/client-bodies.js';
import { httpMessages } from '../../../servers/http/messages.js';
import { databaseOf } from '../../support/app.js';

// docs/api.md, Writes and Errors: POST, PATCH and DELETE /v1/cuits over HTTP. What each
// database decides (unique index, transactions, who sees which CUIT in SQL) runs on both;
// what the transport and the core decide runs once, on the in-memory ports.

const person = personBody;
const entity = entityBody;

const nextCuit = cuitSequence();

// A 400 in the API's shape whose message names each fragment.
const expect400 = (res: { status: number; body: any }, ...fragments: string[]) => {

    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(Object.keys(res.body)).to.deep.equal(['error']);
    for (const fragment of fragments) {
        expect(res.body.error).to.contain(fragment);
    }
};

// What the transport and the core decide before any database is asked: checked over HTTP on the
// in-memory ports (test/support/memory-ports.ts), requests injected. The rules themselves, one by
// one: client-rules.test.ts.
describe('Write endpoints /v1/cuits: access, content type and body, before the database (in memory)', () => {

    let memory: MemoryPorts;
    let api: Awaited<ReturnType<typeof injectServer>>;
    let owner: SeededUser;

    before(async () => {

        memory = memoryPorts({ rateLimits: noRateLimits });
        api = await injectServer(memory.ports);
    });

    after(async () => {

        await api.stop();
    });

    beforeEach(async () => {

        owner = await seedAccount(memory.ports, { writing: true });
    });

    const send = (user: SeededUser | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => api.request(path, {
        ...(user ? { token: user.token } : {}),
        method,
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        headers
    });
    const created = async (user: SeededUser, body: Record<string, unknown>) => {

        const res = await send(user, 'POST', '/v1/cuits', body);
        expect(res.status, res.text).to.equal(201);
        return res.body.data;
    };

    const writes = (cuit: string): [string, string, string | undefined][] => [
        ['POST', '/v1/cuits', JSON.stringify(person(cuit))],
        ['PATCH', `/v1/cuits/${cuit}`, JSON.stringify({ nombre: 'Ana' })],
        ['DELETE', `/v1/cuits/${cuit}`, undefined]
    ];

    it('answers 401 without a valid token and the subscription 403s on every write, before writing, content type or body', async () => {

        const cuit = nextCuit();
        await created(owner, person(cuit));
        const before = JSON.stringify(memory.world.clients);
        const paused = await seedAccount(memory.ports, { writing: true, subscription: 'paused' });
        const ended = await seedAccount(memory.ports, { writing: true, subscription: 'ended' });
        for (const [method, path, body] of writes(cuit)) {
            const missing = await send(null, method, path, body, { 'content-type': 'text/plain' });
            expect(missing.status, `${method} ${path}`).to.equal(401);
            expect(missing.body).to.deep.equal({ error: messages.unauthenticated });
            const wrong = await send({ ...owner, token: 'asy_no-existe' }, method, path, body);
            expect(wrong.status).to.equal(401);
            for (const [user, message] of [[paused, messages.subscriptionPaused], [ended, messages.subscriptionInactive]] as const) {
                const res = await send(user, method, path, body === undefined ? undefined : '{ roto', { 'content-type': 'text/plain' });
                expect(res.status, `${method} ${path}`).to.equal(403);
                expect(res.body).to.deep.equal({ error: message });
            }
        }

        expect(JSON.stringify(memory.world.clients)).to.equal(before);
    });

    it('answers 429 with the rate-limit headers on every write once the user is over its limit, writing nothing', async () => {

        const limited = memoryPorts({ rateLimits: { perMinute: 2, perMonth: 1000 } });
        const limitedApi = await injectServer(limited.ports);
        try {
            const user = await seedAccount(limited.ports, { writing: true });
            const cuit = nextCuit();
            expect((await limitedApi.request('/v1/cuits', { token: user.token, method: 'POST', body: person(cuit) })).status).to.equal(201);
            expect((await limitedApi.request(`/v1/cuits/${cuit}`, { token: user.token, method: 'PATCH', body: { telefono: '1' } })).status).to.equal(200);
            for (const [method, path, body] of writes(cuit)) {
                const res = await limitedApi.request(path, { method, token: user.token, ...(body === undefined ? {} : { body }) });
                expect(res.status, `${method} ${path}`).to.equal(429);
                expect(res.body).to.deep.equal({ error: messages.rateLimited });
                expect(res.headers.get('x-ratelimit-limit')).to.equal('2');
                expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
                expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
            }

            expect(limited.world.clients).to.have.length(1);
            expect(limited.world.clients[0]).to.include({ telefono: '1', nombre: 'María' });
        }
        finally {
            await limitedApi.stop();
        }
    });

    it('refuses writing not enabled with the spec message on every write, before the content type and the body', async () => {

        const cuit = nextCuit();
        await created(owner, person(cuit));
        const before = JSON.stringify(memory.world.clients);
        const reader = await seedAccount(memory.ports, { writing: false });
        for (const res of [
            await send(reader, 'POST', '/v1/cuits', person(nextCuit())),
            await send(reader, 'POST', '/v1/cuits', 'tipo=persona-fisica', { 'content-type': 'application/x-www-form-urlencoded' }),
            await send(reader, 'POST', '/v1/cuits', '{ no es json'),
            await send(reader, 'POST', '/v1/cuits', { tipo: 'otro' }),
            await send(reader, 'PATCH', `/v1/cuits/${cuit}`, { nombre: 'Ana' }, { 'content-type': 'text/plain' }),
            await send(reader, 'DELETE', `/v1/cuits/${cuit}`)
        ]) {
            expect(res.status).to.equal(403);
            expect(res.body).to.deep.equal({ error: messages.writingDisabled });
        }

        expect(JSON.stringify(memory.world.clients)).to.equal(before);
    });

    it('answers 415 for a body not sent as application/json (POST) or JSON merge patch (PATCH), before validating it', async () => {

        const cuit = nextCuit();
        await created(owner, person(cuit));
        for (const headers of [
            { 'content-type': 'text/plain' },
            { 'content-type': 'application/x-www-form-urlencoded' },
            { 'content-type': 'application/merge-patch+json' }
        ]) {
            const res = await send(owner, 'POST', '/v1/cuits', { tipo: 'otro' }, headers);
            expect(res.status, JSON.stringify(headers)).to.equal(415);
            expect(res.body).to.deep.equal({ error: httpMessages.unsupportedMediaType });
        }

        expect((await send(owner, 'POST', '/v1/cuits')).status).to.equal(415);
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
            const res = await send(owner, 'PATCH', `/v1/cuits/${cuit}`, { nombre: 'Ana' }, { 'content-type': type });
            expect(res.status, type).to.equal(415);
            expect(res.body).to.deep.equal({ error: httpMessages.unsupportedMediaType });
        }

        expect((await send(owner, 'POST', '/v1/cuits', person(nextCuit()), { 'content-type': 'application/json; charset=utf-8' })).status).to.equal(201);
        const merged = await send(owner, 'PATCH', `/v1/cuits/${cuit}`, { telefono: '555' }, { 'content-type': 'application/merge-patch+json' });
        expect(merged.status).to.equal(200);
        expect(merged.body.data.telefono).to.equal('555');
    });

    it('answers 400 in Spanish for a malformed JSON body, without quoting it', async () => {

        const cuit = nextCuit();
        await created(owner, person(cuit));
        const res = await send(owner, 'POST', '/v1/cuits', '{"tipo": "persona-fisica", "clave_arca": "Secreto-Roto"');
        expect400(res, httpMessages.invalidJson);
        expect(res.text).to.not.contain('Secreto-Roto');
        expect400(await send(owner, 'POST', '/v1/cuits', ''), httpMessages.invalidJson);
        expect400(await send(owner, 'PATCH', `/v1/cuits/${cuit}`, '{"nombre":'), httpMessages.invalidJson);
    });

    it('answers every failure of one body in one 400, each naming its field', async () => {

        expect400(
            await send(owner, 'POST', '/v1/cuits', { tipo: 'persona-fisica', cuit: 'x', nombre: '', foo: 1 }),
            messages.clientWrite.cuit,
            messages.clientWrite.nombre,
            messages.clientWrite.required('apellido'),
            messages.unknownField('foo')
        );

        const cuit = nextCuit();
        await created(owner, person(cuit));
        expect400(await send(owner, 'PATCH', `/v1/cuits/${cuit}`, { nombre: null, monotributista: true }), messages.clientWrite.notNullable('nombre'), messages.clientWrite.monotributista);
        expect400(await send(owner, 'PATCH', `/v1/cuits/${cuit}`, '[1]'), messages.clientWrite.bodyNotObject);
        expect400(await send(owner, 'PATCH', '/v1/cuits/20-123', { nombre: 'Ana' }), messages.field.cuitPath);
        expect(memory.world.clients.find((row) => row.cuit === cuit)).to.include({ nombre: 'María' });
    });
});

for (const database of testDatabases()) {

    describe(`Write endpoints /v1/cuits (${database.name})`, () => {

        let server: TestServer;
        let knex: Knex;
        let owner: SeededUser;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, env: writeServerEnv, inject: true });
            knex = databaseOf(server.app);
            owner = await seedAccount(server.app.ports, { writing: true });
        });

        after(async () => {

            await server.stop();
        });

        const post = (user: SeededUser, body: unknown, headers: Record<string, string> = {}) => server.request('/v1/cuits', {
            token: user.token,
            method: 'POST',
            body: typeof body === 'string' ? body : JSON.stringify(body),
            headers
        });
        const patch = (user: SeededUser, cuit: string, body: unknown, headers: Record<string, string> = {}) => server.request(`/v1/cuits/${cuit}`, { token: user.token, method: 'PATCH', body: typeof body === 'string' ? body : JSON.stringify(body), headers });
        const remove = (user: SeededUser, cuit: string) => server.request(`/v1/cuits/${cuit}`, { token: user.token, method: 'DELETE' });
        const listed = async (user: SeededUser) => {

            const res = await server.request('/v1/cuits?limit=100', { token: user.token });
            expect(res.status).to.equal(200);
            return res.body.data as Record<string, unknown>[];
        };

        const created = async (user: SeededUser, body: Record<string, unknown>) => {

            const res = await post(user, body);
            expect(res.status, res.text).to.equal(201);
            return res.body.data;
        };

        describe('POST /v1/cuits', () => {

            it('creates a physical person: 201 {data: CUIT}, nombre as "<apellido>, <nombre>", registry fields null', async () => {

                const cuit = nextCuit();
                const res = await post(owner, person(`${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`, { email: 'maria@example.com', telefono: '11 4444-5555' }));
                expect(res.status, res.text).to.equal(201);
                expect(Object.keys(res.body)).to.deep.equal(['data']);
                expect(res.body.data).to.have.all.keys('id', 'cuit', 'displayCuit', 'tipo', 'nombre', 'email', 'telefono');
                expect(res.body.data).to.include({
                    cuit,
                    displayCuit: `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`,
                    tipo: 'persona-fisica',
                    nombre: 'González, María',
                    email: 'maria@example.com',
                    telefono: '11 4444-5555'
                });
                expect(res.body.data.id).to.be.a('string').and.not.equal('');

                const item = (await listed(owner)).find((entry) => entry.cuit === cuit)!;
                expect(item).to.include({ id: res.body.data.id, monotributista: null, autonomo: null, categoria: null, sistemaRegistralSyncedAt: null });
                expect(item.etiquetas).to.deep.equal([]);
            });

            it('creates a legal entity represented by a physical person of the account; no key is stored for it', async () => {

                const rep = nextCuit();
                await created(owner, person(rep));
                const cuit = nextCuit('30');
                const data = await created(owner, entity(cuit, `${rep.slice(0, 2)}-${rep.slice(2, 10)}-${rep.slice(10)}`));
                expect(data).to.deep.include({ cuit, tipo: 'persona-juridica', nombre: 'Panadería La Espiga SRL', email: null, telefono: null });
                const row = await knex('clients').where({ cuit, account_id: owner.accountId }).first();
                const repRow = await knex('clients').where({ cuit: rep, account_id: owner.accountId }).first();
                expect(row.clave_arca).to.equal(null);
                expect(Number(row.representative_id)).to.equal(Number(repRow.id));
            });

            it('records the first synchronization in the same write: one pending "first" job due now', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit));
                const client = await knex('clients').where({ cuit, account_id: owner.accountId }).first();
                const jobs = await knex('sync_jobs').where({ client_id: client.id });
                expect(jobs).to.have.length(1);
                expect(jobs[0]).to.include({ reason: 'first', status: 'pending' });
                expect(Number(jobs[0].attempts)).to.equal(0);
                expect(Number(jobs[0].run_after)).to.equal(server.clock.now().getTime());
                expect(Number(jobs[0].created_at)).to.equal(server.clock.now().getTime());
            });

            it('seals the key: what is stored is not the key, and it opens to the key', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit, { clave_arca: 'Otra clave con espacios ' }));
                const row = await knex('clients').where({ cuit, account_id: owner.accountId }).first();
                expect(row.clave_arca).to.match(/^v1\.[0-9a-f]{8}\./);
                expect(row.clave_arca).to.not.contain('Otra clave');
                expect(server.app.ports.secretBox.open(row.clave_arca)).to.equal('Otra clave con espacios ');
            });

            it('answers 409 "El CUIT ya está registrado" for a CUIT already in the account, hyphens or not, and on a retry', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit));
                for (const again of [cuit, `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`, cuit]) {
                    const res = await post(owner, person(again, { nombre: 'Otro' }));
                    expect(res.status).to.equal(409);
                    expect(res.body).to.deep.equal({ error: messages.cuitTaken });
                }

                const rows = await knex('clients').where({ cuit, account_id: owner.accountId });
                expect(rows).to.have.length(1);
                expect(rows[0].nombre).to.equal('María');
            });

            it('lets another account register the same CUIT', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit));
                const other = await seedAccount(server.app.ports, { writing: true });
                await created(other, person(cuit));
            });

            it('gives exactly one 201 and 409 for the rest when 20 creations of one CUIT race', async () => {

                const cuit = nextCuit();
                // The user's rate-limit row exists already (its first-ever requests racing each
                // other is the rate limiter's business, not this test's).
                await listed(owner);
                const results = await Promise.all(Array.from({ length: 20 }, () => post(owner, person(cuit))));
                const statuses = results.map((res) => res.status).sort();
                expect(statuses.filter((status) => status === 201), statuses.join(',')).to.have.length(1);
                expect(statuses.filter((status) => status === 409), statuses.join(',')).to.have.length(19);
                const rows = await knex('clients').where({ cuit, account_id: owner.accountId });
                expect(rows).to.have.length(1);
                expect(await knex('sync_jobs').where({ client_id: rows[0].id })).to.have.length(1);
            });

            it('assigns the new CUIT to a member who creates it, so the member sees it', async () => {

                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                const cuit = nextCuit();
                await created(member, person(cuit));
                expect((await listed(member)).map((item) => item.cuit)).to.deep.equal([cuit]);
                expect((await listed(owner)).map((item) => item.cuit)).to.include(cuit);
            });

            // docs/api.md, Access: the 409 is all a member learns of an account CUIT it does
            // not manage (issue 29 item 11).
            it('answers a member posting an account CUIT it does not manage with the bare 409, and still 404 on its data, PATCH and DELETE', async () => {

                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                const cuit = nextCuit();
                await created(owner, person(cuit, { email: 'maria@example.com', telefono: '1144445555' }));
                for (const again of [cuit, `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`]) {
                    const res = await post(member, person(again, { nombre: 'Otro' }));
                    expect(res.status).to.equal(409);
                    expect(res.text).to.equal(JSON.stringify({ error: messages.cuitTaken }));
                }

                for (const res of [
                    ...await Promise.all(perCuitEndpoints(cuit).map((path) => server.request(path, { token: member.token }))),
                    await patch(member, cuit, { nombre: 'Otro' }),
                    await remove(member, cuit)
                ]) {
                    expect(res.status).to.equal(404);
                    expect(res.body).to.deep.equal({ error: messages.notFound });
                }

                expect((await listed(member)).map((item) => item.cuit)).to.not.include(cuit);
                const rows = await knex('clients').where({ cuit, account_id: owner.accountId });
                expect(rows).to.have.length(1);
                expect(rows[0].nombre).to.equal('María');
                expect(await knex('user_clients').where({ client_id: rows[0].id, user_id: member.userId })).to.have.length(0);
            });

            it('lets a member name only a representative it manages, with the same 400 as an absent one', async () => {

                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                const ownersPerson = nextCuit();
                await created(owner, person(ownersPerson));
                const membersPerson = nextCuit();
                await created(member, person(membersPerson));

                const borrowed = nextCuit('30');
                expect400(await post(member, entity(borrowed, ownersPerson)), messages.clientWrite.representativeNotFound);
                expect(await knex('clients').where({ cuit: borrowed })).to.have.length(0);

                const own = nextCuit('30');
                await created(member, entity(own, membersPerson));
                expect400(await patch(member, own, { representante: ownersPerson }), messages.clientWrite.representativeNotFound);
                expect(
                    Number((await knex('clients').where({ cuit: own }).first()).representative_id)
                ).to.equal(Number((await knex('clients').where({ cuit: membersPerson }).first()).id));

                // The owner manages every person of the account, so the same entity is fine for it.
                await created(owner, entity(nextCuit('30'), ownersPerson));
            });
        });

        describe('PATCH /v1/cuits/{cuit}', () => {

            const clientRow = (cuit: string, accountId = owner.accountId) => knex('clients').where({ cuit, account_id: accountId }).first();

            it('changes the sent fields only and recomputes the shown name; tags stay', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit, { email: 'a@example.com', telefono: '123' }));
                await tagClient(server.app.ports, owner.accountId, cuit, 'VIP');
                const before = await clientRow(cuit);

                const res = await patch(owner, cuit, { nombre: 'Ana' });
                expect(res.status, res.text).to.equal(200);
                expect(Object.keys(res.body)).to.deep.equal(['data']);
                expect(res.body.data).to.deep.equal({ id: res.body.data.id, cuit, displayCuit: `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`, tipo: 'persona-fisica', nombre: 'González, Ana', email: 'a@example.com', telefono: '123' });

                const after = await clientRow(cuit);
                expect(after).to.include({
                    nombre: 'Ana',
                    apellido: 'González',
                    display_name: 'González, Ana',
                    sort_name: 'gonzalez, ana',
                    clave_arca: before.clave_arca
                });
                const item = (await listed(owner)).find((entry) => entry.cuit === cuit)!;
                expect(item).to.include({ nombre: 'González, Ana' });
                expect(item.etiquetas).to.deep.equal(['VIP']);

                const apellido = await patch(owner, cuit, { apellido: 'Álvarez' });
                expect(apellido.body.data.nombre).to.equal('Álvarez, Ana');
                expect((await clientRow(cuit)).sort_name).to.equal('alvarez, ana');
            });

            it('clears email and telefono with null and leaves them with absence', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit, { email: 'a@example.com', telefono: '123' }));
                const cleared = await patch(owner, cuit, { email: null });
                expect(cleared.body.data).to.include({ email: null, telefono: '123' });
                const both = await patch(owner, cuit, { telefono: null, email: 'b@example.com' });
                expect(both.body.data).to.include({ email: 'b@example.com', telefono: null });
            });

            it('re-seals a new clave_arca and never returns it', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit));
                const before = (await clientRow(cuit)).clave_arca;
                const res = await patch(owner, cuit, { clave_arca: 'Nueva-Clave-2' });
                expect(res.status).to.equal(200);
                expect(res.text).to.not.contain('Nueva-Clave-2');
                const after = (await clientRow(cuit)).clave_arca;
                expect(after).to.not.equal(before);
                expect(server.app.ports.secretBox.open(after)).to.equal('Nueva-Clave-2');
            });

            it('edits a legal entity: business name and representative', async () => {

                const rep = nextCuit();
                const rep2 = nextCuit();
                await created(owner, person(rep));
                await created(owner, person(rep2));
                const cuit = nextCuit('30');
                await created(owner, entity(cuit, rep));
                const res = await patch(owner, cuit, { razon_social: 'La Espiga SA', representante: rep2 });
                expect(res.status, res.text).to.equal(200);
                expect(res.body.data).to.include({ nombre: 'La Espiga SA', tipo: 'persona-juridica' });
                const row = await clientRow(cuit);
                expect(Number(row.representative_id)).to.equal(Number((await clientRow(rep2)).id));
                expect(row.sort_name).to.equal('la espiga sa');

                expect400(await patch(owner, cuit, { representante: cuit }), messages.clientWrite.representativeNotFound);
                expect400(await patch(owner, cuit, { representante: nextCuit() }), messages.clientWrite.representativeNotFound);
            });

            it('answers the identical 404 for an absent, a foreign and an unassigned CUIT', async () => {

                const personCuit = nextCuit();
                await created(owner, person(personCuit));
                const foreign = await seedAccount(server.app.ports, { writing: true });
                const foreignCuit = nextCuit();
                await created(foreign, person(foreignCuit));
                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                for (const [user, cuit] of [[owner, nextCuit()], [owner, foreignCuit], [member, personCuit]] as const) {
                    const res = await patch(user, cuit, { nombre: 'Intruso' });
                    expect(res.status).to.equal(404);
                    expect(res.body).to.deep.equal({ error: messages.notFound });
                }

                expect((await clientRow(foreignCuit, foreign.accountId)).nombre).to.equal('María');
            });
        });

        describe('DELETE /v1/cuits/{cuit}', () => {

            it('answers 204 with no body; afterwards every path naming the CUIT answers the spec 404', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit));
                const res = await remove(owner, cuit);
                expect(res.status).to.equal(204);
                expect(res.text).to.equal('');
                expect((await listed(owner)).map((item) => item.cuit)).to.not.include(cuit);

                for (const path of perCuitEndpoints(cuit)) {
                    const read = await server.request(path, { token: owner.token });
                    expect(read.status, path).to.equal(404);
                    expect(read.body).to.deep.equal({ error: messages.notFound });
                }

                for (const write of [await patch(owner, cuit, { nombre: 'Ana' }), await remove(owner, cuit)]) {
                    expect(write.status).to.equal(404);
                    expect(write.body).to.deep.equal({ error: messages.notFound });
                }

                // And it can be created again.
                await created(owner, person(cuit));
            });

            it('answers 409 while the client represents a legal entity of the account, and deletes nothing', async () => {

                const rep = nextCuit();
                await created(owner, person(rep));
                const cuit = nextCuit('30');
                await created(owner, entity(cuit, rep));
                const res = await remove(owner, rep);
                expect(res.status).to.equal(409);
                expect(res.body).to.deep.equal({ error: messages.clientWrite.representsEntities });
                const row = await knex('clients').where({ cuit: rep, account_id: owner.accountId }).first();
                expect(row).to.not.equal(undefined);
                expect(await knex('sync_jobs').where({ client_id: row.id })).to.have.length(1);

                expect((await remove(owner, cuit)).status).to.equal(204);
                expect((await remove(owner, rep)).status).to.equal(204);
            });

            it('answers the identical 404 for an absent, a foreign and an unassigned CUIT; 403 without writing', async () => {

                const foreign = await seedAccount(server.app.ports, { writing: true });
                const foreignCuit = nextCuit();
                await created(foreign, person(foreignCuit));
                const mine = nextCuit();
                await created(owner, person(mine));
                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                for (const [user, cuit] of [[owner, nextCuit()], [owner, foreignCuit], [member, mine]] as const) {
                    const res = await remove(user, cuit);
                    expect(res.status).to.equal(404);
                    expect(res.body).to.deep.equal({ error: messages.notFound });
                }

                const reader = await seedUser(server.app.ports, (await seedAccount(server.app.ports, { writing: false })).accountId, 'owner');
                const denied = await remove(reader, mine);
                expect(denied.status).to.equal(403);
                expect(denied.body).to.deep.equal({ error: messages.writingDisabled });
                expect400(await remove(owner, '12'), messages.field.cuitPath);
                expect(await knex('clients').where({ cuit: foreignCuit })).to.have.length(1);
                expect(await knex('clients').where({ cuit: mine })).to.have.length(1);
            });

            it('lets a member delete a CUIT it manages', async () => {

                const member = await seedUser(server.app.ports, owner.accountId, 'member');
                const cuit = nextCuit();
                await created(member, person(cuit));
                expect((await remove(member, cuit)).status).to.equal(204);
            });
        });
    });
}
