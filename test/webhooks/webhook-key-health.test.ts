import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startWebhookWorker } from '../../app/webhooks.js';
import { syncDeps } from '../../app/sync.js';
import type { ClientRecord } from '../../core/domain/client.js';
import { createKeySessions } from '../../core/use-cases/sync/key-sessions.js';
import { syncClient } from '../../core/use-cases/sync/sync-client.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { fakeAuthority, fakeTaxpayer } from '../support/fake-authority.js';
import type { SeededUser } from '../support/fixtures.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import type { Receiver } from '../support/receiver.js';
import { startReceiver, waitUntil } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';

// A key's change of state (a CAPTCHA today, a refused key, working again) is one `salud.cambio`
// event per change, not one per CUIT the key reaches, sent to every account whose CUITs it
// reaches; and the key's state on the API is read from the fleet's login ledger, so a CAPTCHA
// one account's sync met shows on the other account's CUITs too.

const internals = {
    secretKey: randomBytes(32).toString('base64'),
    key: '20111111111',
    password: 'clave-correcta',
    env: { WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', WEBHOOK_POLL_MS: '20', WEBHOOK_TIMEOUT_SECONDS: '2' } as Record<string, string>
};

interface Portfolio {
    user: SeededUser;
    person: ClientRecord;
    entity: ClientRecord;
    path: string;
}

for (const database of testDatabases()) {

    describe(`a key's change of state on webhooks and the API (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let receiver: Receiver;
        let accounts: Portfolio[];

        // The key events each account's endpoint received, as "previous>state cuits".
        const keyEvents = (path: string): string[] => receiver.calls.filter((call) => call.path === path).map((call) => JSON.parse(call.body).datos)
            .filter((datos) => datos.clave).map((datos) => `${datos.estadoAnterior}>${datos.estado} ${datos.cuits.join(',')}`);

        // A day's syncs of every CUIT of both accounts, sharing the key's session as a worker does.
        const syncDay = async (authority: ReturnType<typeof fakeAuthority>) => {

            const deps = syncDeps(server.app, authority);
            const sessions = createKeySessions(authority, server.clock, { ledger: deps.loginLedger });
            try {
                for (const account of accounts) {
                    for (const client of [account.person, account.entity]) {
                        await syncClient(deps, { clientId: client.id, sessions });
                    }
                }
            }
            finally {
                await sessions.close();
            }
        };

        before(async () => {

            server = await startTestServer(database, { clock: testClock('2026-03-15T12:00:00Z'), env: { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env } });
            receiver = await startReceiver();
            accounts = [];
            for (const [path, entityCuit] of [['/a', '30-44444444-4'], ['/b', '33-88888888-8']] as const) {
                const user = await seedAccount(server.app.ports);
                const person = await addClient(server.app.ports, user.accountId, { cuit: internals.key, claveArca: internals.password });
                const entity = await addClient(server.app.ports, user.accountId, { cuit: entityCuit, tipo: 'persona-juridica', representativeId: person.id });
                const created = await runCli(
                    server.app.config.databaseUrl,
                    ['webhook', 'create', '--account', String(user.accountId), '--url', `${receiver.url}${path}`, '--events', 'salud.cambio', '--json'],
                    { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env }
                );
                expect(created.code, created.stderr).to.equal(0);
                accounts.push({ user, person, entity, path });
            }
        });

        after(async () => {

            await receiver?.close();
            await server?.stop();
        });

        it('announces a CAPTCHA, the key working again and its refusal once per change, to both accounts the key reaches', async () => {

            const authority = fakeAuthority();
            authority.taxpayers.set(internals.key, fakeTaxpayer({ password: internals.password }));
            for (const account of accounts) {
                authority.taxpayers.set(account.entity.cuit, fakeTaxpayer());
            }

            const worker = startWebhookWorker(server.app);
            try {
                const cuits = accounts.map((account) => [internals.key, account.entity.cuit].sort().join(','));
                const expectKeyEvents = async (changes: string[]) => {

                    const wanted = accounts.map((_account, index) => changes.map((change) => `${change} ${cuits[index]}`));
                    await waitUntil(() => accounts.every((account, index) => keyEvents(account.path).length >= wanted[index]!.length), `${changes.length} key events each`);
                    expect(accounts.map((account) => keyEvents(account.path))).to.deep.equal(wanted);
                };

                // Day 1: ARCA asks for a CAPTCHA at the first login; the key's day is over.
                authority.failures.set('login', ['captcha']);
                await syncDay(authority);
                await expectKeyEvents(['pendiente>captcha']);

                // The other account never logged in: the ledger says the key's day ended by a
                // CAPTCHA, on every CUIT of both accounts.
                for (const account of accounts) {
                    for (const client of [account.person, account.entity]) {
                        const { data } = await server.ok(`/v1/cuits/${client.cuit}/estado`, account.user.token);
                        expect(data.clave, `${account.path} ${client.cuit}`).to.include({ cuit: internals.key, estado: 'captcha' });
                        expect(data.estado).to.equal('captcha');
                    }
                }

                // Day 2: the key logs in again; both accounts hear it works, once.
                server.clock.advance(24 * 60 * 60_000);
                await syncDay(authority);
                await expectKeyEvents(['pendiente>captcha', 'captcha>funciona']);
                const { data } = await server.ok(`/v1/cuits/${accounts[1]!.entity.cuit}/estado`, accounts[1]!.user.token);
                expect(data.clave).to.include({ estado: 'funciona' });

                // Day 3: the taxpayer changed the clave fiscal at ARCA; both stored keys are refused.
                server.clock.advance(24 * 60 * 60_000);
                authority.taxpayers.get(internals.key)!.password = 'otra-clave';
                await syncDay(authority);
                await expectKeyEvents(['pendiente>captcha', 'captcha>funciona', 'funciona>clave_rechazada']);
                const body = JSON.parse(receiver.calls.filter((call) => call.path === '/a').map((call) => call.body).filter((text) => JSON.parse(text).datos.clave).at(-1)!);
                expect(body).to.deep.include({ tipo: 'salud.cambio', cuit: internals.key, cuenta: accounts[0]!.user.accountId });
                expect(body.datos).to.include({
                    sistema: null,
                    clave: internals.key,
                    estado: 'clave_rechazada',
                    estadoAnterior: 'funciona',
                    mensaje: 'ARCA rechazó la clave fiscal.'
                });
            }
            finally {
                await worker.stop();
            }
        });
    });
}
