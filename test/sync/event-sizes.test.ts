import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createAuthorityClient } from '../../app/authority.js';
import { syncDeps } from '../../app/sync.js';
import { startWebhookWorker } from '../../app/webhooks.js';
import type { SimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../../adapters/authority/simulated/index.js';
import { eventListMax } from '../../core/domain/events.js';
import type { Notification } from '../../core/domain/notification.js';
import type { AuthorityNotification } from '../../core/ports/authority-client.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { databaseOf } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { sctData } from '../support/data.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import type { Receiver } from '../support/receiver.js';
import { startReceiver, waitUntil } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';
import { startTestServer, testClock } from '../support/server.js';

// An event never blocks its data (issue 37, item 3): with a webhook endpoint in the account, a
// CUIT with about 330 new DFE notifications or more never stored them on MySQL/MariaDB
// (`dfe.nuevas` listed every one, its TEXT column overflowed, the DFE write rolled back on every
// sync). Events now carry at most eventListMax items of a list, with the total and the API path
// of the rest, and the outbox column holds the largest event the code can write.

const internals = {
    today: '2026-03-15',
    secretKey: randomBytes(32).toString('base64'),
    env: { WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', WEBHOOK_BACKOFF_BASE_MS: '40', WEBHOOK_POLL_MS: '20', WEBHOOK_TIMEOUT_SECONDS: '5' } as Record<string, string>,

    // `count` notifications the simulated authority lists for the CUIT, one a few hours apart
    // inside the first sync's twelve months, the newest first (as it lists them).
    notifications(count: number): AuthorityNotification[] {

        const end = Date.parse(`${internals.today}T10:00:00Z`);
        return Array.from({ length: count }, (_, index) => ({
            arcaId: String(500_000 + count - index),
            tipo: 'Comunicación',
            asunto: `Aviso ${count - index}`,
            organismo: 'ARCA',
            fechaRecepcion: new Date(end - index * 7 * 3_600_000).toISOString(),
            fechaNotificacion: null,
            readAtAuthority: false
        }));
    },

    // The worst a text can be in JSON: every character escaped as \u00XX (six bytes).
    worst: (length: number): string => '\u0001'.repeat(length)
};

for (const database of testDatabases()) {

    describe(`events bounded in size: an event never blocks its data (${database.name})`, function () {

        this.timeout(120_000);
        let authority: SimulatedAuthority;
        let server: TestServer;
        let user: SeededUser;
        let receiver: Receiver;

        const cli = (...args: string[]) => runCli(server.app.config.databaseUrl, args, { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env });

        before(async () => {

            authority = await startSimulatedAuthority({ port: 0, today: internals.today });
            server = await startTestServer(database, { env: { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env }, clock: testClock(`${internals.today}T12:00:00Z`) });
            user = await seedAccount(server.app.ports, { writing: true });
            receiver = await startReceiver();
            const created = await cli('webhook', 'create', '--account', String(user.accountId), '--url', `${receiver.url}/hooks`, '--events', 'dfe.nuevas,sct.deuda_cambio');
            expect(created.code, created.stderr).to.equal(0);
        });

        after(async () => {

            await server?.stop();
            await authority?.stop();
            await receiver?.close();
        });

        it('stores 1,000 new DFE notifications of a CUIT whose account listens, and announces them in one bounded event', async () => {

            const cuit = '20273456782';
            const res = await server.request('/v1/cuits', {
                token: user.token,
                method: 'POST',
                body: { tipo: 'persona-fisica', cuit, nombre: 'María', apellido: 'González', clave_arca: 'clave-de-maria' }
            });
            expect(res.status, res.text).to.equal(201);
            // The simulated authority's data for the CUIT, as its oracle hands it out: the
            // notifications it serves replaced by 1,000 new ones.
            const served = authority.expected(cuit).notifications;
            served.splice(0, served.length, ...internals.notifications(1000));

            const deps = syncDeps(server.app, createAuthorityClient({ authority: 'simulated', authorityUrl: authority.url }));
            const summary = await startWorker(deps, { owner: `test-${randomBytes(4).toString('hex')}`, concurrency: 1, leaseMs: 60_000, drain: true, pollMs: 20 }).done;
            expect(summary).to.include({ jobs: 1, synced: 1, failed: 0 });

            // All 1,000 stored, read through the API, the newest first.
            const stored: string[] = [];
            for (let offset = 0; offset < 1000; offset += 100) {
                const page = await server.ok(`/v1/cuits/${cuit}/dfe?limit=100&offset=${offset}`, user.token);
                expect(page.pagination.total).to.equal(1000);
                stored.push(...page.data.map((item: { arcaId: string }) => item.arcaId));
            }

            expect(stored).to.deep.equal(internals.notifications(1000).map((item) => item.arcaId));

            // Announced once: the total, the newest eventListMax, and where to read the rest.
            const worker = startWebhookWorker(server.app);
            try {
                await waitUntil(() => receiver.calls.some((call) => JSON.parse(call.body).tipo === 'dfe.nuevas'), 'the dfe.nuevas event');
            }
            finally {
                await worker.stop();
            }

            const calls = receiver.calls.filter((call) => JSON.parse(call.body).tipo === 'dfe.nuevas');
            expect(calls).to.have.length(1);
            const body = JSON.parse(calls[0]!.body);
            expect(body.cuit).to.equal(cuit);
            expect(body.datos.cantidad).to.equal(1000);
            expect(body.datos.notificaciones).to.have.length(eventListMax);
            expect(body.datos.notificaciones.map((item: { arcaId: string }) => item.arcaId)).to.deep.equal(stored.slice(0, eventListMax));
            expect(body.datos.listado).to.equal(`/v1/cuits/${cuit}/dfe`);
            expect(Buffer.byteLength(calls[0]!.body)).to.be.below(32 * 1024);
        });

        it('writes the largest DFE and SCT events the code can write: the outbox column holds them', async () => {

            const client = await addClient(server.app.ports, user.accountId, { cuit: '27-23456789-1' });
            // Every text at its column's size, each character the longest it can be in JSON.
            const notifications = Array.from({ length: 1000 }, (_, index): Notification => ({
                arcaId: String(index).padStart(40, '0'),
                tipo: internals.worst(1000),
                asunto: internals.worst(5000),
                organismo: internals.worst(1000),
                fechaRecepcion: new Date(Date.parse('2026-03-01T00:00:00Z') - index * 60_000).toISOString(),
                fechaNotificacion: '2026-03-02T00:00:00.000Z',
                leidaAt: null
            }));
            await server.app.ports.notifications.save(client.id, notifications, Date.now());

            const data = sctData();
            const template = data.deuda[0]!;
            data.deuda = Array.from({ length: 1000 }, (_, index) => ({
                ...template,
                impuesto: internals.worst(1000),
                concepto: `${index} ${internals.worst(1000)}`,
                periodo: String(200001 + index)
            }));
            await server.app.ports.sct.replace(client.id, data, Date.now());

            const events = await databaseOf(server.app)('webhook_events').select('type', 'data').where({ client_id: client.id }).orderBy('id');
            expect(events.map((event: { type: string }) => event.type)).to.deep.equal(['dfe.nuevas', 'sct.deuda_cambio']);
            const dfe = JSON.parse(events[0].data);
            expect(dfe.cantidad).to.equal(1000);
            expect(dfe.notificaciones).to.have.length(eventListMax);
            // What is announced is what was stored: each text cut at its column.
            expect(Array.from(dfe.notificaciones[0].asunto as string)).to.have.length(500);
            expect(Array.from(dfe.notificaciones[0].tipo as string)).to.have.length(100);
            const sct = JSON.parse(events[1].data);
            expect(sct).to.deep.include({ cantidadAparecidas: 1000, cantidadCanceladas: 0, listado: '/v1/cuits/27234567891/sct' });
            expect(sct.aparecidas).to.have.length(eventListMax);
            expect(Array.from(sct.aparecidas[0].concepto as string)).to.have.length(200);
            expect(await databaseOf(server.app)('dfe_notifications').where({ client_id: client.id }).count({ n: '*' }).first()).to.deep.include({ n: 1000 });
        });
    });
}
