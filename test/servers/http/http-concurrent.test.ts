import { expect } from 'chai';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import { revokeToken } from '../../../core/use-cases/staff/revoke-token.js';
import { sctData } from '../../support/data.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';
import { databaseOf } from '../../support/app.js';

// Requests that arrive together, from many users at once, each answered as if it came alone:
// on MySQL their token, rate-limit and CUIT lookups share statements (adapters/knex/fast/batching.ts).

for (const database of testDatabases()) {

    describe(`concurrent requests of many users (${database.name})`, () => {

        let server: TestServer;

        before(async () => {

            // The spec's limits: every request is written to its user's count on its own, so
            // the counts below are exact (rate-limit-leases.ts).
            server = await startTestServer(database);
        });

        after(async () => {

            await server.stop();
        });

        it('answers each request with its own user\'s data, visibility, token state and count', async () => {

            const ports = server.app.ports;
            const ownerA = await seedAccount(ports);
            const memberA = await seedUser(ports, ownerA.accountId, 'member');
            const ownerB = await seedAccount(ports);
            const revoked = await seedUser(ports, ownerB.accountId, 'owner');
            const a1 = await addClient(ports, ownerA.accountId, { cuit: '20123456786', nombre: 'Ana' });
            await addClient(ports, ownerA.accountId, { cuit: '27234567891', nombre: 'Beatriz' });
            const b1 = await addClient(ports, ownerB.accountId, { cuit: '30712345671', tipo: 'persona-juridica', razonSocial: 'Bravo SA' });
            await assignClientToUser(ports, { userId: memberA.userId, cuit: '27234567891' });
            await ports.sct.replace(a1.id, sctData(), Date.UTC(2026, 2, 15));
            await ports.sct.replace(b1.id, sctData(), Date.UTC(2026, 2, 16));
            const tokenId = Number((await databaseOf(server.app)('tokens').where({ user_id: revoked.userId }).first()).id);
            await revokeToken(ports, { id: tokenId });

            const cases = [
                {
                    token: ownerA.token,
                    path: '/v1/cuits',
                    expect: (res: { status: number; body: any }) => res.status === 200 && res.body.pagination.total === 2
                },
                {
                    token: memberA.token,
                    path: '/v1/cuits',
                    expect: (res: { status: number; body: any }) => res.status === 200 && res.body.data.length === 1 && res.body.data[0].cuit === '27234567891'
                },
                {
                    token: ownerB.token,
                    path: '/v1/cuits',
                    expect: (res: { status: number; body: any }) => res.status === 200 && res.body.data.length === 1 && res.body.data[0].cuit === '30712345671'
                },
                {
                    token: ownerA.token,
                    path: '/v1/cuits/20123456786/sct',
                    expect: (res: { status: number; body: any }) => res.status === 200 && res.body.syncedAt === '2026-03-15T00:00:00.000Z'
                },
                {
                    token: ownerB.token,
                    path: '/v1/cuits/30712345671/sct',
                    expect: (res: { status: number; body: any }) => res.status === 200 && res.body.syncedAt === '2026-03-16T00:00:00.000Z'
                },
                { token: ownerB.token, path: '/v1/cuits/20123456786/sct', expect: (res: { status: number }) => res.status === 404 },
                { token: memberA.token, path: '/v1/cuits/20123456786/sct', expect: (res: { status: number }) => res.status === 404 },
                { token: revoked.token, path: '/v1/cuits', expect: (res: { status: number }) => res.status === 401 },
                { token: 'desconocido', path: '/v1/cuits', expect: (res: { status: number }) => res.status === 401 }
            ];

            // Every case twice, all in flight together; the second burst goes over the
            // connections the first opened, so its requests reach the server together.
            const burst = [...cases, ...cases];
            for (let round = 0; round < 2; round++) {
                const responses = await Promise.all(burst.map((item) => server.request(item.path, { token: item.token })));
                responses.forEach((res, i) => expect(burst[i]!.expect(res), `${burst[i]!.path} as case ${i % cases.length}: ${res.status} ${res.text}`).to.equal(true));
            }

            const counted = async (userId: number) => Number((await databaseOf(server.app)('rate_limits').where({ user_id: userId }).first())?.minute_count ?? 0);
            expect(await counted(ownerA.userId)).to.equal(8);
            expect(await counted(memberA.userId)).to.equal(8);
            expect(await counted(ownerB.userId)).to.equal(12);
            expect(await counted(revoked.userId)).to.equal(0);
        });
    });
}
