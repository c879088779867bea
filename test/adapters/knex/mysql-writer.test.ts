import { tracingChannel } from 'node:diagnostics_channel';
import { expect } from 'chai';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import type { App } from '../../../app/compose.js';
import { invoice } from '../../support/data.js';
import { databaseOf, openApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccountWithClient } from '../../support/fixtures.js';

// On MySQL a sync's save runs on the writer's connections (adapters/knex/fast/mysql-writer.ts),
// which take several statements per query: BEGIN with the first rows, the last writes with
// COMMIT. What that must never change: a failed save leaves nothing written and no
// transaction open, and knex's pool, which serves the API, still takes one statement a query.

const internals = {
    // What a sync knows of a client at its start, as its saves are handed it: here a
    // non-monotributista whose systems never ran (core/use-cases/sync/sync-client.ts).
    firstSync: { states: [], monotributista: false },

    invoices: (count: number) => Array.from({ length: count }, (_, i) => invoice({ fecha: `2026-03-${String(1 + (i % 28)).padStart(2, '0')}`, numeroDesde: String(i + 1), numeroHasta: String(i + 1) })),

    // The queries mysql2 sends while `work` runs.
    async queriesDuring(work: () => Promise<void>): Promise<string[]> {

        const channel = tracingChannel<unknown, { query: string }>('mysql2:query');
        const sent: string[] = [];
        const handlers = {
            start: (message: { query: string }) => void sent.push(message.query),
            end: () => undefined,
            asyncStart: () => undefined,
            asyncEnd: () => undefined,
            error: () => undefined
        };
        channel.subscribe(handlers);
        try {
            await work();
        }
        finally {
            channel.unsubscribe(handlers);
        }

        return sent;
    }
};

