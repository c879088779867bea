import { Writable } from 'node:stream';
import { expect } from 'chai';
import { aesGcmSecretBox, keyIdOf } from '../../../adapters/crypto/secret-box.js';
import { startServing } from '../../../app/server.js';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import { createLogger } from '../../../app/logger.js';
import { checkAuthorityFor } from '../../../app/worker.js';
import { messages } from '../../../core/domain/messages.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { cuitSequence, personBody } from '../../support/client-bodies.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { seedAccount } from '../../support/fixtures.js';
import { importHeader } from '../../support/import-files.js';
import { panelAgent } from '../../support/panel.js';
import type { TestServer } from '../../support/server.js';
import { startServerOn, startTestServer, writeServerEnv } from '../../support/server.js';
import { testEnv } from '../../support/app.js';

// docs/operations.md, Key rotation: a process whose keyring cannot open the installation's key
// identity secret (the key that sealed it was dropped before a rotation finished) answers every
// request that stores a clave fiscal with a Spanish 503, stores nothing, logs what the operator
// must do (the key id, never a value), the panel shows its error page, and `serve` and the
// workers refuse to start saying the same.

const internals = {
    password: 'una-clave-larga-de-prueba',
    nextCuit: cuitSequence(71_000_000),
    // The key that sealed the secret, no longer in the keyring.
    oldKey: Buffer.alloc(32, 3),

    sink() {

        const lines: Record<string, unknown>[] = [];
        const destination = new Writable({
            write(chunk: Buffer, _encoding, done) {

                lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>));
                done();
            }
        });
        return { lines, logger: createLogger({ level: 'info', destination }) };
    }
};

