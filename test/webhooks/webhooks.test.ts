import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { webhookDeps, deliveryOptionsOf, startWebhookWorker } from '../../app/webhooks.js';
import type { Lookup } from '../../adapters/webhooks/http-sender.js';
import { messages } from '../../core/domain/messages.js';
import type { TargetPolicy } from '../../core/domain/webhook.js';
import { startWebhookDelivery } from '../../core/use-cases/webhooks/deliver.js';
import { createWebhook } from '../../core/use-cases/webhooks/manage.js';
import { invoice, notification, sctData } from '../support/data.js';
import { syncDeps } from '../../app/sync.js';
import { createKeySessions } from '../../core/use-cases/sync/key-sessions.js';
import { syncClient } from '../../core/use-cases/sync/sync-client.js';
import { fakeAuthority, fakeTaxpayer } from '../support/fake-authority.js';
import { builtCli } from '../support/build.js';
import { runCli } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import type { SeededUser } from '../support/fixtures.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import type { TestClock, TestServer } from '../support/server.js';
import { startTestServer } from '../support/server.js';
import type { Received } from '../support/receiver.js';
import { readmeRecipe, startReceiver, waitUntil } from '../support/receiver.js';
import { databaseOf } from '../support/app.js';

// Signed webhooks against a real HTTP receiver: the README's verification recipe accepts every
// call and refuses an altered body or timestamp; a receiver answering 500 gets the event again;
// a worker killed (SIGKILL) in the middle of its deliveries and started again loses nothing;
// a private or loopback target is refused when created and when delivered to.

const internals = {
    // A production deployment's policy: no loopback over http, no private networks.
    strictTargets: { allowHttpLoopback: false, allowPrivateNetworks: false } as TargetPolicy,

    root: fileURLToPath(new URL('../..', import.meta.url)),
    secretKey: randomBytes(32).toString('base64'),

    ids: (calls: readonly Received[]): string[] => calls.map((call) => JSON.parse(call.body).id as string),

    // The clock the deliveries run on: real time (back-off is measured in it).
    realClock: (): TestClock => ({ now: () => new Date(), set() {}, advance() {} }),

    env: {
        WEBHOOK_ALLOW_HTTP_LOOPBACK: '1',
        WEBHOOK_BACKOFF_BASE_MS: '40',
        WEBHOOK_POLL_MS: '20',
        WEBHOOK_TIMEOUT_SECONDS: '1'
    } as Record<string, string>
};

