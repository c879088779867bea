import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { createAccount } from '../../core/use-cases/staff/create-account.js';
import { createUser } from '../../core/use-cases/staff/create-user.js';
import type { CliResult } from '../support/cli.js';
import { cliJson, cliOnServer } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { addClient } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';

// The command line (README.md): the staff commands as staff run them (a child process on the
// database), each with its --json shape and exit code, and their effect on the REST API.

const internals = {
    failure(result: CliResult, message: string): void {

        expect(result.code, result.stdout).to.not.equal(0);
        expect(result.stdout).to.equal('');
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines, result.stderr).to.have.length(1);
        expect(lines[0]).to.include(message);
    }
};

for (const database of testDatabases()) {

    describe(`staff CLI (${database.name})`, function () {

        // Many commands a test, in this process one at a time.
        this.timeout(60_000);

        const suite = cliOnServer(() => startTestServer(database));

        it('creates, updates and shows an account, as JSON and as text', async () => {

            const created = cliJson(await suite.cli('account', 'create', '--name', 'Estudio Pérez', '--json'));
            expect(created).to.have.all.keys('id');
            expect(created.id).to.be.a('number');

            const [writing, paused] = await Promise.all([
                suite.cli('account', 'update', String(created.id), '--writing', '--json'),
                suite.cli('account', 'create', '--name', 'Otra', '--subscription', 'paused', '--writing', '--json')
            ]);

            const updated = cliJson(writing);
            expect(updated).to.deep.equal({ id: created.id, name: 'Estudio Pérez', writingEnabled: true, subscription: 'active' });
            const other = cliJson(paused);
            const [shown, text] = await Promise.all([suite.cli('account', 'show', String(created.id), '--json'), suite.cli('account', 'show', String(other.id))]);

            const account = cliJson(shown);
            expect(account).to.have.all.keys('id', 'name', 'writingEnabled', 'subscription', 'createdAt', 'cuitCount', 'users');
            expect(account).to.include({ id: created.id, name: 'Estudio Pérez', cuitCount: 0 });
            expect(account.users).to.deep.equal([]);
            expect(new Date(account.createdAt).toISOString()).to.equal(account.createdAt);

            expect(text.code).to.equal(0);
            expect(text.stdout).to.include('Otra');
            expect(text.stdout).to.include('Suscripción: pausada (no se pudo cobrar el último pago)');
            expect(() => JSON.parse(text.stdout)).to.throw();

            const back = cliJson(await suite.cli('account', 'update', String(created.id), '--no-writing', '--subscription', 'ended', '--json'));
            expect(back).to.deep.equal({ id: created.id, name: 'Estudio Pérez', writingEnabled: false, subscription: 'ended' });
        });

        it('creates users, tokens and tags, assigns CUITs and tags, and the API sees it all', async () => {

            const { id: accountId } = cliJson(await suite.cli('account', 'create', '--name', 'Estudio Sur', '--json'));
            await addClient(suite.server.app.ports, accountId, { cuit: '20123456786', apellido: 'Gómez' });
            await addClient(suite.server.app.ports, accountId, { cuit: '27234567891', apellido: 'Ruiz' });

            const [ownerResult, memberResult] = await Promise.all([
                suite.cli('user', 'create', '--account', String(accountId), '--email', 'Duena@Estudio.com', '--json'),
                suite.cli('user', 'create', '--account', String(accountId), '--email', 'empleado@estudio.com', '--role', 'member', '--json')
            ]);
            const owner = cliJson(ownerResult);
            const member = cliJson(memberResult);
            expect(owner).to.have.all.keys('id');
            expect(member).to.have.all.keys('id');

            const [ownerToken, memberToken, assigned, tag] = await Promise.all([
                suite.cli('token', 'create', '--user', String(owner.id), '--name', 'ERP', '--json'),
                suite.cli('token', 'create', '--user', String(member.id), '--json'),
                suite.cli('user', 'assign', '--user', String(member.id), '--cuit', '27-23456789-1', '--json'),
                suite.cli('tag', 'create', '--account', String(accountId), '--name', 'Sueldos', '--color', '#AA00FF', '--json')
            ]);

            const ownerTokenJson = cliJson(ownerToken);
            expect(ownerTokenJson).to.have.all.keys('id', 'token');
            expect(ownerTokenJson.token).to.match(/^asy_/);
            const memberTokenJson = cliJson(memberToken);
            expect(cliJson(assigned)).to.deep.equal({ userId: member.id, cuit: '27234567891' });
            expect(cliJson(tag)).to.deep.include({ nombre: 'Sueldos', color: '#aa00ff' });

            expect(
                cliJson(await suite.cli('tag', 'assign', '--account', String(accountId), '--cuit', '20123456786', '--name', 'sueldos', '--json'))
            ).to.deep.equal({ cuit: '20123456786', etiqueta: 'sueldos' });

            const shown = cliJson(await suite.cli('account', 'show', String(accountId), '--json'));
            expect(shown.cuitCount).to.equal(2);
            // Users are listed by id; the two were created concurrently.
            expect(shown.users).to.deep.equal([
                { id: owner.id, email: 'duena@estudio.com', role: 'owner' },
                { id: member.id, email: 'empleado@estudio.com', role: 'member' }
            ].sort((a, b) => a.id - b.id));

            const asOwner = await suite.server.request('/v1/cuits', { token: ownerTokenJson.token });
            expect(asOwner.status).to.equal(200);
            expect(
                asOwner.body.data.map((item: { cuit: string; etiquetas: string[] }) => [item.cuit, item.etiquetas])
            ).to.deep.equal([['20123456786', ['Sueldos']], ['27234567891', []]]);

            const asMember = await suite.server.request('/v1/cuits', { token: memberTokenJson.token });
            expect(asMember.body.data.map((item: { cuit: string }) => item.cuit)).to.deep.equal(['27234567891']);
            expect((await suite.server.request('/v1/tags', { token: memberTokenJson.token })).body.data).to.deep.equal([{ nombre: 'Sueldos', color: '#aa00ff' }]);

            // A subscription paused and reactivated by staff: the same token, on the next request.
            cliJson(await suite.cli('account', 'update', String(accountId), '--subscription', 'paused', '--json'));
            expect((await suite.server.request('/v1/cuits', { token: memberTokenJson.token })).body).to.deep.equal({ error: messages.subscriptionPaused });
            cliJson(await suite.cli('account', 'update', String(accountId), '--subscription', 'active', '--json'));
            expect((await suite.server.request('/v1/cuits', { token: memberTokenJson.token })).status).to.equal(200);

            // Revocation through the CLI: 401 on the next request.
            expect(cliJson(await suite.cli('token', 'revoke', String(ownerTokenJson.id), '--json'))).to.deep.equal({ id: ownerTokenJson.id, revoked: true });
            const revoked = await suite.server.request('/v1/cuits', { token: ownerTokenJson.token });
            expect(revoked.status).to.equal(401);
            expect(revoked.body).to.deep.equal({ error: messages.unauthenticated });
        });

        it('shows a new token once in text output and never in account show', async () => {

            const { id: accountId } = await createAccount(suite.server.app.ports, { name: 'Estudio Oeste' });
            const { id: userId } = cliJson(
                await suite.cli('user', 'create', '--account', String(accountId), '--email', 'oeste@estudio.com', '--password', 'una clave larga', '--json')
            );
            const created = await suite.cli('token', 'create', '--user', String(userId));
            expect(created.code).to.equal(0);
            const tokens = created.stdout.match(/asy_[A-Za-z0-9_-]+/g) ?? [];
            expect(tokens).to.have.length(1);
            const token = tokens[0]!;
            expect((await suite.server.request('/v1/tags', { token })).status).to.equal(200);

            const [json, text] = await Promise.all([suite.cli('account', 'show', String(accountId), '--json'), suite.cli('account', 'show', String(accountId))]);
            for (const output of [json.stdout, text.stdout]) {
                expect(output).to.include('oeste@estudio.com');
                expect(output).to.not.include(token);
                expect(output).to.not.include(token.slice(0, 12));
                expect(output).to.not.match(/asy_/);
                expect(output).to.not.include('una clave larga');
            }
        });

        it('fails with one line on stderr and a non-zero exit', async () => {

            // Set up in-process: only the failing commands need a process of their own.
            const { id: accountId } = await createAccount(suite.server.app.ports, { name: 'Estudio Este' });
            const { id: ownerId } = await createUser(suite.server.app.ports, { accountId, email: 'este@estudio.com' });
            await addClient(suite.server.app.ports, accountId, { cuit: '20123456786' });

            const cases: [string[], string][] = [
                [['account', 'show', '999999', '--json'], messages.admin.accountNotFound(999999)],
                [['account', 'update', String(accountId), '--subscription', 'gratis'], messages.admin.invalidSubscription],
                [['user', 'create', '--account', String(accountId), '--email', 'ESTE@estudio.com'], messages.admin.emailTaken('este@estudio.com')],
                [['user', 'assign', '--user', String(ownerId), '--cuit', '20123456786'], messages.admin.ownerSeesAll],
                [['token', 'revoke', '999999', '--json'], messages.admin.tokenNotFound(999999)],
                [['tag', 'create', '--account', String(accountId), '--name', 'IVA', '--color', 'rojo'], messages.admin.invalidColor],
                [
                    ['tag', 'assign', '--account', String(accountId), '--cuit', '20999999999', '--name', 'IVA', '--json'],
                    messages.admin.clientNotInAccount('20999999999')
                ],
                // Usage errors too: one line, no help dump.
                [['account', 'create', '--json'], '--name'],
                [['account', 'borrar', '1'], 'borrar']
            ];

            for (let i = 0; i < cases.length; i += 2) {
                const batch = cases.slice(i, i + 2);
                const results = await Promise.all(batch.map(([args]) => suite.cli(...args)));
                results.forEach((result, j) => {

                    const [args, message] = batch[j]!;
                    expect(result.code, args.join(' ')).to.not.equal(0);
                    internals.failure(result, message);
                });
            }

            // Creating the same tag twice is refused the second time.
            cliJson(await suite.cli('tag', 'create', '--account', String(accountId), '--name', 'IVA', '--color', '#112233', '--json'));
            internals.failure(
                await suite.cli('tag', 'create', '--account', String(accountId), '--name', 'iva', '--color', '#112233', '--json'),
                messages.admin.tagTaken('iva')
            );
        });

        it('never prints back a token or an e-mail typed where an id goes (issue 29, item 10)', async () => {

            const secret = 'asy_0123456789abcdefghijklmnopqrstuv';
            const typed = [secret, 'ana@estudio.com', `12${secret}`, '1e3', '0x10'];
            const runs = [
                ...typed.map((value) => ['token', 'revoke', value]),
                ...typed.map((value) => ['account', 'show', value, '--json']),
                ['token', 'create', '--user', secret],
                ['user', 'set-password', '--user', secret, '--password', 'una-clave-larga-de-prueba']
            ];
            for (const args of runs) {
                const result = await suite.cli(...args);
                internals.failure(result, 'Identificador inválido: se espera el número');
                const value = args.find((arg) => typed.includes(arg))!;
                expect(result.stderr, args.join(' ')).to.not.include(value);
            }
        });
    });
}
