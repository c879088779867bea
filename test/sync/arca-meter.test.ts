import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createAuthorityClient } from '../../app/authority.js';
import { syncDeps } from '../../app/sync.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { arcaHosts } from '../../adapters/authority/hosts.js';
import { syncClient } from '../../core/use-cases/sync/sync-client.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';
import { databaseOf } from '../support/app.js';

// ARCA's own meter (issue 41, item 2; docs/answers.md): read by the daily sync with the registry,
// in the monotributo dashboard it already opens, stored per client and shown as `data.arca` of
// GET /v1/cuits/{cuit}/monotributo beside arcasync's figure. A meter that cannot be read fails
// nothing: the sync stores every system, keeps the last reading and says so.

const internals = {
    today: '2026-03-15',
    cuit: '20111111112',            // a monotributista with a category in the simulated data
    autonomo: '27234567891'      // an autónomo
};

for (const database of testDatabases()) {

    describe(`ARCA's meter through the sync (${database.name})`, function () {

        this.timeout(60_000);
        let authority: SimulatedAuthority;
        let server: TestServer;
        let user: SeededUser;

        const sync = async (cuit: string) => {

            const client = createAuthorityClient({ authority: 'simulated', authorityUrl: authority.url }, { timeoutMs: 2_000, retries: 0, backoffMs: 1, maxBackoffMs: 2, pacingMs: { default: 0, [arcaHosts.mcmp]: 0 } });
            const row = await databaseOf(server.app)('clients').where({ cuit }).first() as { id: number };
            return await syncClient(syncDeps(server.app, client), { clientId: row.id });
        };

        const control = async (cuit: string) => {

            const res = await server.request(`/v1/cuits/${cuit}/monotributo`, { token: user.token });
            expect(res.status, res.text).to.equal(200);
            return res.body.data;
        };

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0, today: internals.today, fesMinGapMs: 0 });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64') }, clock: testClock(`${internals.today}T09:00:00Z`) });
            user = await seedAccount(server.app.ports, { writing: true });
            for (const cuit of [internals.cuit, internals.autonomo]) {
                const res = await server.request('/v1/cuits', { token: user.token, method: 'POST', body: { tipo: 'persona-fisica', cuit, nombre: 'Ana', apellido: cuit, clave_arca: 'clave' } });
                expect(res.status, res.text).to.equal(201);
            }
        });

        after(async () => {

            await server.stop();
            await authority.stop();
        });

        it('stores the reading of the daily sync and shows it beside arcasync\'s figure', async () => {

            expect(authority.expected(internals.cuit).registry.categoria).to.match(/^[A-K]$/);
            expect((await control(internals.cuit)).arca).to.equal(undefined);      // registry not synced: does not apply yet

            const logins = authority.loginStarts().length;
            const result = await sync(internals.cuit);
            expect(result.systems.filter((system) => !system.ok || system.notice), JSON.stringify(result.systems)).to.deep.equal([]);
            expect(authority.reads().filter((read) => read.cuit === internals.cuit).map((read) => read.what)).to.include.members(['categoria', 'CalcularFacturacion', 'deberecategorizar']);
            expect(authority.loginStarts().length - logins, 'one login for the whole sync').to.equal(1);

            // ARCA counts its own 12 months; arcasync what it synchronized (a shorter backfill
            // here): the two figures stand side by side, each as its source gives it.
            const expected = authority.expected(internals.cuit).meter!;
            expect(expected.facturado).to.be.greaterThan(0);
            const data = await control(internals.cuit);
            expect(data.aplica).to.equal(true);
            expect(data.facturado).to.be.a('number');
            expect(data.arca).to.deep.equal({
                facturado: expected.facturado,
                tope: data.tope,
                periodo: '01/03/2025 al 28/02/2026',
                debeRecategorizar: false,
                recategorizacion: { desde: '2026-07-15', hasta: '2026-08-05' },
                leidoAt: '2026-03-15T09:00:00.000Z'
            });
        });

        it('a meter that cannot be read fails no system: the last reading stays, and the sync says so', async () => {

            server.clock.advance(86_400_000);
            authority.script({ host: arcaHosts.monotributo, path: /CalcularFacturacion/, answer: 'unknownPage' });
            const result = await sync(internals.cuit);
            expect(result.systems.filter((system) => !system.ok), JSON.stringify(result.systems)).to.deep.equal([]);
            expect(result.outcome).to.equal('synced');
            const registry = result.systems.find((system) => system.system === 'registry')!;
            expect(registry.notice).to.match(/^No se pudo leer el facturómetro de ARCA; se conserva la última lectura: /);

            const data = await control(internals.cuit);
            expect(data.arca.leidoAt).to.equal('2026-03-15T09:00:00.000Z');
        });

        it('reads no meter for a CUIT that is not a monotributista', async () => {

            const result = await sync(internals.autonomo);
            expect(result.systems.filter((system) => !system.ok)).to.deep.equal([]);
            expect(authority.reads().filter((read) => read.cuit === internals.autonomo).map((read) => read.what)).to.not.include('CalcularFacturacion');
            expect(await databaseOf(server.app)('arca_meters').count({ n: '*' }).first()).to.satisfy((row: { n: unknown }) => Number(row.n) === 1);
            expect((await control(internals.autonomo)).aplica).to.equal(false);
        });
    });
}
