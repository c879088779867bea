import { expect } from 'chai';
import type { Knex } from 'knex';
import { messages } from '../core/domain/messages.js';
import { testDatabases } from './support/databases.js';
import { noRateLimits, perCuitEndpoints } from './support/endpoints.js';
import type { SeededUser } from './support/fixtures.js';
import { seedAccount, seedUser, tagClient } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { startTestServer, writeServerEnv } from './support/server.js';
import { httpMessages } from '../servers/http/messages.js';

// docs/api.md, Writes and Errors: POST, PATCH and DELETE /v1/cuits over HTTP.


const person = (cuit: string, extra: Record<string, unknown> = {}) => ({
    tipo: 'persona-fisica',
    cuit,
    nombre: 'María',
    apellido: 'González',
    clave_arca: 'Clave-Secreta-1',
    ...extra
});
const entity = (cuit: string, representante: string, extra: Record<string, unknown> = {}) => ({
    tipo: 'persona-juridica',
    cuit,
    razon_social: 'Panadería La Espiga SRL',
    representante,
    ...extra
});

let cuitSequence = 10_000_000;
// A fresh CUIT (hyphen-free) per call, so tests do not collide.
const nextCuit = (prefix = '20'): string => `${prefix}${String(++cuitSequence).padStart(8, '0')}${cuitSequence % 10}`;

