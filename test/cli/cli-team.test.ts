import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { setPassword } from '../../core/use-cases/staff/set-password.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { addClient, seedAccount, seedUser } from '../support/fixtures.js';
import { panelAgent } from '../support/panel.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';

// The team's staff commands (`user invite`, `link`, `role`, `unassign`, `remove`): the same use
// cases and rules as the panel's /panel/equipo (panel-team.test.ts), run as staff run them.

const internals = {
    json(result: CliResult): any {

        expect(result.stderr, result.stderr).to.equal('');
        expect(result.code, result.stderr).to.equal(0);
        return JSON.parse(result.stdout);
    },

    failure(result: CliResult, message: string): void {

        expect(result.code, result.stdout).to.equal(1);
        expect(result.stdout).to.equal('');
        expect(result.stderr).to.include(message);
    }
};

for (const database of testDatabases()) {

    describe(`staff CLI: the team (${database.name})`, function () {

        this.timeout(120_000);

        let server: TestServer;
        let cli: (...args: string[]) => Promise<CliResult>;

        before(async () => {

            server = await startTestServer(database, { inject: true });
            cli = (...args) => runCli(server.app.config.databaseUrl, args, { PUBLIC_URL: 'https://arcasync.example.com' });
        });

        after(async () => {

            await server.stop();
        });

        it('invites a member with a link shown once that sets the password on the panel; a new link ends the old one', async () => {

            const owner = await seedAccount(server.app.ports);
            const invited = internals.json(await cli('user', 'invite', '--account', String(owner.accountId), '--email', 'cli@example.com', '--json'));
            expect(invited).to.have.all.keys('id', 'link', 'expiresAt');
            expect(invited.link).to.match(/^https:\/\/arcasync\.example\.com\/panel\/invitacion\/[A-Za-z0-9_-]{43}$/);
            // The command runs on the real clock: a week from about now.
            expect(Date.parse(invited.expiresAt) - Date.now()).to.be.within(7 * 24 * 60 * 60 * 1000 - 10 * 60_000, 7 * 24 * 60 * 60 * 1000);
            expect((await server.app.ports.users.findById(invited.id))!.role).to.equal('member');

            const text = await cli('user', 'link', '--user', String(invited.id));
            expect(text.code, text.stderr).to.equal(0);
            const link = /https:\/\/arcasync\.example\.com(\/panel\/invitacion\/[A-Za-z0-9_-]{43})/.exec(text.stdout)![1]!;
            expect(text.stdout).to.contain('se muestra una sola vez');
            expect((await server.request(new URL(invited.link).pathname)).status).to.equal(404);

            const person = panelAgent(server);
            expect((await person.get(link)).status).to.equal(200);
            expect((await person.post(link, { password: 'una clave larga de cli', repetida: 'una clave larga de cli' })).status).to.equal(303);
            internals.failure(await cli('user', 'link', '--user', String(invited.id)), messages.team.notPending);
            internals.failure(await cli('user', 'invite', '--account', String(owner.accountId), '--email', 'CLI@example.com'), messages.admin.emailTaken('cli@example.com'));
        });

        it('invites an address another account signs in with as any other; its owner is told on the link', async () => {

            const ports = server.app.ports;
            const owner = await seedAccount(ports);
            const elsewhere = await seedAccount(ports);
            await setPassword(ports, { userId: elsewhere.userId, password: 'una clave larga de otra cuenta' });
            const taken = (await ports.users.findById(elsewhere.userId))!.email;
            const answers = [];
            for (const email of ['cli-nadie@example.com', taken]) {
                const invited = internals.json(await cli('user', 'invite', '--account', String(owner.accountId), '--email', email, '--json'));
                expect(invited).to.have.all.keys('id', 'link', 'expiresAt');
                answers.push(invited);
            }

            const person = panelAgent(server);
            const refused = await person.get(new URL(answers[1].link).pathname);
            expect(refused.status).to.equal(409);
            expect(refused.text).to.contain(messages.team.emailInUse);
            expect((await ports.users.findByEmail(taken))!.id).to.equal(elsewhere.userId);
        });

        it('changes roles and removes users, never the last owner', async () => {

            const owner = await seedAccount(server.app.ports);
            internals.failure(await cli('user', 'role', '--user', String(owner.userId), '--role', 'member'), messages.team.lastOwner);
            internals.failure(await cli('user', 'remove', '--user', String(owner.userId)), messages.team.lastOwner);
            internals.failure(await cli('user', 'role', '--user', String(owner.userId), '--role', 'jefe'), messages.admin.invalidRole);

            const other = await seedUser(server.app.ports, owner.accountId, 'member');
            expect(internals.json(await cli('user', 'role', '--user', String(other.userId), '--role', 'owner', '--json'))).to.deep.equal({ id: other.userId, role: 'owner' });
            const demoted = await cli('user', 'role', '--user', String(owner.userId), '--role', 'member');
            expect(demoted.stdout).to.contain(`Usuario ${owner.userId}: rol`);

            // The removed user's token answers 401 at once.
            expect((await server.request('/v1/cuits', { token: owner.token })).status).to.equal(200);
            await setPassword(server.app.ports, { userId: owner.userId, password: 'una clave larga de cli' });
            expect(internals.json(await cli('user', 'remove', '--user', String(owner.userId), '--json'))).to.deep.equal({ id: owner.userId, removed: true });
            expect((await server.request('/v1/cuits', { token: owner.token })).status).to.equal(401);
            expect(await server.app.ports.users.findById(owner.userId)).to.equal(null);
            internals.failure(await cli('user', 'remove', '--user', String(owner.userId)), messages.admin.userNotFound(owner.userId));
        });

        it('unassigns a CUIT from a member, who stops seeing it', async () => {

            const owner = await seedAccount(server.app.ports);
            const member = await seedUser(server.app.ports, owner.accountId, 'member');
            await addClient(server.app.ports, owner.accountId, { cuit: '20123456786' });
            internals.json(await cli('user', 'assign', '--user', String(member.userId), '--cuit', '20123456786', '--json'));
            expect((await server.request('/v1/cuits/20123456786/estado', { token: member.token })).status).to.equal(200);

            const off = internals.json(await cli('user', 'unassign', '--user', String(member.userId), '--cuit', '20-12345678-6', '--json'));
            expect(off).to.deep.equal({ userId: member.userId, cuit: '20123456786', unassigned: true });
            expect((await server.request('/v1/cuits/20123456786/estado', { token: member.token })).status).to.equal(404);
            internals.failure(await cli('user', 'unassign', '--user', String(owner.userId), '--cuit', '20123456786'), messages.admin.ownerSeesAll);
            internals.failure(await cli('user', 'unassign', '--user', String(member.userId), '--cuit', '30500010912'), messages.admin.clientNotInAccount('30500010912'));
        });
    });
}