describe('sync saves on MariaDB: several statements per query, on connections of their own', function () {

    const mysql = testDatabases().find((database) => database.name === 'mysql');
    let app: App;
    let close: () => Promise<void>;

    before(async function () {

        if (!mysql) {
            process.stdout.write(
                '    MariaDB omitido: TEST_MYSQL_URL no está definida; las escrituras en varias sentencias por consulta son de MySQL/MariaDB.\n'
            );
            this.skip();
        }

        ({ app, close } = await openApp(mysql!));
    });

    after(async () => {

        await close?.();
    });

    it('sends a save of a sync in one query, from BEGIN to COMMIT, with its rows in one INSERT', async () => {

        // As a sync saves: with what it read of the client at its start, so that deciding the
        // save's events reads nothing more.
        const { clientId } = await seedAccountWithClient(app.ports);
        const sent = await internals.queriesDuring(
            () => app.ports.invoices.saveKinds(
                clientId,
                [{ kind: 'issued', invoices: internals.invoices(40) }, { kind: 'received', invoices: internals.invoices(30) }],
                Date.UTC(2026, 3, 1),
                internals.firstSync
            )
        );
        expect(sent).to.have.length(1);
        expect(sent[0]).to.match(
            /^SET TRANSACTION ISOLATION LEVEL READ COMMITTED; BEGIN; update clients set data_version = data_version \+ 1 where id = \d+; set @arcasync_met = 0[^;]*; insert into `invoices` \([^)]*\) values \(\d+, 'E', .*\) on duplicate key update [^;]*; insert into invoice_day_counts \(client_id, kind, fecha, count\) values \(\d+, 'E', .*; insert into `sync_states` .*; COMMIT$/s
        );
        // Both kinds' 70 rows in the one INSERT.
        expect(sent[0]!.split('; ').find((sql) => sql.startsWith('insert into `invoices`'))!.split(/\), \(/)).to.have.length(70);
        expect(await databaseOf(app)('invoices').where({ client_id: clientId }).count({ n: '*' }).first()).to.deep.equal({ n: 70 });
        expect(await app.ports.syncStates.syncedAt(clientId, 'received_invoices')).to.equal(Date.UTC(2026, 3, 1));
    });

    it('sends a failing kind\'s recovery, decided by core, in the same one query', async () => {

        const { user, clientId } = await seedAccountWithClient(app.ports, '27123456780');
        // An endpoint, so that the account listens (nothing is delivered here: its secret is
        // never opened).
        await app.ports.webhooks.createEndpoint({ accountId: user.accountId, url: 'https://example.com/eventos', events: '*', sealedSecret: 'sin usar', createdAt: 0 });
        await app.ports.syncStates.recordFailure(clientId, 'received_invoices', 'Clave vencida.', 1, 'clave_vencida');
        const known = { states: await app.ports.syncStates.list(clientId), monotributista: false };
        const sent = await internals.queriesDuring(() => app.ports.invoices.saveKinds(
            clientId,
            [{ kind: 'issued', invoices: internals.invoices(3) }, { kind: 'received', invoices: internals.invoices(2) }],
            Date.UTC(2026, 3, 1),
            known
        ));
        expect(sent).to.have.length(1);
        expect(sent[0]).to.contain('insert into webhook_events');
        const events = await databaseOf(app)('webhook_events').where({ client_id: clientId, type: 'salud.cambio' }).orderBy('id');
        type Row = { sync_system: string; previous_error: string | null; data: string };
        expect(events.map((event: Row) => [event.sync_system, event.previous_error, JSON.parse(event.data)]))
            .to.deep.equal([
                ['received_invoices', null, { estado: 'clave_vencida', estadoAnterior: 'pendiente' }],
                ['received_invoices', 'Clave vencida.', { estado: 'ok', estadoAnterior: 'clave_vencida' }]
            ]);
    });

    it('sends a first sync\'s thousands a thousand rows a query, the last with COMMIT', async () => {

        const { clientId } = await seedAccountWithClient(app.ports);
        const sent = await internals.queriesDuring(() => app.ports.invoices.saveKinds(
            clientId,
            [{ kind: 'issued', invoices: internals.invoices(2_345) }],
            Date.UTC(2026, 3, 1),
            internals.firstSync
        ));
        expect(sent).to.have.length(3);
        expect(sent.map((query) => query.split('insert into `invoices`').length - 1)).to.deep.equal([1, 1, 1]);
        expect(sent[2]).to.match(/; COMMIT$/);
        expect(await databaseOf(app)('invoices').where({ client_id: clientId }).count({ n: '*' }).first()).to.deep.equal({ n: 2_345 });
    });

    it('writes nothing of a save whose statements sent with COMMIT fail, and leaves its connection clean', async () => {

        // One connection: a transaction left open there would be the next save's.
        const single = await composeApp(loadConfig({ DATABASE_URL: app.config.databaseUrl }), { pool: { max: 1 } });
        try {
            const { clientId } = await seedAccountWithClient(single.ports, '20111111112');
            const version = async () => Number((await databaseOf(single)('clients').where({ id: clientId }).first('data_version'))!.data_version);
            const before = await version();
            // NaN is no SQL value: the sync date's statement, the last before COMMIT, fails
            // after the rows and the day counts went in.
            const failed = await single.ports.invoices.save(clientId, 'issued', internals.invoices(20), Number.NaN).then(() => null, (err: unknown) => err);
            expect(failed).to.be.an('error');
            expect(await version()).to.equal(before);
            expect(await databaseOf(single)('invoices').where({ client_id: clientId })).to.deep.equal([]);
            expect(await databaseOf(single)('invoice_day_counts').where({ client_id: clientId })).to.deep.equal([]);
            expect(await databaseOf(single)('sync_states').where({ client_id: clientId })).to.deep.equal([]);

            await single.ports.invoices.save(clientId, 'issued', internals.invoices(5), Date.UTC(2026, 3, 2));
            expect(await version()).to.equal(before + 1);
            expect(await databaseOf(single)('invoices').where({ client_id: clientId }).count({ n: '*' }).first()).to.deep.equal({ n: 5 });
            expect(await single.ports.syncStates.syncedAt(clientId, 'issued_invoices')).to.equal(Date.UTC(2026, 3, 2));
        }
        finally {
            await single.close();
        }
    });

    it('keeps one statement a query on the pool that serves the API', async () => {

        const refused = await databaseOf(app).raw('select 1; select 2').then(() => null, (err: unknown) => err);
        expect(refused).to.have.property('code', 'ER_PARSE_ERROR');
    });
});
