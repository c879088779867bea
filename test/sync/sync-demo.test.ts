import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { startCliProcess } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { seedAccount } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import { databaseOf } from '../support/app.js';
import { pendingJobRow } from '../../adapters/knex/pending-job.js';

// `arcasync serve --worker` (the API and a sync worker in one process) and `arcasync demo`
// (what `npm start` runs): each in its own process, through their public surface.

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),

    env(extra: Record<string, string>): NodeJS.ProcessEnv {

        const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...extra };
        delete env.TEST_MYSQL_URL;
        delete env.DATABASE_URL;
        delete env.AUTHORITY;
        delete env.AUTHORITY_URL;
        Object.assign(env, extra);
        return env;
    }
};

for (const database of testDatabases()) {

    describe(`arcasync serve --worker (${database.name})`, function () {

        this.timeout(60_000);
        let server: TestServer;
        let authority: SimulatedAuthority;
        const secretKey = randomBytes(32).toString('base64');

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0 });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: secretKey } });
        });

        after(async () => {

            await server.stop();
            await authority.stop();
        });

        it('serves the API and synchronizes pending CUITs in the same process; SIGTERM stops both', async () => {

            const user = await seedAccount(server.app.ports);
            const names = { nombre: 'Ana', apellido: 'Serve', razonSocial: null };
            const name = displayName({ tipo: 'persona-fisica', ...names });
            const client = (await server.app.ports.clients.insert({
                publicId: randomUUID(), accountId: user.accountId, cuit: '20301239991' as Cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: server.app.ports.secretBox.seal(
                    'clave'
                ), keyDigest: await server.app.ports.keyIdentity.of('20301239991' as Cuit, 'clave'), createdAt: Date.now()
            }))!;
            const at = Date.now();
            await databaseOf(server.app)('sync_jobs').insert(pendingJobRow({ clientId: client.id, reason: 'first', runAfter: at, createdAt: at }));

            const serve = await startCliProcess(['serve', '--worker', '--host', '127.0.0.1', '--port', '0', '--json'], {
                cwd: internals.root,
                env: internals.env({
                    DATABASE_URL: server.app.config.databaseUrl,
                    ARCASYNC_SECRET_KEY: secretKey,
                    AUTHORITY: 'simulated',
                    AUTHORITY_URL: authority.url,
                    LOG_LEVEL: 'info'
                })
            });
            const logLines = () => serve.stderr().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);

            try {
                let item: any = null;
                for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
                    const res = await fetch(`${serve.first.url}/v1/cuits`, { headers: { authorization: `Bearer ${user.token}` } });
                    item = (await res.json() as { data: any[] }).data[0];
                    if (item.sistemaRegistralSyncedAt) {
                        break;
                    }
                }

                expect(item.sistemaRegistralSyncedAt).to.be.a('string');
                expect(item).to.include(authority.expected('20301239991').registry);

                // The operator's log: what started, on what, and each job's outcome.
                expect(logLines().find((line) => line.msg === 'arcasync en servicio')).to.deep.include({
                    database: database.name,
                    authority: 'simulated',
                    worker: { concurrency: 8 },
                    metricsPort: null
                });
                for (const deadline = Date.now() + 10_000; Date.now() < deadline && !logLines().some((line) => line.cuit === '20301239991'); await sleep(100)) {
                    // the job's line comes once its result is settled
                }

                expect(logLines().find((line) => line.cuit === '20301239991')).to.include({ clientId: client.id, outcome: 'synced', disposition: 'done' });
            }
            finally {
                serve.child.kill('SIGTERM');
                expect(await serve.exited).to.equal(0);
            }

            const running = await databaseOf(server.app)('sync_jobs').where({ status: 'running' });
            expect(running).to.deep.equal([]);
        });
    });
}

describe('arcasync demo (npm start)', function () {

    this.timeout(90_000);

    it('seeds the demo account on the embedded database, synchronizes it from the in-process simulated authority and serves it', async () => {

        const cwd = mkdtempSync(join(tmpdir(), 'arcasync-demo-'));
        try {
            const demo = await startCliProcess(['demo', '--host', '127.0.0.1', '--port', '0', '--json'], { cwd, env: internals.env({}) });
            try {
                const { url, token, sync } = demo.first;
                expect(token).to.match(/^\S+$/);
                // Two of the demo's keys are there to fail (the panel's red and amber lights).
                expect(sync).to.include({ synced: 6, failed: 2 });
                const res = await fetch(`${url}/v1/cuits`, { headers: { authorization: `Bearer ${token}` } });
                type Item = { cuit: string; tipo: string; sistemaRegistralSyncedAt: string | null; monotributista: boolean | null };
                const list = await res.json() as { data: Item[] };
                expect(list.data).to.have.length(8);
                const failing = ['20456789014', '27567890126'];
                for (const item of list.data) {
                    if (failing.includes(item.cuit)) {
                        expect(item.sistemaRegistralSyncedAt).to.equal(null);
                    }
                    else if (item.tipo === 'persona-fisica') {
                        expect(item.sistemaRegistralSyncedAt).to.be.a('string');
                        expect(item.monotributista).to.be.a('boolean');
                    }
                }

                const cuit = demo.first.cuits[0];
                const invoices = await fetch(`${url}/v1/cuits/${cuit}/mis-comprobantes/emitidos?from_date=2000-01-01&to_date=2100-12-31&limit=5`, { headers: { authorization: `Bearer ${token}` } });
                const body = await invoices.json() as { data: unknown[]; syncedAt: string | null; pagination: { total: number } };
                expect(body.syncedAt).to.be.a('string');
                expect(body.pagination.total).to.be.greaterThan(0);
            }
            finally {
                demo.child.kill('SIGTERM');
                expect(await demo.exited).to.equal(0);
            }
        }
        finally {
            rmSync(cwd, { recursive: true, force: true });
        }
    });
});
