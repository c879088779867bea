import { expect } from 'chai';
import { createUser } from '../../../core/use-cases/staff/create-user.js';
import { messages } from '../../../core/domain/messages.js';
import { runCli } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';
import { authorize, grant, mcpStatus, oauthTest, register, startOAuthTestServer, submit, tokenRequest } from '../../support/oauth.js';
import type { TestServer } from '../../support/server.js';

// Who an OAuth sign-in names and how long what it authorized lives (issue 29, items 1 and 6):
// the sign-in throttle and the user lookup agree on which user an address names, on both
// databases (MariaDB's column collation ignored accents and width); a password change, or
// staff, end every OAuth grant of the user.

for (const database of testDatabases()) {

    describe(`OAuth sign-in identity and grant revocation (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let email: string;

        before(async () => {

            ({ server, email } = await startOAuthTestServer(database));
        });

        after(async () => {

            await server.stop();
        });

        it('lets no lookalike of a throttled e-mail sign in: accents, fullwidth, zero-width, combining (item 1)', async () => {

            const clientId = await register(server);
            const { flow, location } = await authorize(server, clientId);
            for (let i = 0; i < 5; i++) {
                expect((await submit(flow, location, { email, password: 'no-es-la-clave', decision: 'allow' })).status).to.equal(401);
            }

            expect((await submit(flow, location, { email, password: oauthTest.password, decision: 'allow' })).status).to.equal(429);

            const [first] = email;
            const rest = email.slice(1);
            const lookalikes = {
                accent: `${{ u: 'ú', a: 'á', e: 'é', o: 'ó' }[first!] ?? 'é'}${rest}`,
                fullwidth: `${String.fromCodePoint(first!.codePointAt(0)! + 0xFEE0)}${rest}`,
                upperFullwidth: `${String.fromCodePoint(first!.toUpperCase().codePointAt(0)! + 0xFEE0)}${rest}`,
                zeroWidth: email.replace('@', '\u200B@'),
                combining: `${first}\u0301${rest}`
            };
            for (const [name, typed] of Object.entries(lookalikes)) {
                const answer = await submit(flow, location, { email: typed, password: oauthTest.password, decision: 'allow' });
                expect(answer.status, `${name}: ${typed}`).to.be.oneOf([401, 429]);
            }

            // The fullwidth forms are the same address, so the same (full) counter.
            expect((await submit(flow, location, { email: lookalikes.fullwidth, password: oauthTest.password, decision: 'allow' })).status).to.equal(429);
        });

        it('refuses to create a user whose e-mail hides invisible characters, and keeps lookalikes distinct users (item 1)', async () => {

            const { accountId } = (await server.app.ports.users.findByEmail(email))!;
            for (const hidden of ['ana\u200B@estudio.com', 'ana@estudio\u2060.com', 'ana\u202E@estudio.com']) {
                const result = await runCli(server.app.config.databaseUrl, ['user', 'create', '--account', String(accountId), '--email', hidden]);
                expect(result.code, hidden).to.equal(1);
                expect(result.stderr).to.contain(messages.admin.invalidEmail);
            }

            const plain = await createUser(server.app.ports, { accountId, email: 'jose@estudio.com' });
            const accented = await createUser(server.app.ports, { accountId, email: 'José@Estudio.com' });
            expect(accented.id).to.not.equal(plain.id);
            // Neither has a password yet (findByEmail finds who signs in): their stored addresses.
            expect((await server.app.ports.users.findById(plain.id))?.email).to.equal('jose@estudio.com');
            expect((await server.app.ports.users.findById(accented.id))?.email).to.equal('josé@estudio.com');
            const fullwidth = await runCli(server.app.config.databaseUrl, ['user', 'create', '--account', String(accountId), '--email', 'ｊｏｓｅ@estudio.com']);
            expect(fullwidth.code).to.equal(1);
            expect(fullwidth.stderr).to.contain(messages.admin.emailTaken('jose@estudio.com'));
        });

        it('revokes every OAuth grant of a user when staff change the password or revoke them (item 6)', async () => {

            const { server: other, email: person } = await startOAuthTestServer(database);
            try {
                const user = (await other.app.ports.users.findByEmail(person))!;
                const clientId = await register(other);
                const cli = (...args: string[]) => runCli(other.app.config.databaseUrl, args);

                for (const revoke of [
                    () => cli('user', 'set-password', '--user', String(user.id), '--password', oauthTest.password),
                    () => cli('user', 'revoke-oauth', '--user', String(user.id), '--json')
                ]) {
                    const tokens = await grant(other, clientId, person);
                    const second = await grant(other, clientId, person);
                    expect((await mcpStatus(other, tokens.access_token)).status).to.equal(200);

                    const result = await revoke();
                    expect(result.code, result.stderr).to.equal(0);

                    for (const issued of [tokens, second]) {
                        const mcp = await mcpStatus(other, issued.access_token);
                        expect(mcp.status).to.equal(401);
                        const refreshed = await tokenRequest(other, { grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: clientId });
                        expect(refreshed.status).to.equal(400);
                        expect(refreshed.body.error).to.equal('invalid_grant');
                    }
                }

                const revoked = await cli('user', 'revoke-oauth', '--user', String(user.id), '--json');
                expect(JSON.parse(revoked.stdout)).to.deep.equal({ id: user.id, revoked: 0 });
                const unknown = await cli('user', 'revoke-oauth', '--user', '999999');
                expect(unknown.stderr).to.contain(messages.admin.userNotFound(999999));
            }
            finally {
                await other.stop();
            }
        });
    });
}
