import type { Server } from '@hapi/hapi';
import { expect } from 'chai';
import type { Knex } from 'knex';
import pino from 'pino';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import { createHttpServer } from '../../../servers/http/server.js';
import { tableNames, testDatabases } from '../../support/databases.js';
import { movement, notification, invoice, sctData } from '../../support/data.js';
import { noRateLimits } from '../../support/endpoints.js';
import type { SeededUser } from '../../support/fixtures.js';
import { seedAccount, seedUser, tagClient } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, testClock } from '../../support/server.js';
import { operatorMessages } from '../../../app/messages.js';
import { databaseOf } from '../../support/app.js';

// What the write side keeps and removes: no plaintext key anywhere in the database, in any
// response or in any log line; a delete leaves no row of the client in any table.

const env = { ARCASYNC_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') };
const keys = ['Clave-Plana-Uno', 'Clave-Plana-Dos', 'Clave-Plana-Tres'];

const internals = {

    // Every table with a client_id column, and how many rows each holds for the client.
    async rowsOf(knex: Knex, clientId: number): Promise<Record<string, number>> {

        const counts: Record<string, number> = {};
        for (const table of await tableNames(knex)) {
            const columns = await knex(table).columnInfo();
            if ('client_id' in columns) {
                const row = await knex(table).where({ client_id: clientId }).count({ count: '*' }).first();
                counts[table] = Number(row?.count ?? 0);
            }
        }

        counts.clients = Number((await knex('clients').where({ id: clientId }).count({ count: '*' }).first())?.count ?? 0);
        counts.representing = Number((await knex('clients').where({ representative_id: clientId }).count({ count: '*' }).first())?.count ?? 0);
        return counts;
    }
};

for (const database of testDatabases()) {

    describe(`Write endpoints: stored data and secrets (${database.name})`, () => {

        let server: TestServer;
        let knex: Knex;
        let owner: SeededUser;

        before(async () => {

            server = await startTestServer(database, { rateLimits: noRateLimits, env });
            knex = databaseOf(server.app);
            owner = await seedAccount(server.app.ports, { writing: true });
        });

        after(async () => {

            await server.stop();
        });

        const post = (body: unknown) => server.request('/v1/cuits', { token: owner.token, method: 'POST', body: body as object });

        it('keeps no plaintext key in any table after creating and editing clients', async () => {

            expect((await post({ tipo: 'persona-fisica', cuit: '20111111112', nombre: 'Ana', apellido: 'Uno', clave_arca: keys[0] })).status).to.equal(201);
            expect((await post({
                tipo: 'persona-fisica',
                cuit: '20222222223',
                nombre: 'Beto',
                apellido: 'Dos',
                clave_arca: 'provisoria'
            })).status).to.equal(201);
            expect((await server.request('/v1/cuits/20222222223', {
                token: owner.token,
                method: 'PATCH',
                body: { clave_arca: keys[1] }
            })).status).to.equal(200);
            expect((await post({ tipo: 'persona-juridica', cuit: '30333333334', razon_social: 'Tres SA', representante: '20111111112' })).status).to.equal(201);

            let rows = 0;
            for (const table of await tableNames(knex)) {
                const dump = JSON.stringify(await knex(table).select('*'));
                rows += Number((await knex(table).count({ count: '*' }).first())?.count ?? 0);
                for (const key of [...keys.slice(0, 2), 'provisoria']) {
                    expect(dump, `${table} holds a plaintext key`).to.not.contain(key);
                    expect(dump, `${table} holds a key in base64`).to.not.contain(Buffer.from(key).toString('base64'));
                }
            }

            expect(Number(rows)).to.be.greaterThan(0);
            const stored = await knex('clients').whereIn('cuit', ['20111111112', '20222222223']).orderBy('cuit').pluck('clave_arca');
            expect(stored.map((sealed: string) => server.app.ports.secretBox.open(sealed))).to.deep.equal(keys.slice(0, 2));
        });

        it('deletes a client with data in every synchronized table in one go, leaving other clients untouched', async () => {

            const ports = server.app.ports;
            const member = await seedUser(ports, owner.accountId, 'member');
            // An active webhook endpoint: each write then also counts what it changed
            // (sync_changes), rows of the client until the sync's end turns them into its event.
            const endpointId = await ports.webhooks.createEndpoint({
                accountId: owner.accountId,
                url: 'https://hooks.example.com/arcasync',
                events: '*',
                sealedSecret: ports.secretBox.seal('secreto-de-prueba'),
                createdAt: Date.UTC(2026, 2, 14)
            });
            const seed = async (cuit: string) => {

                const res = await server.request('/v1/cuits', {
                    token: member.token,
                    method: 'POST',
                    body: { tipo: 'persona-fisica', cuit, nombre: 'Con', apellido: 'Datos', clave_arca: 'x-clave' }
                });
                expect(res.status, res.text).to.equal(201);
                const id = Number((await knex('clients').where({ cuit, account_id: owner.accountId }).first()).id);
                const at = Date.UTC(2026, 2, 14);
                await ports.invoices.save(id, 'issued', [invoice()], at);
                await ports.invoices.save(id, 'received', [invoice({
                    counterpart: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: 'Proveedor SRL' }
                })], at);
                await ports.sct.replace(id, sctData(), at);
                await ports.ccma.replace(
                    id,
                    { saldoDeudor: 10, saldoAcreedor: null },
                    [movement({ orden: 1, periodo: '01/2026' }), movement({ orden: 2, periodo: '02/2026' })],
                    at
                );
                await ports.notifications.save(id, [notification({ arcaId: `n-${cuit}`, fechaRecepcion: '2026-03-01T10:00:00.000Z' })], at);
                await ports.registry.save(id, { monotributista: true, autonomo: false, categoria: 'B' }, at);
                await tagClient(ports, owner.accountId, cuit, 'Con datos');
                // A running job besides the pending first one.
                await knex('sync_jobs').insert({
                    client_id: id,
                    reason: 'daily',
                    status: 'running',
                    run_after: at,
                    lease_owner: 'worker-1',
                    lease_expires_at: at + 60_000,
                    attempts: 1,
                    created_at: at
                });
                return id;
            };

            const doomed = await seed('20444444445');
            const kept = await seed('20555555556');
            const before = await internals.rowsOf(knex, doomed);
            const keptBefore = await internals.rowsOf(knex, kept);
            for (const table of [
                'invoices',
                'invoice_day_counts',
                'dfe_notifications',
                'sct_debts',
                'sct_due_dates',
                'sct_returns',
                'ccma_balances',
                'ccma_movements',
                'sync_states',
                'sync_changes',
                'sync_jobs',
                'client_tags',
                'user_clients',
                'clients'
            ]) {
                expect(before[table], `${table} seeded`).to.be.greaterThan(0);
            }

            const res = await server.request('/v1/cuits/20-44444444-5', { token: member.token, method: 'DELETE' });
            expect(res.status).to.equal(204);
            // The outbox keeps the events announced before the delete: they are still delivered.
            const { webhook_events: announced, ...after } = await internals.rowsOf(knex, doomed);
            expect(announced, 'events announced before the delete').to.be.greaterThan(0);
            for (const [table, count] of Object.entries(after)) {
                expect(count, `${table} still holds rows of the deleted client`).to.equal(0);
            }

            expect(await internals.rowsOf(knex, kept)).to.deep.equal(keptBefore);
            const list = await server.request('/v1/cuits?etiquetas=Con%20datos', { token: owner.token });
            expect(list.body.data.map((item: { cuit: string }) => item.cuit)).to.deep.equal(['20555555556']);
            const tags = await server.request('/v1/tags', { token: owner.token });
            expect(tags.body.data.map((tag: { nombre: string }) => tag.nombre)).to.include('Con datos');
            await ports.webhooks.disableEndpoint(endpointId, Date.UTC(2026, 2, 14));
        });

        it('deletes nothing at all when the client represents a legal entity', async () => {

            await post({ tipo: 'persona-fisica', cuit: '20666666667', nombre: 'Rep', apellido: 'Resentante', clave_arca: 'k' });
            await post({ tipo: 'persona-juridica', cuit: '30666666668', razon_social: 'Representada SA', representante: '20666666667' });
            const id = Number((await knex('clients').where({ cuit: '20666666667', account_id: owner.accountId }).first()).id);
            await server.app.ports.sct.replace(id, sctData(), Date.UTC(2026, 2, 14));
            const before = await internals.rowsOf(knex, id);
            const res = await server.request('/v1/cuits/20666666667', { token: owner.token, method: 'DELETE' });
            expect(res.status).to.equal(409);
            expect(await internals.rowsOf(knex, id)).to.deep.equal(before);
        });
    });

    describe(`Write endpoints: the key never leaves (${database.name})`, () => {

        it('is absent from every response and every log line, errors included', async () => {

            const db = await database.create();
            const lines: string[] = [];
            const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
            const apps = [];
            const servers: Server[] = [];
            try {
                const withKey = await composeApp({ ...loadConfig({ ...env, DATABASE_URL: db.url }), rateLimits: noRateLimits }, { clock: testClock() });
                // The same database without a key: sealing fails, as on a misconfigured server.
                const withoutKey = await composeApp({
                    ...loadConfig({ DATABASE_URL: db.url }),
                    rateLimits: noRateLimits
                }, { clock: testClock(), migrate: false });
                apps.push(withKey, withoutKey);
                servers.push(...await Promise.all(apps.map((app) => createHttpServer(app.ports, {
                    host: '127.0.0.1',
                    port: 0,
                    logger,
                    log: (event) => lines.push(JSON.stringify(event))
                }))));
                await Promise.all(servers.map((one) => one.start()));
                const user = await seedAccount(withKey.ports, { writing: true });
                const texts: string[] = [];
                const call = async (index: number, method: string, path: string, body?: string, type = 'application/json') => {

                    const res = await fetch(`${servers[index]!.info.uri}${path}`, { method, headers: { authorization: `Bearer ${user.token}`, 'content-type': type, 'x-clave': keys[2]! }, ...(body === undefined ? {} : { body }) });
                    const text = await res.text();
                    texts.push(`${res.status} ${JSON.stringify([...res.headers])} ${text}`);
                    return res.status;
                };

                const secret = keys[2]!;
                const body = (extra: Record<string, unknown> = {}) => JSON.stringify({
                    tipo: 'persona-fisica',
                    cuit: '20777777778',
                    nombre: 'Ana',
                    apellido: 'Siete',
                    clave_arca: secret,
                    ...extra
                });
                expect(await call(0, 'POST', '/v1/cuits', body())).to.equal(201);
                expect(await call(0, 'POST', '/v1/cuits', body())).to.equal(409);
                expect(await call(0, 'POST', '/v1/cuits', body({ monotributista: true, email: secret }))).to.equal(400);
                expect(await call(0, 'POST', '/v1/cuits', body({ clave_arca: `${secret}${'x'.repeat(300)}` }))).to.equal(400);
                expect(await call(0, 'POST', '/v1/cuits', `{"clave_arca": "${secret}", "cuit": `)).to.equal(400);
                expect(await call(0, 'POST', '/v1/cuits', body(), 'text/plain')).to.equal(415);
                expect(await call(0, 'POST', '/v1/cuits', body({ tipo: 'persona-juridica', representante: '20777777778' }))).to.equal(400);
                expect(await call(0, 'PATCH', '/v1/cuits/20777777778', JSON.stringify({ clave_arca: secret }))).to.equal(200);
                expect(await call(0, 'PATCH', '/v1/cuits/20777777778', JSON.stringify({ clave_arca: secret, cuit: secret }))).to.equal(400);
                expect(await call(0, 'PATCH', '/v1/cuits/20999999990', JSON.stringify({ clave_arca: secret }))).to.equal(404);
                expect(await call(0, 'GET', '/v1/cuits')).to.equal(200);
                expect(await call(1, 'POST', '/v1/cuits', body({ cuit: '20888888889' }))).to.equal(500);
                expect(await call(1, 'PATCH', '/v1/cuits/20777777778', JSON.stringify({ clave_arca: secret }))).to.equal(500);
                expect(await call(0, 'DELETE', '/v1/cuits/20777777778')).to.equal(204);

                expect(texts.join('\n')).to.not.contain(secret);
                expect(lines.length).to.be.greaterThan(10);
                expect(lines.join('\n')).to.contain(operatorMessages.secretKeyMissing.slice(0, 30));
                for (const line of lines) {
                    expect(line).to.not.contain(secret);
                }
            }
            finally {
                // Listening servers would keep the test run from ever exiting.
                for (const server of servers) {
                    await server.stop();
                }

                for (const app of apps) {
                    await app.close();
                }

                await db.release();
            }
        });
    });
}
