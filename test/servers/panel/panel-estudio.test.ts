import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { formatMoment } from '../../../servers/panel/client-format.js';
import { estudioTexts } from '../../../servers/panel/estudio-texts.js';
import { mcpScope } from '../../../servers/oauth/provider.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedUser } from '../../support/fixtures.js';
import { grant, mcpStatus, oauthTest, register, startOAuthTestServer } from '../../support/oauth.js';
import { databaseOf } from '../../support/app.js';
import type { PanelAgent } from '../../support/panel.js';
import { expectCsrfRefused, panelAgent } from '../../support/panel.js';
import type { TestServer } from '../../support/server.js';
import { injected } from '../../support/server.js';
import { testDatabases } from '../../support/databases.js';

// The panel running the estudio over HTTP (docs/panel.md, El estudio): API tokens generated,
// used and revoked; MCP connections revoked; tags managed and assigned; every form's CSRF
// check, who may do what, and hostile names shown as text.

const internals = {
    hostile: '<img src=x onerror=alert(1)>',
    tokenOnPage: /id="token-valor" type="text" readonly value="([^"]+)"/,

    // The "Último uso" cell of the token of this name on /panel/tokens.
    lastUsedOn(page: string, name: string): string | undefined {

        return new RegExp(`<th scope="row" data-label="Nombre">${name}</th>\\s*<td data-label="Creado">[^<]*</td>\\s*<td data-label="Último uso">([^<]*)</td>`).exec(page)?.[1];
    },

    // The page once a token's use is recorded: the request that used it did not wait for the
    // write (find-token-user.ts), so the page is asked again until it shows one.
    async afterUse(agent: PanelAgent, name: string): Promise<string> {

        for (let attempt = 0; ; ++attempt) {
            const page = (await agent.get('/panel/tokens')).text;
            if (internals.lastUsedOn(page, name) !== estudioTexts.neverUsed || attempt === 100) {
                return page;
            }

            await new Promise((resolve) => setTimeout(resolve, 20));
        }
    }
};

