import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { statements } from '../../../adapters/knex/fast/statements.js';
import { databaseOf, useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount } from '../../support/fixtures.js';

// SQLite's pool has one connection, the only writer: the reads of every request go to a
// connection of their own (adapters/knex/fast/sqlite-reader.ts), so a sync's write transaction
// holding the writer never makes the API wait, and they see what was committed, not what
// the transaction has written so far.

const [sqlite] = testDatabases();

describe('SQLite reads beside an open write transaction', () => {

    let app: App;
    useApp(sqlite!, (opened) => (app = opened));

    it('answers reads while a transaction holds the writer, with the committed rows only', async () => {

        const owner = await seedAccount(app.ports);
        const client = await addClient(app.ports, owner.accountId, { cuit: '20123456786', nombre: 'Ana', apellido: 'Antes' });
        const principal = (await app.ports.users.findPrincipal(owner.userId))!;

        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let inside!: () => void;
        const started = new Promise<void>((resolve) => (inside = resolve));
        const transaction = databaseOf(app).transaction(async (trx) => {

            await trx('clients').where({ id: client.id }).update({ apellido: 'Durante' });
            inside();
            await held;
        });

        await started;
        try {
            // Without a connection of their own, these would wait for the transaction.
            const seen = await app.ports.clients.findVisible(principal, '20123456786' as Cuit);
            expect(seen?.apellido).to.equal('Antes');
            expect(
                (await app.ports.clients.listVisible(principal, {
                    monotributista: null,
                    autonomo: null,
                    categoria: null,
                    etiquetas: null
                }, { limit: 10, offset: 0 })).total
            ).to.equal(1);
        }
        finally {
            release();
            await transaction;
        }

        expect((await app.ports.clients.findVisible(principal, '20123456786' as Cuit))?.apellido).to.equal('Durante');
    });

    it('runs a long read beside the event loop, which keeps answering timers meanwhile', async () => {

        // Some three million rows counted: a read of a few hundred milliseconds.
        const slow = 'with recursive n(x) as (select 1 union all select x + 1 from n where x < 3000000) select count(*) as total from n';
        const ticks: number[] = [];
        const timer = setInterval(() => ticks.push(performance.now()), 5);
        try {
            const row = await statements(databaseOf(app)).first(slow, []);
            const answered = performance.now();
            expect(row).to.deep.equal({ total: 3_000_000 });
            // Read on the event loop's own thread, no timer could run before the answer.
            expect(ticks.filter((at) => at < answered).length).to.be.above(2);
        }
        finally {
            clearInterval(timer);
        }
    });

    it('answers a failed read with SQLite\'s error, and keeps reading', async () => {

        const sql = statements(databaseOf(app));
        const failed = await sql.all('select * from no_such_table', []).then(() => null, (err: Error & { code?: string }) => err);
        expect(failed).to.be.instanceOf(Error);
        expect(failed!.message).to.include('no such table');
        expect(failed!.code).to.equal('SQLITE_ERROR');
        expect(await sql.first('select 1 as one', [])).to.deep.equal({ one: 1 });
    });

    it('sends a statement that writes to the writer, even when read with first()', async () => {

        const owner = await seedAccount(app.ports);
        const sql = statements(databaseOf(app));
        const insert = 'insert into tags (account_id, name, sort_name, color) values (?, ?, ?, ?) returning name';
        expect(await sql.first(insert, [owner.accountId, 'Nueva', 'nueva', '#112233'])).to.deep.equal({ name: 'Nueva' });
        expect(await sql.first(insert, [owner.accountId, 'Otra', 'otra', '#112233'])).to.deep.equal({ name: 'Otra' });
        expect(await databaseOf(app)('tags').where({ account_id: owner.accountId }).count({ n: '*' }).first()).to.deep.equal({ n: 2 });
    });
});
