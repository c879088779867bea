import { expect } from 'chai';
import type { App } from '../app/compose.js';
import type { Cuit } from '../core/domain/cuit.js';
import { openApp } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { addClient, seedAccount } from './support/fixtures.js';

// SQLite's pool has one connection, the only writer: the reads of every request go to a
// connection of their own (adapters/knex/sqlite-reader.ts), so a sync's write transaction
// holding the writer never makes the API wait, and they see what was committed, not what
// the transaction has written so far.

const [sqlite] = testDatabases();

describe('SQLite reads beside an open write transaction', () => {

    let app: App;
    let close: () => Promise<void>;

    before(async () => {

        ({ app, close } = await openApp(sqlite!));
    });

    after(async () => {

        await close();
    });

    it('answers reads while a transaction holds the writer, with the committed rows only', async () => {

        const owner = await seedAccount(app.ports);
        const client = await addClient(app.ports, owner.accountId, { cuit: '20123456786', nombre: 'Ana', apellido: 'Antes' });
        const principal = (await app.ports.users.findPrincipal(owner.userId))!;

        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let inside!: () => void;
        const started = new Promise<void>((resolve) => (inside = resolve));
        const transaction = app.knex.transaction(async (trx) => {

            await trx('clients').where({ id: client.id }).update({ apellido: 'Durante' });
            inside();
            await held;
        });

        await started;
        try {
            // Without a connection of their own, these would wait for the transaction.
            const seen = await app.ports.clients.findVisible(principal, '20123456786' as Cuit);
            expect(seen?.apellido).to.equal('Antes');
            expect((await app.ports.clients.listVisible(principal, { monotributista: null, autonomo: null, categoria: null, etiquetas: null }, { limit: 10, offset: 0 })).total).to.equal(1);
        }
        finally {
            release();
            await transaction;
        }

        expect((await app.ports.clients.findVisible(principal, '20123456786' as Cuit))?.apellido).to.equal('Durante');
    });
});