for (const database of testDatabases()) {

    describe(`the panel running the estudio (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let ownerEmail: string;
        let member: SeededUser;
        let memberEmail: string;

        before(async () => {

            let listening: TestServer;
            ({ server: listening, email: ownerEmail } = await startOAuthTestServer(database));
            // OAuth's flows need its socket; the panel's agent needs redirects answered, not
            // followed (fetch would follow them without the cookies): the same server, injected.
            server = { ...listening, request: injected(listening.server) };
            const ports = server.app.ports;
            const owner = (await ports.users.findByEmail(ownerEmail))!;
            member = await seedUser(ports, owner.accountId, 'member');
            await setPassword(ports, { userId: member.userId, password: oauthTest.password });
            memberEmail = (await ports.users.findById(member.userId))!.email;
            await addClient(ports, owner.accountId, { cuit: '20123456786', apellido: 'Alfaro', nombre: 'Ana' });
            await addClient(ports, owner.accountId, { cuit: '27000000408', apellido: 'Zapata', nombre: 'Zoe' });
        });

        after(async () => {

            await server?.stop();
        });

        const signedIn = async (email: string): Promise<PanelAgent> => {

            const agent = panelAgent(server);
            const answer = await agent.signIn(email, oauthTest.password);
            expect(answer.status, answer.text.slice(0, 3000)).to.equal(303);
            return agent;
        };

        describe('API tokens', () => {

            it('generates a token shown once that works with REST, lists it without the token, and revokes it (401)', async () => {

                const agent = await signedIn(ownerEmail);
                const page = await agent.get('/panel/tokens');
                expect(page.status).to.equal(200);

                const created = await agent.post('/panel/tokens', { nombre: 'Planilla de Marta' });
                expect(created.status).to.equal(200);
                expect(created.text).to.contain(estudioTexts.tokenCreated);
                expect(created.text).to.contain('<script src="/panel/copiar.js" defer></script>');
                const token = internals.tokenOnPage.exec(created.text)?.[1];
                expect(token, 'the token on the answer to its creation').to.be.a('string');
                expect(created.text).to.contain(`curl -H &quot;Authorization: Bearer ${token}&quot; ${server.url}/v1/cuits`);

                // It inherits the owner's permissions: every CUIT of the account.
                const cuits = await server.request('/v1/cuits', { token: token! });
                expect(cuits.status).to.equal(200);
                expect(cuits.body.data.map((client: { cuit: string }) => client.cuit)).to.have.members(['20123456786', '27000000408']);

                const list = await agent.get('/panel/tokens');
                expect(list.text).to.contain('Planilla de Marta');
                expect(list.text).to.not.contain(token!);
                expect(list.text).to.not.contain(estudioTexts.tokenCreated);

                const revokePath = /href="(\/panel\/tokens\/\d+\/revocar)" aria-label="Revocar Planilla de Marta"/.exec(list.text)![1]!;
                const confirm = await agent.get(revokePath);
                expect(confirm.status).to.equal(200);
                expect(confirm.text).to.contain(estudioTexts.revokeTokenQuestion('Planilla de Marta'));
                // Seeing the question revokes nothing.
                expect((await server.request('/v1/cuits', { token: token! })).status).to.equal(200);

                await expectCsrfRefused(server, agent, revokePath, {});
                expect((await server.request('/v1/cuits', { token: token! })).status).to.equal(200);

                const revoked = await agent.post(revokePath, {});
                expect(revoked.status).to.equal(303);
                expect(revoked.headers.get('location')).to.equal('/panel/tokens?revocado=1');
                expect((await server.request('/v1/cuits', { token: token! })).status).to.equal(401);
                const after = await agent.get('/panel/tokens?revocado=1');
                expect(after.text).to.contain(estudioTexts.tokenRevoked);
                expect(after.text).to.not.contain('Planilla de Marta');
            });

            it('shows when each token was last used: "nunca" until a REST or MCP request uses it, then its date', async () => {

                const agent = await signedIn(ownerEmail);
                await agent.get('/panel/tokens');
                const rest = internals.tokenOnPage.exec((await agent.post('/panel/tokens', { nombre: 'Uso por REST' })).text)![1]!;
                const mcp = internals.tokenOnPage.exec((await agent.post('/panel/tokens', { nombre: 'Uso por MCP' })).text)![1]!;
                const before = await agent.get('/panel/tokens');
                expect(before.text).to.contain('<th scope="col">Último uso</th>');
                expect(internals.lastUsedOn(before.text, 'Uso por REST')).to.equal('nunca');
                expect(internals.lastUsedOn(before.text, 'Uso por MCP')).to.equal('nunca');

                expect((await server.request('/v1/cuits', { token: rest })).status).to.equal(200);
                const used = await internals.afterUse(agent, 'Uso por REST');
                const stored = async (name: string) => Number((await databaseOf(server.app)('tokens').where({ name }).first('last_used_at'))!.last_used_at);
                const at = await stored('Uso por REST');
                expect(internals.lastUsedOn(used, 'Uso por REST')).to.equal(formatMoment(new Date(at).toISOString()));
                expect(internals.lastUsedOn(used, 'Uso por REST')).to.match(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
                expect(internals.lastUsedOn(used, 'Uso por MCP')).to.equal('nunca');

                // Used again within minutes: nothing more is written (the rule: token-use.test.ts).
                expect((await server.request('/v1/cuits', { token: rest })).status).to.equal(200);
                expect(await stored('Uso por REST')).to.equal(at);

                expect((await mcpStatus(server, mcp)).status).to.equal(200);
                const afterMcp = await internals.afterUse(agent, 'Uso por MCP');
                expect(internals.lastUsedOn(afterMcp, 'Uso por MCP')).to.equal(formatMoment(new Date(await stored('Uso por MCP')).toISOString()));
            });

            it('refuses token generation without its own CSRF token, and a bad name with the staff message', async () => {

                const agent = await signedIn(ownerEmail);
                await agent.get('/panel/tokens');
                await expectCsrfRefused(server, agent, '/panel/tokens', { nombre: 'x' });
                expect((await agent.get('/panel/tokens')).text).to.not.contain('id="token-valor"');

                const bad = await agent.post('/panel/tokens', { nombre: 'a\u001b[31mb' });
                expect(bad.status).to.equal(400);
                expect(bad.text).to.contain('El nombre del token no puede tener caracteres de control');
                expect(bad.text).to.not.contain('id="token-valor"');
            });

            it("gives a member a token with the member's permissions, and never another user's token to revoke", async () => {

                const owner = await signedIn(ownerEmail);
                await owner.get('/panel/tokens');
                await owner.post('/panel/tokens', { nombre: 'Del owner' });
                const ownerRevoke = /href="(\/panel\/tokens\/\d+\/revocar)"[^>]*aria-label="Revocar Del owner"/.exec((await owner.get('/panel/tokens')).text)![1]!;

                const agent = await signedIn(memberEmail);
                await agent.get('/panel/tokens');
                const created = await agent.post('/panel/tokens', { nombre: internals.hostile });
                const token = internals.tokenOnPage.exec(created.text)![1]!;
                // Nothing assigned to the member yet: its token sees no CUIT, as the member.
                const cuits = await server.request('/v1/cuits', { token });
                expect(cuits.status).to.equal(200);
                expect(cuits.body.data).to.deep.equal([]);

                const list = await agent.get('/panel/tokens');
                expect(list.text).to.contain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
                expect(list.text).to.not.contain(internals.hostile);
                expect(list.text).to.not.contain('Del owner');

                expect((await agent.get(ownerRevoke)).status).to.equal(404);
                const refused = await agent.post(ownerRevoke, {});
                expect(refused.status).to.equal(404);
                expect(refused.text).to.contain(panelTexts.notFound);
                expect((await owner.get('/panel/tokens')).text).to.contain('Del owner');
            });

            it('serves the copy script from the service, cacheable and without a CSRF cookie', async () => {

                const script = await server.request('/panel/copiar.js');
                expect(script.status).to.equal(200);
                expect(script.headers.get('content-type')).to.match(/^text\/javascript/);
                expect(script.text).to.contain('navigator.clipboard');
                expect(script.headers.getSetCookie()).to.deep.equal([]);
            });
        });

        describe('connected assistants', () => {

            it("lists the user's MCP clients and revoking one refuses its access token at once", async () => {

                const kept = await register(server, { client_name: 'Asistente que queda' });
                const keptTokens = await grant(server, kept, ownerEmail);
                const clientId = await register(server, { client_name: internals.hostile });
                const tokens = await grant(server, clientId, ownerEmail);
                expect((await mcpStatus(server, tokens.access_token)).status).to.equal(200);

                const agent = await signedIn(ownerEmail);
                const page = await agent.get('/panel/conexiones');
                expect(page.status).to.equal(200);
                expect(page.text).to.contain('Asistente que queda');
                expect(page.text).to.contain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
                expect(page.text).to.not.contain(internals.hostile);
                expect(page.text).to.contain(`<code>${mcpScope}</code>`);

                // A member sees none of the owner's.
                const memberAgent = await signedIn(memberEmail);
                const memberPage = await memberAgent.get('/panel/conexiones');
                expect(memberPage.text).to.contain(estudioTexts.noConnections);

                const revokePath = new RegExp(`href="(/panel/conexiones/[0-9a-f]{64}/revocar)" aria-label="Revocar ${'&lt;img src&#x3D;x onerror&#x3D;alert\\(1\\)&gt;'}"`).exec(page.text)![1]!;
                expect((await memberAgent.get(revokePath)).status).to.equal(404);
                expect((await memberAgent.post(revokePath, {})).status).to.equal(404);
                expect((await mcpStatus(server, tokens.access_token)).status).to.equal(200);

                const confirm = await agent.get(revokePath);
                expect(confirm.status).to.equal(200);
                await expectCsrfRefused(server, agent, revokePath, {});
                expect((await mcpStatus(server, tokens.access_token)).status).to.equal(200);

                const revoked = await agent.post(revokePath, {});
                expect(revoked.status).to.equal(303);
                expect((await mcpStatus(server, tokens.access_token)).status).to.equal(401);
                expect((await mcpStatus(server, keptTokens.access_token)).status).to.equal(200);
                const after = await agent.get('/panel/conexiones?revocada=1');
                expect(after.text).to.contain(estudioTexts.connectionRevoked);
                expect(after.text).to.contain('Asistente que queda');
                expect(after.text).to.not.contain('onerror');
            });
        });

        describe('tags', () => {

            const tagsOf = async (token: string) => {

                const cuits = await server.request('/v1/cuits', { token });
                expect(cuits.status).to.equal(200);
                return Object.fromEntries(cuits.body.data.map((client: { cuit: string; etiquetas: string[] }) => [client.cuit, client.etiquetas]));
            };

            it('creates, renames and recolours a tag, assigns it in bulk from la cartera, and the API shows each change at once', async () => {

                const agent = await signedIn(ownerEmail);
                await agent.get('/panel/tokens');
                const token = internals.tokenOnPage.exec((await agent.post('/panel/tokens', { nombre: 'Lectura' })).text)![1]!;
                // The API read before, so a cached answer would show if a change did not raise the data version.
                expect((await server.request('/v1/tags', { token })).body.data).to.deep.equal([]);
                expect(await tagsOf(token)).to.deep.equal({ '20123456786': [], '27000000408': [] });

                await agent.get('/panel/etiquetas');
                await expectCsrfRefused(server, agent, '/panel/etiquetas', { nombre: 'Mensual', color: '#aa0000' });
                const created = await agent.post('/panel/etiquetas', { nombre: 'Mensual', color: '#AA0000' });
                expect(created.status).to.equal(303);
                expect((await server.request('/v1/tags', { token })).body.data).to.deep.equal([{ nombre: 'Mensual', color: '#aa0000' }]);

                const taken = await agent.post('/panel/etiquetas', { nombre: 'mensual', color: '#000000' });
                expect(taken.status).to.equal(409);
                const bad = await agent.post('/panel/etiquetas', { nombre: '', color: 'rojo' });
                expect(bad.status).to.equal(400);
                expect(bad.text).to.contain('El nombre no puede estar vacío.');

                await agent.get('/panel/etiquetas');
                await expectCsrfRefused(server, agent, '/panel/etiquetas/editar', { etiqueta: 'Mensual', nombre: 'Trimestral', color: '#00aa00' });
                expect((await agent.post('/panel/etiquetas/editar', { etiqueta: 'Mensual', nombre: 'Trimestral', color: '#00aa00' })).status).to.equal(303);
                expect((await server.request('/v1/tags', { token })).body.data).to.deep.equal([{ nombre: 'Trimestral', color: '#00aa00' }]);

                // La cartera's selection: the checkboxes and the form they belong to.
                const cartera = await agent.get('/panel');
                expect(cartera.text).to.contain('<form id="seleccion"');
                expect(cartera.text).to.match(/<input type="checkbox" name="cuit" value="20-12345678-6" form="seleccion"/);
                await expectCsrfRefused(server, agent, '/panel/etiquetas/asignar', { cuit: '20-12345678-6', etiqueta: 'Trimestral', accion: 'asignar' });
                const form = new URLSearchParams([['cuit', '20-12345678-6'], ['cuit', '27-00000040-8'], ['etiqueta', 'Trimestral'], ['accion', 'asignar'], ['volver', '/panel?q=a']]);
                const assigned = await agent.post('/panel/etiquetas/asignar', { cuit: '20-12345678-6', etiqueta: 'Trimestral', accion: 'asignar', volver: '/panel?q=a' });
                expect(assigned.status).to.equal(303);
                expect(assigned.headers.get('location')).to.equal('/panel?q=a');
                expect(await tagsOf(token)).to.deep.equal({ '20123456786': ['Trimestral'], '27000000408': [] });

                // Both CUITs at once, as a browser posts several checked boxes of one name.
                await agent.get('/panel');
                const both = await server.request('/panel/etiquetas/asignar', {
                    method: 'POST',
                    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
                    body: `${new URLSearchParams([...form, ['arcasync-crumb', agent.cookies.get('arcasync-crumb')!]]).toString()}`
                });
                expect(both.status).to.equal(303);
                expect(await tagsOf(token)).to.deep.equal({ '20123456786': ['Trimestral'], '27000000408': ['Trimestral'] });
                const filtered = await server.request('/v1/cuits?etiquetas=Trimestral', { token });
                expect(filtered.body.data).to.have.length(2);

                // Somewhere outside the panel is never where it goes back to.
                await agent.get('/panel');
                const away = await agent.post('/panel/etiquetas/asignar', { cuit: '27-00000040-8', etiqueta: 'Trimestral', accion: 'quitar', volver: '//evil.example/' });
                expect(away.headers.get('location')).to.equal('/panel');
                expect(await tagsOf(token)).to.deep.equal({ '20123456786': ['Trimestral'], '27000000408': [] });

                // A CUIT outside the account refuses the whole selection: the others keep their tag.
                await agent.get('/panel');
                const partly = await server.request('/panel/etiquetas/asignar', {
                    method: 'POST',
                    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
                    body: new URLSearchParams([
                        ['cuit', '20-12345678-6'], ['cuit', '30500010912'], ['etiqueta', 'Trimestral'], ['accion', 'quitar'], ['arcasync-crumb', agent.cookies.get('arcasync-crumb')!]
                    ]).toString()
                });
                expect(partly.status).to.equal(404);
                expect(await tagsOf(token)).to.deep.equal({ '20123456786': ['Trimestral'], '27000000408': [] });

                // From the client's own page, back to it.
                const clientPage = await agent.get('/panel/clientes/27000000408');
                expect(clientPage.text).to.contain('<select id="etiqueta-cliente" name="etiqueta"><option value="Trimestral">');
                const fromClient = await agent.post('/panel/etiquetas/asignar', { cuit: '27000000408', etiqueta: 'Trimestral', accion: 'asignar', volver: '/panel/clientes/27000000408' });
                expect(fromClient.headers.get('location')).to.equal('/panel/clientes/27000000408');
                expect(await tagsOf(token)).to.deep.equal({ '20123456786': ['Trimestral'], '27000000408': ['Trimestral'] });

                const confirm = await agent.get('/panel/etiquetas/borrar?etiqueta=Trimestral');
                expect(confirm.status).to.equal(200);
                expect(confirm.text).to.contain(estudioTexts.deleteTagQuestion('Trimestral'));
                await expectCsrfRefused(server, agent, '/panel/etiquetas/borrar', { etiqueta: 'Trimestral' });
                await agent.get('/panel/etiquetas/borrar?etiqueta=Trimestral');
                expect((await agent.post('/panel/etiquetas/borrar', { etiqueta: 'Trimestral' })).status).to.equal(303);
                expect((await server.request('/v1/tags', { token })).body.data).to.deep.equal([]);
                expect(await tagsOf(token)).to.deep.equal({ '20123456786': [], '27000000408': [] });
            });

            it('shows hostile tag names as text', async () => {

                const agent = await signedIn(ownerEmail);
                await agent.get('/panel/etiquetas');
                expect((await agent.post('/panel/etiquetas', { nombre: internals.hostile, color: '#123456' })).status).to.equal(303);
                for (const path of ['/panel/etiquetas', '/panel', `/panel/etiquetas/borrar?etiqueta=${encodeURIComponent(internals.hostile)}`]) {
                    const page = await agent.get(path);
                    expect(page.status, path).to.equal(200);
                    expect(page.text, path).to.contain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
                    expect(page.text, path).to.not.contain(internals.hostile);
                }

                await agent.post('/panel/etiquetas/borrar', { etiqueta: internals.hostile });
            });

            it('gives a member the 403 page on every tag page and form, and no selection in la cartera', async () => {

                const agent = await signedIn(memberEmail);
                for (const path of ['/panel/etiquetas', '/panel/etiquetas/borrar?etiqueta=x']) {
                    const page = await agent.get(path);
                    expect(page.status, path).to.equal(403);
                    expect(page.text).to.contain(messages.team.ownersOnly);
                }

                for (const path of ['/panel/etiquetas', '/panel/etiquetas/editar', '/panel/etiquetas/borrar', '/panel/etiquetas/asignar']) {
                    const refused = await agent.post(path, { nombre: 'x', color: '#000000', etiqueta: 'x', cuit: '20-12345678-6' });
                    expect(refused.status, path).to.equal(403);
                    expect(refused.text).to.contain(messages.team.ownersOnly);
                }

                const cartera = await agent.get('/panel');
                expect(cartera.text).to.not.contain('form="seleccion"');
                await server.app.ports.users.assignClients(member.userId, [(await server.app.ports.clients.findInAccount(member.accountId, '27000000408' as never))!.id]);
                const clientPage = await agent.get('/panel/clientes/27000000408');
                expect(clientPage.status).to.equal(200);
                expect(clientPage.text).to.not.contain('etiqueta-cliente');
            });
        });
    });
}