for (const database of testDatabases()) {

    describe(`storing a clave fiscal with an unreadable key identity secret (${database.name})`, function () {

        this.timeout(60_000);

        let first: TestServer;
        let second: TestServer;
        let owner: SeededUser;
        let email: string;
        let stored: string;
        const log = internals.sink();

        before(async () => {

            first = await startTestServer(database, { env: writeServerEnv });
            owner = await seedAccount(first.app.ports, { writing: true });
            await setPassword(first.app.ports, { userId: owner.userId, password: internals.password });
            email = (await first.app.ports.users.findById(owner.userId))!.email;
            // The first key stored creates the secret, sealed with the first key.
            stored = internals.nextCuit();
            const created = await first.request('/v1/cuits', { token: owner.token, method: 'POST', body: personBody(stored) });
            expect(created.status, created.text).to.equal(201);
            // The secret as a key since dropped from the keyring sealed it (the OAuth keys, the
            // stored clave fiscal still open): another process on the same database meets it.
            const id = 'arca-key-identity';
            const current = (await first.app.ports.oauthStore.sealedServerSecret(id))!;
            const resealed = aesGcmSecretBox({ current: internals.oldKey, previous: [] }).seal(JSON.stringify(Buffer.alloc(32, 1).toString('base64')));
            expect(await first.app.ports.oauthStore.replaceSealedServerSecret(id, current, resealed)).to.equal(true);
            second = await startServerOn(first, { env: writeServerEnv, logger: log.logger, inject: true });
        });

        after(async () => {

            await second?.stop();
            await first?.stop();
        });

        const listed = async (): Promise<string[]> => (await first.ok('/v1/cuits?limit=100', owner.token)).data.map((client: { cuit: string }) => client.cuit);

        it('answers the API\'s POST and PATCH with clave_arca with a 503 in Spanish, stores nothing and logs what to do', async () => {

            const cuit = internals.nextCuit();
            const key = 'Clave-Que-No-Se-Guarda-1';
            const created = await second.request('/v1/cuits', { token: owner.token, method: 'POST', body: { ...personBody(cuit), clave_arca: key } });
            expect(created.status, created.text).to.equal(503);
            expect(created.body).to.deep.equal({ error: messages.clientWrite.keyIdentityUnavailable });
            expect(created.headers.get('retry-after')).to.equal('300');

            const patched = await second.request(`/v1/cuits/${stored}`, { token: owner.token, method: 'PATCH', body: { clave_arca: key, telefono: '1' } });
            expect(patched.status, patched.text).to.equal(503);
            expect(patched.body).to.deep.equal({ error: messages.clientWrite.keyIdentityUnavailable });

            expect(await listed()).to.deep.equal([stored]);
            const [client] = (await first.ok('/v1/cuits?limit=100', owner.token)).data;
            expect(client.telefono).to.not.equal('1');

            const notes = log.lines.filter((line) => line.msg === 'servicio no disponible');
            expect(notes).to.have.length(2);
            expect(notes[0]!.level).to.equal(50);
            expect(String(notes[0]!.note)).to.equal(messages.clientWrite.keyIdentityUnreadable(keyIdOf(internals.oldKey)));
            expect(JSON.stringify(log.lines)).to.not.contain(key);
        });

        it('shows the panel\'s error page for the client form and keeps a pending import for the import\'s confirmation', async () => {

            const agent = panelAgent(second);
            const signedIn = await agent.signIn(email, internals.password);
            expect(signedIn.status, signedIn.text.slice(0, 1500)).to.equal(303);
            await agent.get('/panel/clientes/nuevo');
            const form = await agent.post('/panel/clientes/nuevo', {
                tipo: 'persona-fisica', cuit: internals.nextCuit(), nombre: 'Ana', apellido: 'Paz', clave_arca: 'Clave-Panel-1', email: '', telefono: ''
            });
            expect(form.status, form.text.slice(0, 2000)).to.equal(503);
            expect(form.headers.get('content-type')).to.contain('text/html');
            expect(form.text).to.contain(messages.clientWrite.keyIdentityUnavailable.slice(0, 40));

            // Preview (sealed with this process's key), then confirm: refused, the import kept.
            const page = await agent.get('/panel/clientes/importar');
            const crumb = /name="arcasync-crumb" value="([^"]*)"/.exec(page.text)![1]!;
            const boundary = '----arcasyncPruebaClave';
            const csv = `${importHeader}\r\npersona-fisica;${internals.nextCuit()};Ana;Paz;;;Clave-Import-1;;\r\n`;
            const uploaded = await second.server.inject({
                method: 'POST',
                url: '/panel/clientes/importar',
                headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
                payload: `--${boundary}\r\nContent-Disposition: form-data; name="arcasync-crumb"\r\n\r\n${crumb}\r\n` +
                    `--${boundary}\r\nContent-Disposition: form-data; name="archivo"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`
            });
            expect(uploaded.statusCode, uploaded.payload.slice(0, 2000)).to.equal(200);
            const id = /name="importacion" value="([^"]+)"/.exec(uploaded.payload)![1]!;
            await agent.get('/panel/clientes/importar');
            const confirmed = await agent.post('/panel/clientes/importar/confirmar', { importacion: id });
            expect(confirmed.status, confirmed.text.slice(0, 2000)).to.equal(503);
            expect(confirmed.text).to.contain(messages.clientWrite.keyIdentityUnavailable.slice(0, 40));
            expect(await listed()).to.deep.equal([stored]);
            const lookup = { publicId: id, accountId: owner.accountId, userId: owner.userId, now: second.clock.now().getTime() };
            const pending = await second.app.ports.clientImports.take(lookup);
            expect(pending).to.be.a('string');
        });

        it('refuses to start serve and the workers, saying which key to put back', async () => {

            const note = messages.clientWrite.keyIdentityUnreadable(keyIdOf(internals.oldKey));
            const config = loadConfig({ ...testEnv, ...writeServerEnv, DATABASE_URL: first.app.config.databaseUrl });
            const app = await composeApp(config);
            try {
                await checkAuthorityFor(app).then(() => expect.fail('the worker started'), (err: Error) => expect(err.message).to.equal(note));
            }
            finally {
                await app.close();
            }

            const served = await composeApp(config);
            const serving = startServing(served, { port: 0, host: '127.0.0.1', metrics: false });
            await serving.then(() => expect.fail('serve started'), (err: Error) => expect(err.message).to.equal(note));
        });
    });
}
