import { expect } from 'chai';
import { invitationLifetimeMs } from '../../../core/domain/invitation.js';
import { messages } from '../../../core/domain/messages.js';
import { createToken } from '../../../core/use-cases/staff/create-token.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { teamTexts } from '../../../servers/panel/team-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { databaseOf } from '../../support/app.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import { grant, mcpStatus, oauthTest, register, startOAuthTestServer } from '../../support/oauth.js';
import type { PanelAgent } from '../../support/panel.js';
import { panelAgent } from '../../support/panel.js';
import type { TestResponse, TestServer } from '../../support/server.js';
import { injected } from '../../support/server.js';
import { testDatabases } from '../../support/databases.js';

// The team page over HTTP (docs/panel.md, El equipo), on both databases: an owner invites a
// user with a one-time link, the link sets their password once and within its week, the new
// member sees only the CUITs assigned to them, roles change under the last-owner rule, and a
// removed user's sessions, API tokens and OAuth grants end at once. Members get the 403 page,
// another account's user is the 404 page, and every form refuses a missing or foreign CSRF token.

const internals = {
    linkOnPage: /id="enlace-valor" type="text" readonly value="([^"]+)"/,
    crumbName: 'arcasync-crumb',
    password: oauthTest.password,

    // A form as the browser sends it, several values under one name (checkboxes) included.
    postForm(server: TestServer, agent: PanelAgent, path: string, fields: [string, string][], crumb = agent.cookies.get(internals.crumbName)) {

        const cookie = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
        const body = new URLSearchParams(fields);
        if (crumb !== undefined) {
            body.set(internals.crumbName, crumb);
        }

        return server.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: body.toString() });
    },

    async refusesForeignAndMissingCrumb(server: TestServer, agent: PanelAgent, path: string, fields: [string, string][]) {

        const missing = await internals.postForm(server, agent, path, fields, '');
        expect(missing.status, `${path} without a CSRF token`).to.equal(403);
        expect(missing.text).to.contain(panelTexts.formExpired);
        const other = panelAgent(server);
        await other.get('/panel/ingresar');
        const foreign = await internals.postForm(server, agent, path, fields, other.cookies.get(internals.crumbName));
        expect(foreign.status, `${path} with another browser's CSRF token`).to.equal(403);
    },

    linkOf(response: TestResponse, server: TestServer): string {

        expect(response.status, response.text.slice(0, 2000)).to.equal(200);
        const link = internals.linkOnPage.exec(response.text)?.[1];
        expect(link, 'the link on the answer that made it').to.be.a('string');
        expect(link!.startsWith(`${server.url}/panel/invitacion/`), link).to.equal(true);
        return link!.slice(server.url.length);
    },

    userIdOn(page: TestResponse, email: string): number {

        const id = new RegExp(`href="/panel/equipo/(\\d+)" aria-label="${teamTexts.manageLabel(email)}"`).exec(page.text)?.[1];
        expect(id, `${email} on the team page`).to.be.a('string');
        return Number(id);
    }
};

