import { expect } from 'chai';
import Handlebars from 'handlebars';
import { messages } from '../../../core/domain/messages.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { clientFormTexts } from '../../../servers/panel/client-form-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { databaseOf } from '../../support/app.js';
import { cuitSequence, personBody } from '../../support/client-bodies.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { PanelAgent } from '../../support/panel.js';
import { expectCsrfRefused, panelAgent } from '../../support/panel.js';
import type { TestResponse, TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// Clients created, edited and deleted from the panel (docs/panel.md, Los clientes), over HTTP:
// the API's contract and Spanish messages beside the fields, no API writing asked, a member's
// new CUIT assigned to it, SPEC's 409 for a representative, the one 404 page for a CUIT the user
// may not see, every form's CSRF check, and the key never on a page.

const internals = {
    password: 'una-clave-larga-de-prueba',
    key: 'Clave-Fiscal-Panel-9',
    newKey: 'Otra-Clave-Panel-7',
    nextCuit: cuitSequence(40_000_000),
    dashed: (cuit: string): string => `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`,
    // A message as a page shows it: Handlebars escapes every value.
    html: (text: string): string => Handlebars.escapeExpression(text),

    person: (cuit: string, extra: Record<string, string> = {}) => ({
        tipo: 'persona-fisica', cuit, nombre: 'Marta', apellido: 'Quiroga', clave_arca: internals.key, email: '', telefono: '', ...extra
    }),

    entity: (cuit: string, representante: string, extra: Record<string, string> = {}) => ({
        tipo: 'persona-juridica', cuit, razon_social: 'Molinos del Sur SA', representante, email: 'admin@example.com', telefono: '', ...extra
    })
};

for (const database of testDatabases()) {

    describe(`the panel's client forms (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let owner: SeededUser;
        let member: SeededUser;
        let other: SeededUser;
        let foreignCuit: string;
        const pages: TestResponse[] = [];

        const emailOf = async (user: SeededUser): Promise<string> => (await server.app.ports.users.findById(user.userId))!.email;

        // An agent whose every answer is kept, to look for the key in all of them at the end.
        const signedIn = async (user: SeededUser): Promise<PanelAgent> => {

            const agent = panelAgent(server);
            expect((await agent.signIn(await emailOf(user), internals.password)).status).to.equal(303);
            const { get, post } = agent;
            agent.get = async (path) => {

                const answer = await get(path);
                pages.push(answer);
                return answer;
            };

            agent.post = async (path, fields, options) => {

                const answer = await post(path, fields, options);
                pages.push(answer);
                return answer;
            };

            return agent;
        };

        const listed = async (user: SeededUser) => (await server.ok('/v1/cuits?limit=100', user.token)).data as { cuit: string; tipo: string; nombre: string; email: string | null; telefono: string | null }[];

        before(async () => {

            server = await startTestServer(database, { inject: true, env: writeServerEnv });
            const ports = server.app.ports;
            // No API writing: the panel does not need it.
            owner = await seedAccount(ports, { writing: false });
            member = await seedUser(ports, owner.accountId, 'member');
            other = await seedAccount(ports, { writing: true });
            for (const user of [owner, member, other]) {
                await setPassword(ports, { userId: user.userId, password: internals.password });
            }

            foreignCuit = internals.nextCuit();
            await addClient(ports, other.accountId, { cuit: foreignCuit, apellido: 'Ajena', nombre: 'Ana', claveArca: 'clave-ajena' });
        });

        after(async () => {

            // Whatever page the panel answered, the key typed into it is not on it.
            for (const page of pages) {
                expect(page.text).to.not.contain(internals.key);
                expect(page.text).to.not.contain(internals.newKey);
            }

            await server?.stop();
        });

        it('creates a persona física and a legal entity without API writing, and REST lists them', async () => {

            const agent = await signedIn(owner);
            const portfolio = await agent.get('/panel');
            expect(portfolio.text).to.contain(`<a href="/panel/clientes/nuevo">${clientFormTexts.newClient}</a>`);
            const form = await agent.get('/panel/clientes/nuevo');
            expect(form.status).to.equal(200);
            for (const name of ['tipo', 'cuit', 'nombre', 'apellido', 'clave_arca', 'razon_social', 'representante', 'email', 'telefono']) {
                expect(form.text).to.contain(`name="${name}"`);
            }

            // The API refuses this account's writes: API writing is the enterprise feature.
            const person = internals.nextCuit();
            const api = await server.request('/v1/cuits', { token: owner.token, method: 'POST', body: personBody(person) });
            expect(api.status).to.equal(403);

            const created = await agent.post('/panel/clientes/nuevo', internals.person(internals.dashed(person), { telefono: '+54 11 4321-5678' }));
            expect(created.status, created.text.slice(0, 2000)).to.equal(303);
            expect(created.headers.get('location')).to.equal(`/panel/clientes/${internals.dashed(person)}?hecho=creado`);
            const page = await agent.get(created.headers.get('location')!);
            expect(page.status).to.equal(200);
            expect(page.text).to.contain(clientFormTexts.created);
            expect(page.text).to.contain(`href="/panel/clientes/${internals.dashed(person)}/editar"`);
            expect(page.text).to.contain(`href="/panel/clientes/${internals.dashed(person)}/borrar"`);

            const entity = internals.nextCuit('30');
            const second = await agent.post('/panel/clientes/nuevo', internals.entity(entity, internals.dashed(person)));
            expect(second.status, second.text.slice(0, 2000)).to.equal(303);

            const clients = await listed(owner);
            expect(clients.find((client) => client.cuit === person)).to.deep.include({ tipo: 'persona-fisica', nombre: 'Quiroga, Marta', email: null, telefono: '+54 11 4321-5678' });
            expect(clients.find((client) => client.cuit === entity)).to.deep.include({ tipo: 'persona-juridica', nombre: 'Molinos del Sur SA', email: 'admin@example.com' });
            // The key is stored sealed, its first synchronization asked for.
            const row = await databaseOf(server.app)('clients').where({ account_id: owner.accountId, cuit: person }).first();
            expect(row.clave_arca).to.be.a('string').and.not.contain(internals.key);
            expect(server.app.ports.secretBox.open(row.clave_arca)).to.equal(internals.key);
            expect(await databaseOf(server.app)('sync_jobs').where({ client_id: row.id, reason: 'first' })).to.have.length(1);
        });

        it('refuses bad input with the API\'s Spanish messages beside each field, keeping what was typed but the key', async () => {

            const agent = await signedIn(owner);
            await agent.get('/panel/clientes/nuevo');
            const body = { tipo: 'persona-fisica', cuit: '20-1234', nombre: 'Dolores <b>', apellido: '', clave_arca: internals.key, email: 'no-es-un-email', telefono: '' };
            const refused = await agent.post('/panel/clientes/nuevo', body);
            expect(refused.status).to.equal(400);
            for (const [field, message] of [['cuit', messages.clientWrite.cuit], ['apellido', messages.clientWrite.required('apellido')], ['email', messages.clientWrite.email]]) {
                expect(refused.text).to.contain(`<p class="field-error" id="error-${field}">${internals.html(message!)}</p>`);
                expect(refused.text).to.match(new RegExp(`id="campo-${field}"[^>]*aria-invalid="true"`));
            }

            expect(refused.text).to.contain('value="Dolores &lt;b&gt;"');
            expect(refused.text).to.contain('value="no-es-un-email"');
            expect(refused.text).to.contain('value="persona-fisica" checked');

            // One contract: the API answers the same body with the same messages, joined.
            const api = await server.request('/v1/cuits', { token: other.token, method: 'POST', body: { ...body, apellido: undefined, telefono: undefined } });
            expect(api.status).to.equal(400);
            expect(api.body.error).to.equal([messages.clientWrite.cuit, messages.clientWrite.required('apellido'), messages.clientWrite.email].join(' '));

            const noTipo = await agent.post('/panel/clientes/nuevo', { cuit: internals.nextCuit() });
            expect(noTipo.status).to.equal(400);
            expect(noTipo.text).to.contain(internals.html(messages.clientWrite.required('tipo')));

            // A representative that is not a person of the account (another account's is not).
            const noRep = await agent.post('/panel/clientes/nuevo', internals.entity(internals.nextCuit('30'), foreignCuit));
            expect(noRep.status).to.equal(400);
            expect(noRep.text).to.contain(`<p class="field-error" id="error-representante">${internals.html(messages.clientWrite.representativeNotFound)}</p>`);

            // A CUIT already in the account: SPEC's 409, beside the CUIT.
            const taken = (await listed(owner))[0]!.cuit;
            const twice = await agent.post('/panel/clientes/nuevo', internals.person(taken));
            expect(twice.status).to.equal(409);
            expect(twice.text).to.contain(`<p class="field-error" id="error-cuit">${internals.html(messages.cuitTaken)}</p>`);
            expect((await listed(owner)).filter((client) => client.cuit === taken)).to.have.length(1);
        });

        it('edits with merge-patch semantics: unchanged fields stay, the key only replaced when typed', async () => {

            const agent = await signedIn(owner);
            const cuit = internals.nextCuit();
            await agent.get('/panel/clientes/nuevo');
            expect((await agent.post('/panel/clientes/nuevo', internals.person(cuit, { email: 'marta@example.com', telefono: '4321' }))).status).to.equal(303);
            const sealed = async () => (await databaseOf(server.app)('clients').where({ account_id: owner.accountId, cuit }).first()).clave_arca as string;
            const before = await sealed();

            const path = `/panel/clientes/${internals.dashed(cuit)}/editar`;
            const form = await agent.get(path);
            expect(form.status).to.equal(200);
            expect(form.text).to.contain('value="Marta"').and.contain('value="marta@example.com"');
            expect(form.text).to.match(/<input id="campo-clave_arca" name="clave_arca" type="password"\s+autocomplete/);

            // Nothing changed: the API's empty-edit message.
            const same = await agent.post(path, { nombre: 'Marta', apellido: 'Quiroga', clave_arca: '', email: 'marta@example.com', telefono: '4321' });
            expect(same.status).to.equal(400);
            expect(same.text).to.contain(internals.html(messages.clientWrite.emptyPatch));

            // An emptied name is refused with the API's message; nothing is written.
            const emptied = await agent.post(path, { nombre: '', apellido: 'Quiroga', clave_arca: internals.newKey, email: '', telefono: '4321' });
            expect(emptied.status).to.equal(400);
            expect(emptied.text).to.contain(`<p class="field-error" id="error-nombre">${internals.html(messages.clientWrite.nombre)}</p>`);
            expect(await sealed()).to.equal(before);

            const saved = await agent.post(path, { nombre: 'Marta Inés', apellido: 'Quiroga', clave_arca: '', email: '', telefono: '4321' });
            expect(saved.status, saved.text.slice(0, 2000)).to.equal(303);
            expect(saved.headers.get('location')).to.equal(`/panel/clientes/${internals.dashed(cuit)}?hecho=editado`);
            expect((await listed(owner)).find((client) => client.cuit === cuit)).to.deep.include({ nombre: 'Quiroga, Marta Inés', email: null, telefono: '4321' });
            expect(await sealed(), 'an empty key field keeps the key').to.equal(before);

            expect((await agent.post(path, { nombre: 'Marta Inés', apellido: 'Quiroga', clave_arca: internals.newKey, email: '', telefono: '4321' })).status).to.equal(303);
            expect(server.app.ports.secretBox.open(await sealed())).to.equal(internals.newKey);
        });

        it('edits a legal entity: its representative shown and changed only when another is typed', async () => {

            const agent = await signedIn(owner);
            const [first, second, entity] = [internals.nextCuit(), internals.nextCuit(), internals.nextCuit('30')];
            await agent.get('/panel/clientes/nuevo');
            for (const body of [internals.person(first), internals.person(second), internals.entity(entity, first)]) {
                expect((await agent.post('/panel/clientes/nuevo', body)).status).to.equal(303);
            }

            const representativeOf = async () => {

                const row = await databaseOf(server.app)('clients').where({ account_id: owner.accountId, cuit: entity }).first();
                return (await databaseOf(server.app)('clients').where({ id: row.representative_id }).first()).cuit as string;
            };

            const path = `/panel/clientes/${entity}/editar`;
            const form = await agent.get(path);
            expect(form.text).to.contain(`value="${internals.dashed(first)}"`).and.contain('value="Molinos del Sur SA"');
            expect(form.text).to.not.contain('name="clave_arca"');

            // The same representative (however written) and an empty field both keep it.
            expect((await agent.post(path, { razon_social: 'Molinos SA', representante: first, email: 'admin@example.com', telefono: '' })).status).to.equal(303);
            expect((await agent.post(path, { razon_social: 'Molinos SA', representante: '', email: 'admin@example.com', telefono: '1' })).status).to.equal(303);
            expect(await representativeOf()).to.equal(first);

            const unknown = await agent.post(path, { razon_social: 'Molinos SA', representante: foreignCuit, email: 'admin@example.com', telefono: '1' });
            expect(unknown.status).to.equal(400);
            expect(unknown.text).to.contain(`<p class="field-error" id="error-representante">${internals.html(messages.clientWrite.representativeNotFound)}</p>`);

            expect((await agent.post(path, { razon_social: 'Molinos SA', representante: internals.dashed(second), email: 'admin@example.com', telefono: '1' })).status).to.equal(303);
            expect(await representativeOf()).to.equal(second);
            expect((await listed(owner)).find((client) => client.cuit === entity)).to.deep.include({ nombre: 'Molinos SA', telefono: '1' });
        });

        it('deletes after a confirmation that says what goes, refusing a representative with SPEC\'s 409; REST then answers 404', async () => {

            const agent = await signedIn(owner);
            const person = internals.nextCuit();
            const entity = internals.nextCuit('30');
            await agent.get('/panel/clientes/nuevo');
            expect((await agent.post('/panel/clientes/nuevo', internals.person(person))).status).to.equal(303);
            expect((await agent.post('/panel/clientes/nuevo', internals.entity(entity, person))).status).to.equal(303);

            const confirm = await agent.get(`/panel/clientes/${internals.dashed(person)}/borrar`);
            expect(confirm.status).to.equal(200);
            for (const part of Object.values(clientFormTexts.cascade)) {
                expect(confirm.text).to.contain(internals.html(part));
            }

            expect(confirm.text).to.contain(internals.html(clientFormTexts.representativeRule));
            expect(confirm.text).to.contain(internals.html(clientFormTexts.deleteAlso));
            const refused = await agent.post(`/panel/clientes/${internals.dashed(person)}/borrar`, {});
            expect(refused.status).to.equal(409);
            expect(refused.text).to.contain(internals.html(messages.clientWrite.representsEntities));
            expect((await listed(owner)).map((client) => client.cuit)).to.include.members([person, entity]);

            const entityConfirm = await agent.get(`/panel/clientes/${internals.dashed(entity)}/borrar`);
            expect(entityConfirm.text).to.contain(internals.html(clientFormTexts.deleteAlsoEntity)).and.not.contain(internals.html(clientFormTexts.deleteAlso));
            const gone = await agent.post(`/panel/clientes/${internals.dashed(entity)}/borrar`, {});
            expect(gone.status).to.equal(303);
            expect(gone.headers.get('location')).to.equal(`/panel?borrado=${internals.dashed(entity)}`);
            expect((await agent.get(gone.headers.get('location')!)).text).to.contain(internals.html(clientFormTexts.deleted(internals.dashed(entity))));
            expect((await server.request(`/v1/cuits/${entity}/sct`, { token: owner.token })).status).to.equal(404);

            await agent.get(`/panel/clientes/${internals.dashed(person)}/borrar`);
            expect((await agent.post(`/panel/clientes/${internals.dashed(person)}/borrar`, {})).status).to.equal(303);
            expect((await server.request(`/v1/cuits/${person}/dfe`, { token: owner.token })).status).to.equal(404);
        });

        it('refuses a missing or another browser\'s CSRF token on every form, writing nothing', async () => {

            const agent = await signedIn(owner);
            const cuit = internals.nextCuit();
            await agent.get('/panel/clientes/nuevo');
            expect((await agent.post('/panel/clientes/nuevo', internals.person(cuit))).status).to.equal(303);
            const forms: [string, Record<string, string>][] = [
                ['/panel/clientes/nuevo', internals.person(internals.nextCuit())],
                [`/panel/clientes/${cuit}/editar`, { nombre: 'Cambiada', apellido: 'Quiroga', clave_arca: '', email: '', telefono: '' }],
                [`/panel/clientes/${cuit}/borrar`, {}]
            ];
            const before = await listed(owner);
            for (const [path, fields] of forms) {
                await agent.get('/panel');
                await expectCsrfRefused(server, agent, path, fields);
            }

            expect(await listed(owner)).to.deep.equal(before);
        });

        it('answers the 404 page for another account\'s CUIT, a malformed and an absent one, on edit and delete', async () => {

            const agent = await signedIn(owner);
            for (const cuit of [foreignCuit, internals.dashed(foreignCuit), '12', internals.nextCuit()]) {
                for (const path of [`/panel/clientes/${cuit}/editar`, `/panel/clientes/${cuit}/borrar`]) {
                    const page = await agent.get(path);
                    expect(page.status, path).to.equal(404);
                    expect(page.text).to.contain(internals.html(panelTexts.notFound));
                    const posted = await agent.post(path, { nombre: 'Robada', apellido: 'X', clave_arca: '', email: '', telefono: '' });
                    expect(posted.status, `POST ${path}`).to.equal(404);
                }
            }

            expect((await listed(other)).find((client) => client.cuit === foreignCuit)).to.deep.include({ nombre: 'Ajena, Ana' });
        });

        it('shows a hostile name as text on the edit and delete pages', async () => {

            const hostile = '<script>alert(1)</script>';
            const cuit = internals.nextCuit();
            await addClient(server.app.ports, owner.accountId, { cuit, nombre: hostile, apellido: 'Ataque' });
            const agent = await signedIn(owner);
            for (const path of [`/panel/clientes/${cuit}/editar`, `/panel/clientes/${cuit}/borrar`]) {
                const page = await agent.get(path);
                expect(page.status).to.equal(200);
                expect(page.text).to.contain(internals.html(hostile)).and.not.contain(hostile);
            }
        });

        it('assigns a member\'s new CUIT to it, and lets it edit and delete only what it sees', async () => {

            const agent = await signedIn(member);
            const cuit = internals.nextCuit();
            await agent.get('/panel/clientes/nuevo');
            expect((await agent.post('/panel/clientes/nuevo', internals.person(cuit))).status).to.equal(303);
            expect((await listed(member)).map((client) => client.cuit)).to.deep.equal([cuit]);
            expect((await listed(owner)).map((client) => client.cuit)).to.include(cuit);
            const colleague = await seedUser(server.app.ports, owner.accountId, 'member');
            expect(await listed(colleague)).to.deep.equal([]);

            // The owner's other CUITs are not the member's: the 404 page.
            const ownersCuit = (await listed(owner)).find((client) => client.cuit !== cuit)!.cuit;
            expect((await agent.get(`/panel/clientes/${ownersCuit}/editar`)).status).to.equal(404);
            expect((await agent.post(`/panel/clientes/${ownersCuit}/borrar`, {})).status).to.equal(404);
            expect((await listed(owner)).map((client) => client.cuit)).to.include(ownersCuit);

            expect((await agent.post(`/panel/clientes/${cuit}/editar`, { nombre: 'Marta', apellido: 'Quiroga', clave_arca: '', email: 'm@example.com', telefono: '' })).status).to.equal(303);
            expect((await listed(member))[0]).to.deep.include({ email: 'm@example.com' });
            expect((await agent.post(`/panel/clientes/${cuit}/borrar`, {})).status).to.equal(303);
            expect(await listed(member)).to.deep.equal([]);
        });
    });
}
