import { expect } from 'chai';
import { messages } from '../../../core/domain/messages.js';
import { signIn } from '../../../core/use-cases/sign-in.js';
import { testDatabases } from '../../support/databases.js';
import { runCli } from '../../support/cli.js';
import { seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

// The password people sign in with on the OAuth consent page: set by staff with
// `arcasync user set-password` (from stdin or --password), stored as a scrypt hash, checked by
// the signIn use case.

const setPasswordFromStdin = (databaseUrl: string, userId: number, password: string) => {

    return runCli(databaseUrl, ['user', 'set-password', '--user', String(userId), '--json'], {}, `${password}\n`);
};

for (const database of testDatabases()) {

    describe(`sign-in password for the OAuth consent page (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database);
        });

        after(async () => {

            await server.stop();
        });

        it('sets the password from stdin or --password, never printing it, and stores only a slow hash', async () => {

            const user = await seedAccount(server.app.ports);
            const email = (await server.app.ports.users.findById(user.userId))!.email;
            const url = server.app.config.databaseUrl;

            expect(await signIn(server.app.ports, { email, password: 'clave-de-stdin-123' })).to.equal(null);
            const fromStdin = await setPasswordFromStdin(url, user.userId, 'clave-de-stdin-123');
            expect(fromStdin.code, fromStdin.stderr).to.equal(0);
            expect(JSON.parse(fromStdin.stdout)).to.deep.equal({ id: user.userId });
            expect(fromStdin.stdout + fromStdin.stderr).to.not.contain('clave-de-stdin-123');
            expect((await signIn(server.app.ports, { email, password: 'clave-de-stdin-123' }))?.id).to.equal(user.userId);

            const hash = await server.app.ports.userCredentials.passwordHash(user.userId);
            expect(hash).to.match(/^scrypt\$/);
            expect(hash).to.not.contain('clave-de-stdin-123');

            const fromOption = await runCli(url, ['user', 'set-password', '--user', String(user.userId), '--password', 'otra-clave-larga-456']);
            expect(fromOption.code, fromOption.stderr).to.equal(0);
            expect(fromOption.stdout).to.not.contain('otra-clave-larga-456');
            expect(await signIn(server.app.ports, { email, password: 'clave-de-stdin-123' })).to.equal(null);
            expect((await signIn(server.app.ports, { email: email.toUpperCase(), password: 'otra-clave-larga-456' }))?.id).to.equal(user.userId);
        });

        it('refuses a short password and an unknown user with Spanish errors', async () => {

            const user = await seedAccount(server.app.ports);
            const short = await runCli(server.app.config.databaseUrl, ['user', 'set-password', '--user', String(user.userId), '--password', 'corta']);
            expect(short.code).to.equal(1);
            expect(short.stderr).to.contain(messages.admin.shortPassword(10));

            const unknown = await runCli(server.app.config.databaseUrl, ['user', 'set-password', '--user', '999999', '--password', 'una-clave-bien-larga']);
            expect(unknown.code).to.equal(1);
            expect(unknown.stderr).to.contain(messages.admin.userNotFound(999999));
        });

        it('signs in nobody without a password, with a wrong one, or with an unknown email', async () => {

            const user = await seedAccount(server.app.ports);
            const email = (await server.app.ports.users.findById(user.userId))!.email;
            expect(await signIn(server.app.ports, { email, password: '' })).to.equal(null);
            expect(await signIn(server.app.ports, { email, password: 'cualquier-clave-larga' })).to.equal(null);
            expect(await signIn(server.app.ports, { email: 'nadie@example.com', password: 'cualquier-clave-larga' })).to.equal(null);
        });
    });
}