for (const database of testDatabases()) {

    describe(`Write endpoints /v1/cuits (${database.name})`, () => {

        let server: TestServer;
        let knex: Knex;
        let owner: SeededUser;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, env: writeServerEnv });
            knex = server.app.knex;
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

        const expect400 = (res: { status: number; body: any }, ...fragments: string[]) => {

            expect(res.status, JSON.stringify(res.body)).to.equal(400);
            expect(Object.keys(res.body)).to.deep.equal(['error']);
            for (const fragment of fragments) {
                expect(res.body.error).to.contain(fragment);
            }
        };

        describe('access checks on every write endpoint', () => {

            const writes = (cuit: string): [string, string, string | undefined][] => [
                ['POST', '/v1/cuits', JSON.stringify(person(cuit))],
                ['PATCH', `/v1/cuits/${cuit}`, JSON.stringify({ nombre: 'Ana' })],
                ['DELETE', `/v1/cuits/${cuit}`, undefined]
            ];

            it('answers 401 without a valid token and the subscription 403s, before writing, content type or body', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit));
                const paused = await seedAccount(server.app.ports, { writing: true, subscription: 'paused' });
                const ended = await seedAccount(server.app.ports, { writing: true, subscription: 'ended' });
                for (const [method, path, body] of writes(cuit)) {
                    const missing = await server.request(path, { method, ...(body === undefined ? {} : { body }), headers: { 'content-type': 'text/plain' } });
                    expect(missing.status, `${method} ${path}`).to.equal(401);
                    expect(missing.body).to.deep.equal({ error: messages.unauthenticated });
                    const wrong = await server.request(path, { method, token: 'asy_no-existe', ...(body === undefined ? {} : { body }) });
                    expect(wrong.status).to.equal(401);
                    for (const [user, message] of [[paused, messages.subscriptionPaused], [ended, messages.subscriptionInactive]] as const) {
                        const res = await server.request(path, {
                            method,
                            token: user.token,
                            ...(body === undefined ? {} : { body: '{ roto' }),
                            headers: { 'content-type': 'text/plain' }
                        });
                        expect(res.status, `${method} ${path}`).to.equal(403);
                        expect(res.body).to.deep.equal({ error: message });
                    }
                }
            });

            it('answers 429 with the rate-limit headers once the user is over its limit', async () => {

                const limited = await startTestServer(database, { rateLimits: { perMinute: 2, perMonth: 1000 }, env: writeServerEnv });
                try {
                    const user = await seedAccount(limited.app.ports, { writing: true });
                    const cuit = nextCuit();
                    expect((await limited.request('/v1/cuits', { token: user.token, method: 'POST', body: person(cuit) })).status).to.equal(201);
                    expect((await limited.request('/v1/cuits', { token: user.token })).status).to.equal(200);
                    for (const [method, path, body] of writes(cuit)) {
                        const res = await limited.request(path, { method, token: user.token, ...(body === undefined ? {} : { body }) });
                        expect(res.status, `${method} ${path}`).to.equal(429);
                        expect(res.body).to.deep.equal({ error: messages.rateLimited });
                        expect(res.headers.get('x-ratelimit-limit')).to.equal('2');
                        expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
                        expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
                    }

                    expect(await limited.app.knex('clients').where({ cuit })).to.have.length(1);
                }
                finally {
                    await limited.stop();
                }
            });
        });

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

            it('refuses writing not enabled with the spec message, before the content type and the body', async () => {

                const reader = await seedAccount(server.app.ports, { writing: false });
                const cuit = nextCuit();
                for (const res of [
                    await post(reader, person(cuit)),
                    await post(reader, 'tipo=persona-fisica', { 'content-type': 'application/x-www-form-urlencoded' }),
                    await post(reader, '{ no es json'),
                    await post(reader, { tipo: 'otro' })
                ]) {
                    expect(res.status).to.equal(403);
                    expect(res.body).to.deep.equal({ error: messages.writingDisabled });
                }

                expect(await knex('clients').where({ cuit })).to.have.length(0);
            });

            it('answers 401 without a valid token and the subscription 403 before anything else', async () => {

                const noToken = await server.request('/v1/cuits', { method: 'POST', body: person(nextCuit()) });
                expect(noToken.status).to.equal(401);
                expect(noToken.body).to.deep.equal({ error: messages.unauthenticated });

                const paused = await seedAccount(server.app.ports, { writing: true, subscription: 'paused' });
                const res = await post(paused, person(nextCuit()), { 'content-type': 'text/plain' });
                expect(res.status).to.equal(403);
                expect(res.body).to.deep.equal({ error: messages.subscriptionPaused });
            });

            it('answers 415 for a body not sent as application/json, before validating it', async () => {

                for (const headers of [
                    { 'content-type': 'text/plain' },
                    { 'content-type': 'application/x-www-form-urlencoded' },
                    { 'content-type': 'application/merge-patch+json' }
                ]) {
                    const res = await post(owner, { tipo: 'otro' }, headers);
                    expect(res.status, JSON.stringify(headers)).to.equal(415);
                    expect(res.body).to.deep.equal({ error: httpMessages.unsupportedMediaType });
                }

                const bare = await fetch(`${server.url}/v1/cuits`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` } });
                expect(bare.status).to.equal(415);

                const withCharset = await post(owner, person(nextCuit()), { 'content-type': 'application/json; charset=utf-8' });
                expect(withCharset.status).to.equal(201);
            });

            it('answers 400 in Spanish for a malformed JSON body, without quoting it', async () => {

                const res = await post(owner, '{"tipo": "persona-fisica", "clave_arca": "Secreto-Roto"');
                expect400(res, httpMessages.invalidJson);
                expect(res.text).to.not.contain('Secreto-Roto');
                expect400(await post(owner, ''), httpMessages.invalidJson);
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
                    [
                        'monotributista sent by an entity',
                        () => entity(nextCuit('30'), nextCuit(), { monotributista: null }),
                        [messages.clientWrite.monotributista]
                    ],
                    [
                        'clave_arca for a legal entity',
                        () => entity(nextCuit('30'), nextCuit(), { clave_arca: 'x' }),
                        [messages.clientWrite.notApplicable('clave_arca', 'persona-juridica')]
                    ],
                    [
                        'razon_social for a person',
                        () => person(nextCuit(), { razon_social: 'X SA' }),
                        [messages.clientWrite.notApplicable('razon_social', 'persona-fisica')]
                    ],
                    [
                        'nombre for an entity',
                        () => entity(nextCuit('30'), nextCuit(), { nombre: 'X' }),
                        [messages.clientWrite.notApplicable('nombre', 'persona-juridica')]
                    ],
                    ['unknown field', () => person(nextCuit(), { categoria: 'A' }), [messages.unknownField('categoria')]],
                    ['another unknown field', () => person(nextCuit(), { etiquetas: ['x'] }), [messages.unknownField('etiquetas')]]
                ];

                for (const [name, body, fragments] of cases) {
                    it(name, async () => {

                        const res = await post(owner, body());
                        expect400(res, ...fragments);
                        expect(res.body.error).to.match(/'[a-z_]+'|objeto JSON/);
                    });
                }

                it('joins every failure of one body in one message', async () => {

                    const res = await post(owner, {
                        tipo: 'persona-fisica',
                        cuit: 'x',
                        nombre: '',
                        email: 'no',
                        monotributista: true,
                        autonomo: true,
                        foo: 1,
                        razon_social: 'S'
                    });
                    expect400(res,
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
                    await created(owner, person(rep));
                    const otherEntity = nextCuit('30');
                    await created(owner, entity(otherEntity, rep));
                    const foreign = await seedAccount(server.app.ports, { writing: true });
                    const foreignPerson = nextCuit();
                    await created(foreign, person(foreignPerson));

                    for (const representante of [nextCuit(), otherEntity, foreignPerson]) {
                        const cuit = nextCuit('30');
                        const res = await post(owner, entity(cuit, representante));
                        expect400(res, messages.clientWrite.representativeNotFound);
                        expect(await knex('clients').where({ cuit })).to.have.length(0);
                    }
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

                it('checks the body before the CUIT conflict', async () => {

                    const cuit = nextCuit();
                    await created(owner, person(cuit));
                    expect400(await post(owner, person(cuit, { monotributista: true })), messages.clientWrite.monotributista);
                });
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

            it('accepts application/merge-patch+json as well as application/json', async () => {

                const cuit = nextCuit();
                await created(owner, person(cuit));
                const res = await patch(owner, cuit, { telefono: '555' }, { 'content-type': 'application/merge-patch+json' });
                expect(res.status).to.equal(200);
                expect(res.body.data.telefono).to.equal('555');
            });

            describe('rules of a PATCH', () => {

                let personCuit: string;
                let entityCuit: string;

                before(async () => {

                    personCuit = nextCuit();
                    await created(owner, person(personCuit, { email: 'keep@example.com' }));
                    entityCuit = nextCuit('30');
                    await created(owner, entity(entityCuit, personCuit));
                });

                afterEach(async () => {

                    // Nothing refused changed anything.
                    const row = await clientRow(personCuit);
                    expect(row).to.include({ nombre: 'María', apellido: 'González', email: 'keep@example.com', tipo: 'persona-fisica' });
                    expect((await clientRow(entityCuit)).razon_social).to.equal('Panadería La Espiga SRL');
                });

                it('1. an empty object answers 400', async () => {

                    expect400(await patch(owner, personCuit, {}), messages.clientWrite.emptyPatch);
                });

                it('2. a field not applicable to the client type answers 400 naming it', async () => {

                    expect400(await patch(owner, personCuit, { razon_social: 'X SA' }), messages.clientWrite.notApplicable('razon_social', 'persona-fisica'));
                    expect400(
                        await patch(owner, personCuit, { representante: personCuit }),
                        messages.clientWrite.notApplicable('representante', 'persona-fisica')
                    );
                    expect400(await patch(owner, entityCuit, { nombre: 'X' }), messages.clientWrite.notApplicable('nombre', 'persona-juridica'));
                    expect400(await patch(owner, entityCuit, { apellido: 'X' }), messages.clientWrite.notApplicable('apellido', 'persona-juridica'));
                    expect400(await patch(owner, entityCuit, { clave_arca: 'x' }), messages.clientWrite.notApplicable('clave_arca', 'persona-juridica'));
                });

                it('3. null on anything but email and telefono answers 400 naming the field', async () => {

                    for (const field of ['nombre', 'apellido', 'clave_arca']) {
                        expect400(await patch(owner, personCuit, { [field]: null }), messages.clientWrite.notNullable(field));
                    }

                    for (const field of ['razon_social', 'representante']) {
                        expect400(await patch(owner, entityCuit, { [field]: null }), messages.clientWrite.notNullable(field));
                    }
                });

                it('4. cuit or tipo in the body answers 400: they cannot be modified', async () => {

                    for (const body of [{ cuit: nextCuit() }, { tipo: 'persona-juridica' }, { cuit: personCuit, tipo: 'persona-fisica', nombre: 'Ana' }]) {
                        const res = await patch(owner, personCuit, body);
                        expect400(res, messages.clientWrite.immutable, "'cuit'", "'tipo'");
                    }
                });

                it('5. monotributista or autonomo in the body answers 400', async () => {

                    expect400(await patch(owner, personCuit, { monotributista: true }), messages.clientWrite.monotributista);
                    expect400(await patch(owner, personCuit, { autonomo: null }), messages.clientWrite.autonomo);
                    expect400(
                        await patch(owner, entityCuit, { monotributista: false, autonomo: false }),
                        messages.clientWrite.monotributista,
                        messages.clientWrite.autonomo
                    );
                });

                it('6. a wrong content type answers 415', async () => {

                    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
                        const res = await patch(owner, personCuit, { nombre: 'Ana' }, { 'content-type': type });
                        expect(res.status, type).to.equal(415);
                        expect(res.body).to.deep.equal({ error: httpMessages.unsupportedMediaType });
                    }
                });

                it('refuses invalid values naming each field, all joined', async () => {

                    const res = await patch(owner, personCuit, { nombre: '', apellido: 5, email: 'x', telefono: 'y'.repeat(61), clave_arca: '', otro: 1 });
                    expect400(
                        res,
                        messages.clientWrite.nombre,
                        messages.clientWrite.apellido,
                        messages.clientWrite.email,
                        messages.clientWrite.telefono,
                        messages.clientWrite.clave_arca,
                        messages.unknownField('otro')
                    );
                    expect400(await patch(owner, personCuit, '[1]'), messages.clientWrite.bodyNotObject);
                    expect400(await patch(owner, personCuit, '{"nombre":'), httpMessages.invalidJson);
                });

                it('answers 400 naming the CUIT for a malformed {cuit}', async () => {

                    expect400(await patch(owner, '20-123', { nombre: 'Ana' }), messages.field.cuitPath);
                });

                it('answers the identical 404 for an absent, a foreign and an unassigned CUIT', async () => {

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

                it('answers 403 when writing is not enabled', async () => {

                    const reader = await seedAccount(server.app.ports, { writing: false });
                    const res = await patch(reader, personCuit, { nombre: 'Ana' }, { 'content-type': 'text/plain' });
                    expect(res.status).to.equal(403);
                    expect(res.body).to.deep.equal({ error: messages.writingDisabled });
                });
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
