import { expect } from 'chai';
import { testDatabases } from '../../support/databases.js';
import { seedAccount, addClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';

for (const database of testDatabases()) {

    describe(`GET /healthcheck and /v1/cuits (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            server = await startTestServer(database);
        });

        after(async () => {

            await server.stop();
        });

        it('answers OK in plain text without a token', async () => {

            const res = await server.request('/healthcheck');
            expect(res.status).to.equal(200);
            expect(res.headers.get('content-type')).to.match(/^text\/plain/);
            expect(res.text).to.equal('OK');
        });

        it('lists the CUITs of the token user', async () => {

            const user = await seedAccount(server.app.ports);
            await addClient(server.app.ports, user.accountId, { cuit: '20-12345678-6', nombre: 'María', apellido: 'González' });
            const res = await server.request('/v1/cuits', { token: user.token });
            expect(res.status).to.equal(200);
            expect(res.body.data).to.have.length(1);
            expect(res.body.data[0]).to.include({ cuit: '20123456786', displayCuit: '20-12345678-6', nombre: 'González, María' });
        });
    });
}
