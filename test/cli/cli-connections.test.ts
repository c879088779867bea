import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { createToken } from '../../core/use-cases/staff/create-token.js';
import { setPassword } from '../../core/use-cases/staff/set-password.js';
import { databaseOf } from '../support/app.js';
import { cliJson, cliOnServer, cliRefusal } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { seedUser } from '../support/fixtures.js';
import { grant, mcpStatus, oauthTest, register, startOAuthTestServer } from '../support/oauth.js';

// Issue 40 at the command line: a user's MCP connections listed and revoked one at a time
// (`user connections`, `user revoke-oauth --connection`, the panel's use case for
// /panel/conexiones), client names shown as text, never obeyed; and `token list` telling when
// each API token was last used.

const internals = {
    // A client name that retitles the window, clears the screen and forges a line.
    hostile: 'Asistente\u001b]0;pwned\u0007\u001b[2J\n  0123  Cliente falso',
    shown: 'Asistente\\x1b]0;pwned\\x07\\x1b[2J\\n  0123  Cliente falso'
};

for (const database of testDatabases()) {

    describe(`CLI: a user's MCP connections and tokens' last use (${database.name})`, function () {

        this.timeout(120_000);

        let email: string;
        let userId: number;
        const suite = cliOnServer(async () => {

            const started = await startOAuthTestServer(database);
            email = started.email;
            userId = (await started.server.app.ports.users.findByEmail(email))!.id;
            return started.server;
        });
        const cli = (...args: string[]) => suite.cli(...args);

        it('lists the connections and revokes only the one named: its token is refused, the other still works', async () => {

            const keptClient = await register(suite.server, { client_name: 'Asistente que queda' });
            const kept = await grant(suite.server, keptClient, email);
            const goneClient = await register(suite.server, { client_name: internals.hostile });
            const gone = await grant(suite.server, goneClient, email);

            const { connections } = cliJson(await cli('user', 'connections', '--user', String(userId), '--json'));
            expect(connections).to.have.length(2);
            for (const connection of connections) {
                expect(connection).to.have.all.keys('id', 'clientName', 'grantedAt', 'scopes');
                expect(connection.id).to.match(/^[0-9a-f]{64}$/);
                expect(new Date(connection.grantedAt).toISOString()).to.equal(connection.grantedAt);
            }

            const target = connections.find((connection: { clientName: string }) => connection.clientName === internals.hostile);
            const other = connections.find((connection: { clientName: string }) => connection.clientName === 'Asistente que queda');
            expect(target, 'the hostile name travels as JSON, escaped').to.be.an('object');
            expect(other).to.be.an('object');

            const text = await cli('user', 'connections', '--user', String(userId));
            expect(text.code, text.stderr).to.equal(0);
            expect(text.stdout, 'no raw control character').to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
            expect(text.stdout).to.include(`  ${target.id}  ${internals.shown} · autorizada ${target.grantedAt} · alcance `);
            expect(text.stdout).to.include(`  ${other.id}  Asistente que queda · autorizada ${other.grantedAt}`);
            expect(text.stdout.trimEnd().split('\n'), 'one line per connection, none forged').to.have.length(2);

            const revoked = cliJson(await cli('user', 'revoke-oauth', '--user', String(userId), '--connection', target.id, '--json'));
            expect(revoked).to.deep.equal({ id: target.id, revoked: true });
            expect((await mcpStatus(suite.server, gone.access_token)).status).to.equal(401);
            expect((await mcpStatus(suite.server, kept.access_token)).status).to.equal(200);

            const left = cliJson(await cli('user', 'connections', '--user', String(userId), '--json')).connections;
            expect(left.map((connection: { id: string }) => connection.id)).to.deep.equal([other.id]);

            // Revoked already: not found, and nothing else changes.
            cliRefusal(await cli('user', 'revoke-oauth', '--user', String(userId), '--connection', target.id), messages.admin.connectionNotFound);
            const again = await cli('user', 'revoke-oauth', '--user', String(userId), '--connection', other.id);
            expect(again.code, again.stderr).to.equal(0);
            expect(again.stdout).to.equal(`Conexión ${other.id} del usuario ${userId} revocada: sus tokens dejan de funcionar; las demás siguen\n`);
            expect((await mcpStatus(suite.server, kept.access_token)).status).to.equal(401);
            expect((await cli('user', 'connections', '--user', String(userId))).stdout).to.equal('  (sin conexiones)\n');
        });

        it("refuses another user's connection as not found, and leaves it working", async () => {

            const clientId = await register(suite.server, { client_name: 'Del dueño' });
            const tokens = await grant(suite.server, clientId, email);
            const owner = (await suite.server.app.ports.users.findById(userId))!;
            const other = await seedUser(suite.server.app.ports, owner.accountId, 'member');
            await setPassword(suite.server.app.ports, { userId: other.userId, password: oauthTest.password });
            const [connection] = cliJson(await cli('user', 'connections', '--user', String(userId), '--json')).connections;

            expect(cliJson(await cli('user', 'connections', '--user', String(other.userId), '--json'))).to.deep.equal({ connections: [] });
            cliRefusal(await cli('user', 'revoke-oauth', '--user', String(other.userId), '--connection', connection.id), messages.admin.connectionNotFound);
            cliRefusal(await cli('user', 'revoke-oauth', '--user', String(userId), '--connection', 'f'.repeat(64)), messages.admin.connectionNotFound);
            // What was typed where the id goes is not printed back (it may be a token pasted by mistake).
            const pasted = await cli('user', 'revoke-oauth', '--user', String(userId), '--connection', tokens.access_token);
            cliRefusal(pasted, messages.admin.connectionNotFound);
            cliRefusal(await cli('user', 'connections', '--user', '999999'), messages.admin.userNotFound(999999));
            expect((await mcpStatus(suite.server, tokens.access_token)).status).to.equal(200);

            // Without --connection, every connection of the user ends, as before.
            const all = await cli('user', 'revoke-oauth', '--user', String(userId));
            expect(all.code, all.stderr).to.equal(0);
            expect((await mcpStatus(suite.server, tokens.access_token)).status).to.equal(401);
        });

        it("shows in token list when each token was last used: 'nunca usado', then the time of a REST request", async () => {

            const used = await createToken(suite.server.app.ports, { userId, name: 'Usado' });
            const idle = await createToken(suite.server.app.ports, { userId, name: 'Quieto' });
            const listed = async () => cliJson(await cli('token', 'list', '--user', String(userId), '--json')).tokens as { id: number; lastUsedAt: string | null }[];
            const ours = (tokens: { id: number; lastUsedAt: string | null }[]) => tokens.filter((token) => [used.id, idle.id].includes(token.id));
            expect(ours(await listed()).map((token) => token.lastUsedAt)).to.deep.equal([null, null]);

            expect((await suite.server.request('/v1/cuits', { token: used.token })).status).to.equal(200);
            // The request did not wait for the write (find-token-user.ts): the row is read until it has it.
            const stored = async (): Promise<number | null> => {

                const row = await databaseOf(suite.server.app)('tokens').where({ id: used.id }).first('last_used_at');
                return row.last_used_at === null ? null : Number(row.last_used_at);
            };
            for (let attempt = 0; await stored() === null && attempt < 100; ++attempt) {
                await new Promise((resolve) => setTimeout(resolve, 20));
            }

            const at = new Date((await stored())!).toISOString();
            const tokens = await listed();
            expect(tokens.find((token) => token.id === used.id)!.lastUsedAt).to.equal(at);
            expect(tokens.find((token) => token.id === idle.id)!.lastUsedAt).to.equal(null);

            const text = (await cli('token', 'list', '--user', String(userId))).stdout;
            expect(text).to.include(`  ${used.id}  ${used.token.slice(0, 8)}…  Usado  usuario ${userId}  creado `);
            expect(text).to.include(`· usado por última vez ${at}`);
            expect(text).to.match(new RegExp(`  ${idle.id}  .*Quieto.* · nunca usado`));
            expect(text).to.not.include(used.token.slice(0, 12));
        });
    });
}