for (const database of testDatabases()) {

    describe(`the panel's team page (${database.name})`, function () {

        this.timeout(90_000);

        let server: TestServer;
        let ownerEmail: string;
        let accountId: number;
        const cuits = { ana: '20123456786', zoe: '27000000408', beto: '20000000028' };

        before(async () => {

            let listening: TestServer;
            ({ server: listening, email: ownerEmail } = await startOAuthTestServer(database));
            server = { ...listening, request: injected(listening.server) };
            const ports = server.app.ports;
            accountId = (await ports.users.findByEmail(ownerEmail))!.accountId;
            await addClient(ports, accountId, { cuit: cuits.ana, apellido: 'Alfaro', nombre: 'Ana' });
            await addClient(ports, accountId, { cuit: cuits.zoe, apellido: 'Zapata', nombre: 'Zoe' });
            await addClient(ports, accountId, { cuit: cuits.beto, apellido: 'Bermúdez', nombre: 'Beto' });
        });

        after(async () => {

            await server?.stop();
        });

        const signedIn = async (email: string, password = internals.password): Promise<PanelAgent> => {

            const agent = panelAgent(server);
            const answer = await agent.signIn(email, password);
            expect(answer.status, answer.text.slice(0, 3000)).to.equal(303);
            return agent;
        };

        const invite = async (owner: PanelAgent, email: string, role = 'member'): Promise<{ link: string; id: number }> => {

            await owner.get('/panel/equipo');
            const created = await owner.post('/panel/equipo', { email, rol: role });
            expect(created.text).to.contain(teamTexts.invited(email));
            const link = internals.linkOf(created, server);
            return { link, id: internals.userIdOn(created, email) };
        };

        it('invites a member whose link sets their password once; they see only the CUITs assigned to them', async () => {

            const owner = await signedIn(ownerEmail);
            const { link, id } = await invite(owner, 'marta@example.com');
            const token = link.split('/').at(-1)!;
            // Shown once: the list afterwards names the user as pending, never the link.
            const team = await owner.get('/panel/equipo');
            expect(team.text).to.contain('marta@example.com').and.contain(teamTexts.pending).and.not.contain(token);

            // One CUIT typed, then two checked at once.
            await owner.get(`/panel/equipo/${id}`);
            const one = await owner.post(`/panel/equipo/${id}/asignar`, { accion: 'asignar', cuit: '20-12345678-6' });
            expect(one.status, one.text.slice(0, 2000)).to.equal(303);
            const bulk = await internals.postForm(server, owner, `/panel/equipo/${id}/asignar`, [['cuit', cuits.zoe], ['cuit', cuits.beto], ['accion', 'asignar']]);
            expect(bulk.status).to.equal(303);
            const off = await internals.postForm(server, owner, `/panel/equipo/${id}/asignar`, [['cuit', cuits.beto], ['accion', 'quitar']]);
            expect(off.status).to.equal(303);
            expect(off.headers.get('location')).to.equal(`/panel/equipo/${id}?hecho=asignaciones`);
            const outside = await owner.post(`/panel/equipo/${id}/asignar`, { accion: 'asignar', cuit: '30500010912' });
            expect(outside.status).to.equal(404);
            expect(outside.text).to.contain(messages.admin.clientNotInAccount('30500010912'));
            expect((await owner.get('/panel/equipo')).text).to.match(/marta@example\.com<\/th>\s*<td[^>]*>Member<\/td>\s*<td[^>]*>2<\/td>/);

            // The invited person, in a browser of their own, with no session.
            const marta = panelAgent(server);
            const form = await marta.get(link);
            expect(form.status).to.equal(200);
            expect(form.text).to.contain(teamTexts.invitationTitle).and.contain('value="marta@example.com"');
            const mismatch = await marta.post(link, { password: internals.password, repetida: 'otra cosa distinta' });
            expect(mismatch.status).to.equal(400);
            expect(mismatch.text).to.contain(messages.password.mismatch);
            expect((await owner.get(`/panel/equipo/${id}`)).text).to.contain(teamTexts.newLink);
            const short = await marta.post(link, { password: 'corta', repetida: 'corta' });
            expect(short.status).to.equal(400);
            expect(short.text).to.contain(messages.admin.shortPassword(10));

            const set = await marta.post(link, { password: internals.password, repetida: internals.password });
            expect(set.status, set.text.slice(0, 2000)).to.equal(303);
            expect(set.headers.get('location')).to.equal('/panel');
            const portfolio = await marta.get('/panel');
            expect(portfolio.status).to.equal(200);
            expect(portfolio.text).to.contain('Alfaro, Ana').and.contain('Zapata, Zoe').and.not.contain('Bermúdez, Beto');

            // Signing in again works with the password the link set; the REST API agrees.
            await signedIn('marta@example.com');
            const { token: apiToken } = await createToken(server.app.ports, { userId: id });
            const listed = await server.request('/v1/cuits', { token: apiToken });
            expect(listed.body.data.map((client: { cuit: string }) => client.cuit)).to.have.members([cuits.ana, cuits.zoe]);
            expect((await server.request(`/v1/cuits/${cuits.beto}/estado`, { token: apiToken })).status).to.equal(404);

            // Single use: afterwards the link is the one page of a link that cannot be used.
            for (const again of [await panelAgent(server).get(link), await marta.post(link, { password: 'otra clave larga más', repetida: 'otra clave larga más' })]) {
                expect(again.status).to.equal(404);
                expect(again.text).to.contain(messages.team.invitationUnusable);
            }

            await signedIn('marta@example.com');
            expect((await owner.get('/panel/equipo')).text).to.not.match(/marta@example\.com<\/th>[\s\S]{0,200}Invitación pendiente/);
        });

        it('invites an address of another account like any other; its owner is told on the link, and the account keeps its own 409', async () => {

            const ports = server.app.ports;
            const elsewhere = await seedAccount(ports);
            await setPassword(ports, { userId: elsewhere.userId, password: internals.password });
            const taken = (await ports.users.findById(elsewhere.userId))!.email;

            // Two owners of new accounts alike, one inviting an address no one has, the other one
            // that another account signs in with: the same status and page (but for the
            // addresses, the link and the id).
            const answers: { status: number; page: string }[] = [];
            for (const email of ['nadie-aun@example.com', taken]) {
                const seeded = await seedAccount(ports);
                await setPassword(ports, { userId: seeded.userId, password: internals.password });
                const seededEmail = (await ports.users.findById(seeded.userId))!.email;
                const inviter = await signedIn(seededEmail);
                await inviter.get('/panel/equipo');
                const created = await inviter.post('/panel/equipo', { email, rol: 'member' });
                const link = internals.linkOf(created, server);
                answers.push({
                    status: created.status,
                    page: created.text.replaceAll(email, '<email>').replaceAll(seededEmail, '<owner>').replaceAll(link.split('/').at(-1)!, '<token>')
                        .replace(/\/panel\/equipo\/\d+"/g, '/panel/equipo/<id>"').replace(/name="arcasync-crumb" value="[^"]*"/g, '')
                });
                if (email === taken) {
                    // The address's owner, on the link: why, before any password is asked.
                    const person = panelAgent(server);
                    const shown = await person.get(link);
                    await person.get('/panel/ingresar');
                    for (const refused of [shown, await person.post(link, { password: 'una clave larga nueva', repetida: 'una clave larga nueva' })]) {
                        expect(refused.status, refused.text.slice(0, 2000)).to.equal(409);
                        expect(refused.text).to.contain(messages.team.emailInUse).and.not.contain('name="password"');
                    }

                    // Their own account and password are untouched.
                    await signedIn(taken);
                    expect((await ports.users.findByEmail(taken))!.accountId).to.equal(elsewhere.accountId);
                }
            }

            expect(answers[1]!.status).to.equal(200);
            expect(answers[1]!.page).to.equal(answers[0]!.page);

            const owner = await signedIn(ownerEmail);
            await owner.post('/panel/equipo', { email: 'nadie-aun@example.com', rol: 'member' });
            // An address already in this account stays the 409 the form shows.
            await owner.get('/panel/equipo');
            const again = await owner.post('/panel/equipo', { email: 'nadie-aun@example.com', rol: 'member' });
            expect(again.status).to.equal(409);
            expect(again.text).to.contain(messages.admin.emailTaken('nadie-aun@example.com'));
        });

        it('two accounts invite one new address and both links are sent at once: one sets the password, the other is told (409)', async () => {

            const ports = server.app.ports;
            const links: string[] = [];
            for (let i = 0; i < 2; i++) {
                const seeded = await seedAccount(ports);
                await setPassword(ports, { userId: seeded.userId, password: internals.password });
                const inviter = await signedIn((await ports.users.findById(seeded.userId))!.email);
                links.push((await invite(inviter, 'dos-estudios@example.com')).link);
            }

            const people = await Promise.all(links.map(async (link) => {

                const person = panelAgent(server);
                await person.get(link);
                return person;
            }));
            const sent = await Promise.all(people.map((person, i) => person.post(links[i]!, { password: internals.password, repetida: internals.password })));
            expect(sent.map((answer) => answer.status).sort()).to.deep.equal([303, 409]);
            expect(sent.find((answer) => answer.status === 409)!.text).to.contain(messages.team.emailInUse);
            await signedIn('dos-estudios@example.com');
        });

        it('one address invited twice at once in one account: one invitation, the other form says the address is taken', async () => {

            const owner = await signedIn(ownerEmail);
            await owner.get('/panel/equipo');
            const sent = await Promise.all([1, 2].map(() => owner.post('/panel/equipo', { email: 'a-la-vez@example.com', rol: 'member' })));
            expect(sent.map((answer) => answer.status).sort()).to.deep.equal([200, 409]);
            expect(sent.find((answer) => answer.status === 409)!.text).to.contain(messages.admin.emailTaken('a-la-vez@example.com'));
            expect((await databaseOf(server.app)('users').where({ email: 'a-la-vez@example.com' })).length).to.equal(1);
        });

        it('a link expires after 7 days, reads like an unknown one, and a new link replaces it', async () => {

            const owner = await signedIn(ownerEmail);
            const { link, id } = await invite(owner, 'tarde@example.com');
            const unknown = await panelAgent(server).get(`/panel/invitacion/${'A'.repeat(43)}`);
            expect(unknown.status).to.equal(404);
            expect(unknown.text).to.contain(messages.team.invitationUnusable);

            server.clock.advance(invitationLifetimeMs - 1000);
            expect((await panelAgent(server).get(link)).status).to.equal(200);
            server.clock.advance(1000);
            const expired = await panelAgent(server).get(link);
            expect(expired.status).to.equal(404);
            expect(expired.text).to.equal(unknown.text.replace(/name="arcasync-crumb" value="[^"]*"/, expired.text.match(/name="arcasync-crumb" value="[^"]*"/)?.[0] ?? ''));
            const late = panelAgent(server);
            await late.get('/panel/ingresar');
            expect((await late.post(link, { password: internals.password, repetida: internals.password })).status).to.equal(404);

            const again = await signedIn(ownerEmail);
            await again.get(`/panel/equipo/${id}`);
            const renewed = await again.post(`/panel/equipo/${id}/enlace`, {});
            expect(renewed.text).to.contain(teamTexts.renewed('tarde@example.com'));
            const fresh = internals.linkOf(renewed, server);
            const person = panelAgent(server);
            await person.get(fresh);
            expect((await person.post(fresh, { password: internals.password, repetida: internals.password })).status).to.equal(303);
            expect((await panelAgent(server).get(link)).status).to.equal(404);
        });

        it('changes roles, never leaving an account without an owner', async () => {

            const owner = await signedIn(ownerEmail);
            const helper = await seedUser(server.app.ports, accountId, 'member');
            const helperEmail = (await server.app.ports.users.findById(helper.userId))!.email;
            await setPassword(server.app.ports, { userId: helper.userId, password: internals.password });
            const helperAgent = await signedIn(helperEmail);
            expect((await helperAgent.get('/panel/equipo')).status).to.equal(403);

            await owner.get(`/panel/equipo/${helper.userId}`);
            const promoted = await owner.post(`/panel/equipo/${helper.userId}/rol`, { rol: 'owner' });
            expect(promoted.status).to.equal(303);
            expect((await owner.get(promoted.headers.get('location')!)).text).to.contain(teamTexts.roleChanged);
            // The change holds on the member's next request.
            expect((await helperAgent.get('/panel/equipo')).status).to.equal(200);
            const bad = await owner.post(`/panel/equipo/${helper.userId}/rol`, { rol: 'admin' });
            expect(bad.status).to.equal(400);
            expect(bad.text).to.contain(messages.admin.invalidRole.replaceAll("'", '&#x27;'));
            await owner.post(`/panel/equipo/${helper.userId}/rol`, { rol: 'member' });
            expect((await helperAgent.get('/panel/equipo')).status).to.equal(403);

            // A lone owner can neither step down nor leave.
            const lone = await seedAccount(server.app.ports);
            const loneEmail = (await server.app.ports.users.findById(lone.userId))!.email;
            await setPassword(server.app.ports, { userId: lone.userId, password: internals.password });
            const loneAgent = await signedIn(loneEmail);
            await loneAgent.get(`/panel/equipo/${lone.userId}`);
            for (const [path, fields] of [[`/panel/equipo/${lone.userId}/rol`, { rol: 'member' }], [`/panel/equipo/${lone.userId}/borrar`, {}]] as const) {
                const refused = await loneAgent.post(path, fields);
                expect(refused.status, path).to.equal(409);
                expect(refused.text).to.contain(messages.team.lastOwner);
            }

            expect((await server.app.ports.users.findById(lone.userId))!.role).to.equal('owner');
            expect((await loneAgent.get('/panel/equipo')).status).to.equal(200);
        });

        it('removing a user ends their panel sessions, API tokens and OAuth grants at once', async () => {

            const owner = await signedIn(ownerEmail);
            const leaving = await seedUser(server.app.ports, accountId, 'member');
            const leavingEmail = (await server.app.ports.users.findById(leaving.userId))!.email;
            await setPassword(server.app.ports, { userId: leaving.userId, password: internals.password });
            const session = await signedIn(leavingEmail);
            expect((await session.get('/panel')).status).to.equal(200);
            expect((await server.request('/v1/cuits', { token: leaving.token })).status).to.equal(200);
            const granted = await grant(server, await register(server), leavingEmail);
            expect((await mcpStatus(server, granted.access_token)).status).to.equal(200);

            const confirm = await owner.get(`/panel/equipo/${leaving.userId}/borrar`);
            expect(confirm.status).to.equal(200);
            expect(confirm.text).to.contain(teamTexts.removeQuestion(leavingEmail));
            // Seeing the question removes nothing.
            expect((await server.request('/v1/cuits', { token: leaving.token })).status).to.equal(200);

            const removed = await owner.post(`/panel/equipo/${leaving.userId}/borrar`, {});
            expect(removed.status).to.equal(303);
            expect(removed.headers.get('location')).to.equal('/panel/equipo?hecho=eliminado');
            expect((await owner.get('/panel/equipo?hecho=eliminado')).text).to.contain(teamTexts.removed).and.not.contain(leavingEmail);

            expect((await server.request('/v1/cuits', { token: leaving.token })).status).to.equal(401);
            expect((await mcpStatus(server, granted.access_token)).status).to.equal(401);
            const ended = await session.get('/panel');
            expect(ended.status).to.equal(303);
            expect(ended.headers.get('location')).to.equal('/panel/ingresar');
            expect((await panelAgent(server).signIn(leavingEmail, internals.password)).status).to.equal(400);
            expect((await owner.get(`/panel/equipo/${leaving.userId}`)).status).to.equal(404);
        });

        it('assigns la cartera\'s selection to a member chosen there, through the same use case', async () => {

            const owner = await signedIn(ownerEmail);
            const member = await seedUser(server.app.ports, accountId, 'member');
            const email = (await server.app.ports.users.findById(member.userId))!.email;
            const ownerId = (await server.app.ports.users.findByEmail(ownerEmail))!.id;
            const cartera = await owner.get('/panel');
            expect(cartera.text).to.contain(panelTexts.assignMember).and.contain('formaction="/panel/equipo/asignar"');
            expect(cartera.text).to.contain(`<option value="${member.userId}">${email}</option>`).and.not.contain(`<option value="${ownerId}">`);

            // What the browser sends from la cartera: the tag form's fields too, which this route ignores.
            const assigned = await internals.postForm(server, owner, '/panel/equipo/asignar', [
                ['volver', '/panel'], ['etiqueta', ''], ['cuit', cuits.ana], ['cuit', cuits.beto], ['usuario', String(member.userId)], ['accion', 'asignar']
            ]);
            expect(assigned.status, assigned.text.slice(0, 2000)).to.equal(303);
            expect(assigned.headers.get('location')).to.equal(`/panel/equipo/${member.userId}?hecho=asignaciones`);
            expect(await server.app.ports.users.assignedCuits(member.userId)).to.have.members([cuits.ana, cuits.beto]);
            const page = await owner.get(`/panel/equipo/${member.userId}?hecho=asignaciones`);
            expect(page.text).to.contain(teamTexts.assignmentsSaved);

            const none = await internals.postForm(server, owner, '/panel/equipo/asignar', [['usuario', String(member.userId)], ['accion', 'asignar']]);
            expect(none.status).to.equal(400);
            expect(none.text).to.contain(teamTexts.noSelection);
            const toOwner = await internals.postForm(server, owner, '/panel/equipo/asignar', [['cuit', cuits.zoe], ['usuario', String(ownerId)], ['accion', 'asignar']]);
            expect(toOwner.status).to.equal(400);
            expect(toOwner.text).to.contain(messages.admin.ownerSeesAll);
            // A CUIT outside the account refuses the whole selection: none is assigned.
            const outside = await internals.postForm(server, owner, '/panel/equipo/asignar', [['cuit', cuits.zoe], ['cuit', '30500010912'], ['usuario', String(member.userId)], ['accion', 'asignar']]);
            expect(outside.status).to.equal(404);
            const foreign = await seedUser(server.app.ports, (await seedAccount(server.app.ports)).accountId, 'member');
            for (const usuario of [String(foreign.userId), 'abc', '']) {
                const refused = await internals.postForm(server, owner, '/panel/equipo/asignar', [['cuit', cuits.zoe], ['usuario', usuario], ['accion', 'asignar']]);
                expect(refused.status, usuario).to.equal(404);
                expect(refused.text).to.contain(panelTexts.notFound);
            }

            expect(await server.app.ports.users.assignedCuits(member.userId)).to.have.members([cuits.ana, cuits.beto]);
            expect(await server.app.ports.users.assignedCuits(foreign.userId)).to.deep.equal([]);
        });

        it('members get the 403 page on every team page and form', async () => {

            const member = await seedUser(server.app.ports, accountId, 'member');
            const email = (await server.app.ports.users.findById(member.userId))!.email;
            await setPassword(server.app.ports, { userId: member.userId, password: internals.password });
            const agent = await signedIn(email);
            await agent.get('/panel');
            const id = member.userId;
            for (const path of ['/panel/equipo', `/panel/equipo/${id}`, `/panel/equipo/${id}/borrar`]) {
                const page = await agent.get(path);
                expect(page.status, path).to.equal(403);
                expect(page.text).to.contain(messages.team.ownersOnly);
            }

            for (const [path, fields] of [
                ['/panel/equipo', [['email', 'colado@example.com'], ['rol', 'owner']]],
                [`/panel/equipo/${id}/rol`, [['rol', 'owner']]],
                [`/panel/equipo/${id}/enlace`, []],
                [`/panel/equipo/${id}/asignar`, [['cuit', cuits.beto], ['accion', 'asignar']]],
                ['/panel/equipo/asignar', [['cuit', cuits.beto], ['usuario', String(id)], ['accion', 'asignar']]],
                [`/panel/equipo/${id}/borrar`, []]
            ] as [string, [string, string][]][]) {
                const refused = await internals.postForm(server, agent, path, fields);
                expect(refused.status, path).to.equal(403);
                expect(refused.text).to.contain(messages.team.ownersOnly);
            }

            expect(await server.app.ports.users.findByEmail('colado@example.com')).to.equal(null);
            expect((await server.app.ports.users.findById(id))!.role).to.equal('member');
            expect(await server.app.ports.users.assignedCuits(id)).to.deep.equal([]);
        });

        it('another account\'s user, a malformed id and a user gone are the one 404 page', async () => {

            const owner = await signedIn(ownerEmail);
            const foreign = await seedAccount(server.app.ports);
            const foreignMember = await seedUser(server.app.ports, foreign.accountId, 'member');
            await owner.get('/panel/equipo');
            for (const id of [String(foreign.userId), String(foreignMember.userId), '0', 'abc', '99999999']) {
                for (const path of [`/panel/equipo/${id}`, `/panel/equipo/${id}/borrar`]) {
                    const page = await owner.get(path);
                    expect(page.status, path).to.equal(404);
                    expect(page.text).to.contain(panelTexts.notFound);
                }

                for (const [path, fields] of [
                    [`/panel/equipo/${id}/rol`, { rol: 'member' }],
                    [`/panel/equipo/${id}/enlace`, {}],
                    [`/panel/equipo/${id}/asignar`, { cuit: cuits.ana, accion: 'asignar' }],
                    [`/panel/equipo/${id}/borrar`, {}]
                ] as const) {
                    const refused = await owner.post(path, fields);
                    expect(refused.status, path).to.equal(404);
                    expect(refused.text).to.contain(panelTexts.notFound);
                }
            }

            expect((await server.app.ports.users.findById(foreign.userId))!.role).to.equal('owner');
            expect(await server.app.ports.users.findById(foreignMember.userId)).to.not.equal(null);
            expect(await server.app.ports.users.assignedCuits(foreignMember.userId)).to.deep.equal([]);
        });

        it('counts links tried from one address like sign-ins: past 20 unknown ones, even a real link waits (429)', async () => {

            // A window of its own: the earlier tests' lookups counted in theirs.
            server.clock.advance(15 * 60 * 1000);
            const owner = await signedIn(ownerEmail);
            const { link } = await invite(owner, 'paciente@example.com');
            const guesser = panelAgent(server);
            // A real link gives its attempt back.
            for (let i = 0; i < 3; i++) {
                expect((await guesser.get(link)).status).to.equal(200);
            }

            for (let i = 0; i < 20; i++) {
                expect((await guesser.get(`/panel/invitacion/${String(i).padStart(43, 'x')}`)).status).to.equal(404);
            }

            const throttled = await guesser.get(link);
            expect(throttled.status).to.equal(429);
            expect(throttled.text).to.contain(messages.team.invitationThrottled);
            // The window ends; the link was never spent.
            server.clock.advance(15 * 60 * 1000);
            expect((await guesser.get(link)).status).to.equal(200);
        });

        it('every team form and the link\'s form refuse a missing or foreign CSRF token', async () => {

            const owner = await signedIn(ownerEmail);
            const target = await seedUser(server.app.ports, accountId, 'member');
            await owner.get('/panel/equipo');
            for (const [path, fields] of [
                ['/panel/equipo', [['email', 'sin-csrf@example.com'], ['rol', 'member']]],
                [`/panel/equipo/${target.userId}/rol`, [['rol', 'owner']]],
                [`/panel/equipo/${target.userId}/enlace`, []],
                [`/panel/equipo/${target.userId}/asignar`, [['cuit', cuits.ana], ['accion', 'asignar']]],
                ['/panel/equipo/asignar', [['cuit', cuits.ana], ['usuario', String(target.userId)], ['accion', 'asignar']]],
                [`/panel/equipo/${target.userId}/borrar`, []]
            ] as [string, [string, string][]][]) {
                await internals.refusesForeignAndMissingCrumb(server, owner, path, fields);
            }

            expect(await server.app.ports.users.findByEmail('sin-csrf@example.com')).to.equal(null);
            expect((await server.app.ports.users.findById(target.userId))!.role).to.equal('member');
            expect(await server.app.ports.users.assignedCuits(target.userId)).to.deep.equal([]);

            const { link } = await invite(owner, 'csrf-enlace@example.com');
            const person = panelAgent(server);
            await person.get(link);
            await internals.refusesForeignAndMissingCrumb(server, person, link, [['password', internals.password], ['repetida', internals.password]]);
            // The link was not spent.
            expect((await person.post(link, { password: internals.password, repetida: internals.password })).status).to.equal(303);
        });
    });
}