for (const database of testDatabases()) {

    describe(`signed webhooks delivered at least once (${database.name})`, function () {

        this.timeout(120_000);
        let server: TestServer;
        let user: SeededUser;

        const cli = (...args: string[]) => runCli(server.app.config.databaseUrl, args, { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env });
        const create = async (url: string, extra: string[] = []): Promise<{ id: number; secret: string }> => {

            const result = await cli('webhook', 'create', '--account', String(user.accountId), '--url', url, '--json', ...extra);
            expect(result.code, result.stderr).to.equal(0);
            return JSON.parse(result.stdout);
        };

        // What a sync writes for a client: a system's data, then its end (the completed sync).
        const synced = async (clientId: number, write: Promise<void>) => {

            await write;
            await server.app.ports.syncStates.announceSyncCompleted(clientId, Date.now());
        };

        // A sync of the client's SCT: a debt change and the completed sync.
        const syncSct = async (clientId: number, saldo: number) => {

            const data = sctData();
            data.deuda[0]!.saldo = saldo;
            await synced(clientId, server.app.ports.sct.replace(clientId, data, Date.now()));
        };

        before(async () => {

            server = await startTestServer(database, { clock: internals.realClock(), env: { ARCASYNC_SECRET_KEY: internals.secretKey, ...internals.env } });
            user = await seedAccount(server.app.ports);
        });

        after(async () => {

            await server?.stop();
        });

        it('signs every event; the README recipe verifies it and refuses an altered body or timestamp', async () => {

            const receiver = await startReceiver();
            const worker = startWebhookWorker(server.app);
            try {
                const endpoint = await create(`${receiver.url}/hooks`);
                expect(endpoint.secret).to.match(/^whsec_/);
                const client = await addClient(server.app.ports, user.accountId, { cuit: '20-12345678-6' });
                await syncSct(client.id, 1000);
                for (let round = 0; round < 2; round++) {
                    await synced(client.id, server.app.ports.notifications.save(client.id, [notification({
                        arcaId: '77',
                        asunto: 'Intimación de pago',
                        fechaRecepcion: '2026-03-01T10:00:00.000Z'
                    })], Date.now()));
                }

                const expired = `${messages.authority.expired_key} ${messages.sync.keyNotRetried}`;
                await server.app.ports.syncStates.recordFailure(client.id, 'sct', expired, Date.now(), 'clave_vencida');
                await server.app.ports.syncStates.recordFailure(client.id, 'sct', expired, Date.now(), 'clave_vencida');
                await syncSct(client.id, 1000);
                await waitUntil(() => receiver.calls.length >= 8, 'eight events');

                const verify = await readmeRecipe();
                const bodies = receiver.calls.map((call) => JSON.parse(call.body));
                // The first sync (its debt appeared), a new DFE notification (announced once: the
                // second sync already had it), the key's failure (once: the second attempt changed
                // nothing), the recovery and the second sync (the debt unchanged).
                expect(bodies.map((body) => body.tipo)).to.deep.equal(
                    [
                        'sct.deuda_cambio',
                        'sincronizacion.completada',
                        'dfe.nuevas',
                        'sincronizacion.completada',
                        'sincronizacion.completada',
                        'salud.cambio',
                        'salud.cambio',
                        'sincronizacion.completada'
                    ]
                );
                expect(bodies[2].datos).to.deep.equal({
                    cantidad: 1,
                    notificaciones: [{
                        arcaId: '77',
                        tipo: notification({ fechaRecepcion: '2026-03-01T10:00:00.000Z' }).tipo,
                        asunto: 'Intimación de pago',
                        organismo: notification({ fechaRecepcion: '2026-03-01T10:00:00.000Z' }).organismo,
                        fechaRecepcion: '2026-03-01T10:00:00.000Z',
                        fechaNotificacion: notification({ fechaRecepcion: '2026-03-01T10:00:00.000Z' }).fechaNotificacion
                    }],
                    listado: '/v1/cuits/20123456786/dfe'
                });
                expect(bodies[0]).to.deep.include({ cuenta: user.accountId, cuit: '20123456786' });
                expect(bodies[0].datos).to.deep.include({ totalAnterior: 0, canceladas: [] });
                const stored = sctData();
                expect(bodies[1].datos).to.deep.equal({
                    sistemas: [{ sistema: 'sct', nuevos: stored.deuda.length + stored.vencimientos.length + stored.ddjj.length, cambiados: 0, eliminados: 0 }]
                });
                expect(bodies[3].datos).to.deep.equal({ sistemas: [{ sistema: 'dfe', nuevos: 1, cambiados: 0, eliminados: 0 }] });
                expect(bodies[4].datos).to.deep.equal({ sistemas: [{ sistema: 'dfe', nuevos: 0, cambiados: 0, eliminados: 0 }] });
                expect(new Set(bodies.map((body) => body.id)).size).to.equal(bodies.length);
                const health = bodies.filter((body) => body.tipo === 'salud.cambio').map((body) => body.datos);
                expect(health[0]).to.deep.equal({
                    sistema: 'sct',
                    estado: 'clave_vencida',
                    estadoAnterior: 'ok',
                    desde: health[0].desde,
                    mensaje: 'ARCA exige cambiar la clave fiscal.',
                    accion: 'Pedile al cliente que cambie su clave fiscal en ARCA y cargala de nuevo.'
                });
                expect(health.map((entry) => `${entry.estadoAnterior}>${entry.estado}`)).to.deep.equal(['ok>clave_vencida', 'clave_vencida>ok']);
                for (const call of receiver.calls) {
                    const header = String(call.headers['arcasync-signature']);
                    expect(call.headers['content-type']).to.equal('application/json');
                    expect(call.headers['arcasync-event-id']).to.equal(JSON.parse(call.body).id);
                    expect(verify(endpoint.secret, header, call.body), header).to.equal(true);
                    expect(verify(endpoint.secret, header, call.body.replace('"cuenta":', '"cuenta": '))).to.equal(false);
                    const t = Number(/t=(\d+)/.exec(header)![1]);
                    expect(verify(endpoint.secret, header.replace(`t=${t}`, `t=${t + 1}`), call.body)).to.equal(false);
                    expect(verify(`${endpoint.secret}x`, header, call.body)).to.equal(false);
                    // A call replayed later than the tolerance is refused even with its signature.
                    expect(verify(endpoint.secret, header, call.body, -1)).to.equal(false);
                }

                // The secret is shown once and never listed.
                const list = await cli('webhook', 'list', '--account', String(user.accountId), '--json');
                expect(list.stdout).to.not.contain(endpoint.secret).and.to.not.contain('whsec_');
                await cli('webhook', 'disable', String(endpoint.id));
            }
            finally {
                await worker.stop();
                await receiver.close();
            }
        });

        it('announces one sincronizacion.completada per CUIT sync, with each system\'s new, changed and removed records', async () => {

            const receiver = await startReceiver();
            const worker = startWebhookWorker(server.app);
            const authority = fakeAuthority();
            const deps = syncDeps(server.app, authority);
            // One login for the three syncs (a key's logins of the day are counted).
            const sessions = createKeySessions(authority, server.app.ports.clock);
            try {
                const endpoint = await create(`${receiver.url}/syncs`, ['--events', 'sincronizacion.completada']);
                const client = await addClient(server.app.ports, user.accountId, { cuit: '20-34567890-4', claveArca: 'clave-correcta' });
                const taxpayer = fakeTaxpayer();
                const today = invoice({ fecha: new Date().toISOString().slice(0, 10), numeroDesde: '00000077', numeroHasta: '00000077', importeOriginal: 5000 });
                taxpayer.invoices.issued.push(today);
                authority.taxpayers.set(client.cuit, taxpayer);

                const sync = async (calls: number) => {

                    expect((await syncClient(deps, { clientId: client.id, sessions })).outcome).to.equal('synced');
                    await waitUntil(() => receiver.calls.length >= calls, `${calls} events`);
                    const body = JSON.parse(receiver.calls.at(-1)!.body);
                    expect(body).to.include({ tipo: 'sincronizacion.completada', cuit: client.cuit });
                    return Object.fromEntries((body.datos.sistemas as { sistema: string; nuevos: number; cambiados: number; eliminados: number }[]).map(
                        (entry) => [entry.sistema, `${entry.nuevos}/${entry.cambiados}/${entry.eliminados}`]
                    ));
                };

                // The first sync: every record is new (the balances of CCMA are one more record).
                const sct = taxpayer.sct.deuda.length + taxpayer.sct.vencimientos.length + taxpayer.sct.ddjj.length;
                expect(await sync(1)).to.deep.equal({
                    registro: '1/0/0',
                    comprobantes_emitidos: '3/0/0',
                    comprobantes_recibidos: '1/0/0',
                    sct: `${sct}/0/0`,
                    ccma: '3/0/0',
                    dfe: '2/0/0'
                });

                // Nothing changed at the authority: the event still comes, every count 0.
                expect(await sync(2)).to.deep.equal({
                    registro: '0/0/0',
                    comprobantes_emitidos: '0/0/0',
                    comprobantes_recibidos: '0/0/0',
                    sct: '0/0/0',
                    ccma: '0/0/0',
                    dfe: '0/0/0'
                });

                // An invoice and a debt changed, a movement settled, a notification arrived.
                today.importeOriginal = 5100;
                taxpayer.sct.deuda[0]!.saldo += 100;
                taxpayer.ccma.movements.pop();
                taxpayer.notifications.push({ ...taxpayer.notifications[1]!, arcaId: '103', asunto: 'Nueva' });
                expect(await sync(3)).to.deep.equal({
                    registro: '0/0/0',
                    comprobantes_emitidos: '0/1/0',
                    comprobantes_recibidos: '0/0/0',
                    sct: '0/1/0',
                    ccma: '0/0/1',
                    dfe: '1/0/0'
                });

                // One event per sync, none per stored write (the outbox in id order: the last one
                // delivered, every earlier one was).
                expect(receiver.calls).to.have.length(3);
                expect(await databaseOf(server.app)('webhook_events').where({ client_id: client.id, type: 'sincronizacion.completada' })).to.have.length(3);
                expect(await databaseOf(server.app)('sync_changes').where({ client_id: client.id })).to.deep.equal([]);
                await cli('webhook', 'disable', String(endpoint.id));
            }
            finally {
                await sessions.close();
                await worker.stop();
                await receiver.close();
            }
        });

        it('announces what a sync that died before its end wrote with the next sync\'s event, once', async () => {

            const receiver = await startReceiver();
            const worker = startWebhookWorker(server.app);
            try {
                const endpoint = await create(`${receiver.url}/died`, ['--events', 'sincronizacion.completada']);
                const client = await addClient(server.app.ports, user.accountId, { cuit: '27-45678901-2' });
                // The first sync wrote its SCT and died before its end: no event yet.
                const data = sctData();
                await server.app.ports.sct.replace(client.id, data, Date.now());
                expect(await databaseOf(server.app)('webhook_events').where({ client_id: client.id, type: 'sincronizacion.completada' })).to.have.length(0);

                // The next one changes a debt and ends: one event with both writes' counts.
                await syncSct(client.id, data.deuda[0]!.saldo + 1);
                await waitUntil(() => receiver.calls.length >= 1, 'the event');
                const records = data.deuda.length + data.vencimientos.length + data.ddjj.length;
                expect(JSON.parse(receiver.calls[0]!.body).datos).to.deep.equal({ sistemas: [{ sistema: 'sct', nuevos: records, cambiados: 1, eliminados: 0 }] });
                expect(await databaseOf(server.app)('webhook_events').where({ client_id: client.id, type: 'sincronizacion.completada' })).to.have.length(1);
                await cli('webhook', 'disable', String(endpoint.id));
            }
            finally {
                await worker.stop();
                await receiver.close();
            }
        });

        it('calls a receiver that answered 500 again later, with the same event id, until it answers 2xx', async () => {

            const receiver = await startReceiver((_call, index) => ({ status: index < 2 ? 500 : 204 }));
            const worker = startWebhookWorker(server.app);
            try {
                const endpoint = await create(`${receiver.url}/flaky`, ['--events', 'prueba']);
                const test = await cli('webhook', 'test', String(endpoint.id), '--json');
                // Not answered 2xx: the command fails, the delivery's state still on stdout.
                expect(test.code, test.stderr).to.equal(1);
                const { eventId, status } = JSON.parse(test.stdout);
                expect(status).to.equal('pending');
                await waitUntil(() => receiver.calls.length >= 3, 'the third call');
                expect(internals.ids(receiver.calls)).to.deep.equal([eventId, eventId, eventId]);
                await waitUntil(
                    async () => JSON.parse(
                        (await cli('webhook', 'deliveries', '--endpoint', String(endpoint.id), '--json')).stdout
                    ).deliveries[0].status === 'delivered',
                    'delivered'
                );
                const deliveries = await cli('webhook', 'deliveries', '--endpoint', String(endpoint.id));
                expect(deliveries.stdout).to.contain(eventId).and.to.contain('  entregado  ').and.to.contain('intentos 3').and.to.contain('respuesta 204');
                await cli('webhook', 'disable', String(endpoint.id));
            }
            finally {
                await worker.stop();
                await receiver.close();
            }
        });

        it('loses no event when the worker is killed (SIGKILL) in the middle of its deliveries and started again', async () => {

            const receiver = await startReceiver(() => ({ status: 200, delayMs: 60 }));
            const endpoints = [await create(`${receiver.url}/a`), await create(`${receiver.url}/b`)];
            const client = await addClient(server.app.ports, user.accountId, { cuit: '20-23456789-1' });
            for (let round = 0; round < 12; round++) {
                await syncSct(client.id, 1000 + round);
            }

            const events = (await databaseOf(server.app)('webhook_events').select('public_id').where({ client_id: client.id })).map(
                (row: { public_id: string }) => row.public_id
            );
            expect(events).to.have.length(24);

            const env: NodeJS.ProcessEnv = {
                ...process.env,
                DATABASE_URL: server.app.config.databaseUrl,
                ARCASYNC_SECRET_KEY: internals.secretKey,
                LOG_LEVEL: 'silent',
                ...internals.env
            };
            delete env.TEST_MYSQL_URL;
            const start = (): ChildProcess => spawn(
                process.execPath,
                [builtCli(), 'sync', 'worker', '--poll-seconds', '0.2'],
                { cwd: internals.root, env, stdio: 'ignore' }
            );

            const first = start();
            const exited = new Promise((resolve) => first.on('exit', resolve));
            await waitUntil(() => receiver.calls.length >= 8, 'the first deliveries', 60_000);
            first.kill('SIGKILL');
            await exited;
            const beforeRestart = receiver.calls.length;
            expect(beforeRestart).to.be.below(48);

            const second = start();
            try {
                // Every event reaches both endpoints at least once; the ids let a receiver drop repeats.
                await waitUntil(() => {

                    const seen = new Set(receiver.calls.map((call) => `${call.path} ${JSON.parse(call.body).id}`));
                    return events.every((id) => seen.has(`/a ${id}`) && seen.has(`/b ${id}`));
                }, 'every event at both endpoints', 60_000);
            }
            finally {
                second.kill('SIGTERM');
                await new Promise((resolve) => second.on('exit', resolve));
            }

            // (The worker also synchronized the keyless CUITs meanwhile: their health changes came too.)
            const ours = receiver.calls.filter((call) => events.includes(JSON.parse(call.body).id));
            expect(new Set(ours.map((call) => `${call.path} ${JSON.parse(call.body).id}`)).size).to.equal(48);
            for (const endpoint of endpoints) {
                await cli('webhook', 'disable', String(endpoint.id));
            }

            await receiver.close();
        });

        it('refuses a private, loopback or metadata target when the endpoint is created and when it is delivered to', async () => {

            const strictEnv = { ARCASYNC_SECRET_KEY: internals.secretKey };
            for (const [url, reason] of [
                ['https://10.1.2.3/hook', /privada/],
                ['https://169.254.169.254/latest', /metadatos/],
                ['https://[::ffff:192.168.0.10]/hook', /privada/],
                ['https://localhost/hook', /máquina local/],
                ['http://127.0.0.1:9/hook', /https/],
                ['http://receptor.example.com/hook', /https/]
            ] as const) {
                const refused = await runCli(
                    server.app.config.databaseUrl,
                    ['webhook', 'create', '--account', String(user.accountId), '--url', url],
                    strictEnv
                );
                expect(refused.code, url).to.equal(1);
                expect(refused.stderr, url).to.match(reason);
            }

            // At delivery: an endpoint created while the loopback was allowed, delivered by a
            // worker that does not allow it; and a name that resolved to a public address when it
            // was created and to a private one when called (DNS rebinding).
            const receiver = await startReceiver();
            const loopback = await create(`${receiver.url}/loopback`);
            const publicThenPrivate: Lookup = (_host, _options, callback) => callback(null, [{ address: resolving, family: 4 }]);
            let resolving = '93.184.216.34';
            const deps = webhookDeps(server.app, { lookup: publicThenPrivate });
            const rebinding = await createWebhook(deps, { accountId: user.accountId, url: 'https://receptor.example.test/hook' }, internals.strictTargets);
            resolving = '10.0.0.7';
            await server.app.ports.webhooks.enqueueTest(loopback.id, Date.now());
            await server.app.ports.webhooks.enqueueTest(rebinding.id, Date.now());
            const worker = startWebhookDelivery(deps, { ...deliveryOptionsOf(server.app), policy: internals.strictTargets });
            try {
                const attempted = async (id: number) => JSON.parse(
                    (await cli('webhook', 'deliveries', '--endpoint', String(id), '--json')).stdout
                ).deliveries[0];
                await waitUntil(async () => (await attempted(loopback.id)).attempts > 0 && (await attempted(rebinding.id)).attempts > 0, 'both attempts');
                expect((await attempted(loopback.id)).lastError).to.match(/loopback/);
                expect((await attempted(rebinding.id)).lastError).to.match(/10\.0\.0\.7 es privada/);
                expect(receiver.calls).to.have.length(0);
            }
            finally {
                await worker.stop();
                await receiver.close();
            }
        });
    });
}
