import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import { invoice } from '../../support/data.js';
import { databaseOf, useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccountWithClient } from '../../support/fixtures.js';

// invoice_day_counts, which the invoice list pages by, holds exactly what a count of the
// stored invoices per day gives, whichever way a save got there: new invoices added to their
// days, or a full recount when an upsert met stored invoices (one may have moved to another
// day).

const internals = {
    // Invoice n's day: 28 a month over three months.
    day(n: number): string {

        return `2026-0${1 + Math.floor(n / 28) % 3}-${String(1 + (n % 28)).padStart(2, '0')}`;
    },

    invoices: (
        from: number,
        count: number,
        fecha: (n: number) => string = (n) => internals.day(n)
    ): InvoiceRecord[] => Array.from({ length: count }, (_, i) => invoice({
        fecha: fecha(from + i),
        numeroDesde: String(from + i),
        numeroHasta: String(from + i)
    }))
};

for (const database of testDatabases()) {

    describe(`invoice day counts (${database.name})`, () => {

        let app: App;
        useApp(database, (opened) => (app = opened));

        const expectExact = async (clientId: number, kind: InvoiceKind, invoices: number) => {

            const code = kind === 'issued' ? 'E' : 'R';
            const kept = await databaseOf(app)('invoice_day_counts').where({ client_id: clientId, kind: code }).select('fecha', 'count').orderBy('fecha');
            const counted = await databaseOf(app)('invoices').where({
                client_id: clientId,
                kind: code
            }).select('fecha').count({ count: '*' }).groupBy('fecha').orderBy('fecha') as {
                fecha: string;
                count: number | string;
            }[];
            expect(kept.map((row) => [row.fecha, Number(row.count)])).to.deep.equal(counted.map((row) => [row.fecha, Number(row.count)]));
            expect(kept.reduce((sum, row) => sum + Number(row.count), 0)).to.equal(invoices);
        };

        it('counts a first save, and later saves of new invoices on days already counted', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            await app.ports.invoices.save(clientId, 'issued', internals.invoices(0, 300), Date.UTC(2026, 3, 1));
            await expectExact(clientId, 'issued', 300);
            await app.ports.invoices.save(clientId, 'issued', internals.invoices(300, 50), Date.UTC(2026, 3, 2));
            await expectExact(clientId, 'issued', 350);
            await app.ports.invoices.save(clientId, 'issued', internals.invoices(350, 1), Date.UTC(2026, 3, 2));
            await expectExact(clientId, 'issued', 351);
            await app.ports.invoices.save(clientId, 'issued', [], Date.UTC(2026, 3, 3));
            await expectExact(clientId, 'issued', 351);
            await expectExact(clientId, 'received', 0);
        });

        it('counts a save of more invoices than one statement takes', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            await app.ports.invoices.save(clientId, 'received', internals.invoices(0, 2_345), Date.UTC(2026, 3, 1));
            await expectExact(clientId, 'received', 2_345);
        });

        it('moves the count when a stored invoice comes back on another day, and drops a day left empty', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            await app.ports.invoices.save(clientId, 'issued', internals.invoices(0, 10, () => '2026-03-01'), Date.UTC(2026, 3, 1));
            await app.ports.invoices.save(clientId, 'issued', [invoice({ fecha: '2026-03-05', numeroDesde: '99', numeroHasta: '99' })], Date.UTC(2026, 3, 1));
            // Invoice 99 moves from the 5th (left empty) to the 6th, with a new one beside it.
            await app.ports.invoices.save(
                clientId,
                'issued',
                [...internals.invoices(100, 3, () => '2026-03-06'), invoice({ fecha: '2026-03-06', numeroDesde: '99', numeroHasta: '99' })],
                Date.UTC(2026, 3, 2)
            );
            await expectExact(clientId, 'issued', 14);
            expect(await databaseOf(app)('invoice_day_counts').where({ client_id: clientId, fecha: '2026-03-05' })).to.deep.equal([]);
            // Several of them move, along with new ones, in one save.
            await app.ports.invoices.save(
                clientId,
                'issued',
                [...internals.invoices(0, 5, () => '2026-03-07'), ...internals.invoices(200, 5, () => '2026-03-07')],
                Date.UTC(2026, 3, 3)
            );
            await expectExact(clientId, 'issued', 19);
        });

        it('writes nothing of a save that fails half-way, and leaves no transaction open on its connection', async () => {

            // One connection: a transaction left open there would be the next save's, whose
            // BEGIN would commit what the failed save had written.
            const single = await composeApp(loadConfig({ DATABASE_URL: app.config.databaseUrl }), { pool: { max: 1 } });
            try {
                const { clientId } = await seedAccountWithClient(single.ports);
                const version = async () => Number((await databaseOf(single)('clients').where({ id: clientId }).first('data_version'))!.data_version);
                const before = await version();
                // On MySQL the first 1,000 rows go in before the statement with the bad one.
                const invoices = internals.invoices(0, 1_001);
                invoices[1_000] = { ...invoices[1_000]!, monedaOriginal: null as unknown as string };
                const failed = await single.ports.invoices.save(clientId, 'issued', invoices, Date.UTC(2026, 3, 1)).then(() => null, (err: unknown) => err);
                expect(failed).to.have.property('message').that.matches(/moneda_original/);
                expect(await version()).to.equal(before);
                expect(await databaseOf(single)('invoices').where({ client_id: clientId })).to.deep.equal([]);
                expect(await databaseOf(single)('sync_states').where({ client_id: clientId })).to.deep.equal([]);
                await expectExact(clientId, 'issued', 0);

                await single.ports.invoices.save(clientId, 'received', internals.invoices(0, 5), Date.UTC(2026, 3, 2));
                await expectExact(clientId, 'issued', 0);
                await expectExact(clientId, 'received', 5);
                expect(await version()).to.equal(before + 1);
                expect(await single.ports.syncStates.syncedAt(clientId, 'issued_invoices')).to.equal(null);
                expect(await single.ports.syncStates.syncedAt(clientId, 'received_invoices')).to.equal(Date.UTC(2026, 3, 2));
            }
            finally {
                await single.close();
            }
        });

        it('counts both kinds saved in one transaction, added or recounted', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            await app.ports.invoices.saveKinds(
                clientId,
                [{ kind: 'issued', invoices: internals.invoices(0, 40) }, { kind: 'received', invoices: internals.invoices(0, 30) }],
                Date.UTC(2026, 3, 1)
            );
            await expectExact(clientId, 'issued', 40);
            await expectExact(clientId, 'received', 30);
            // New issued invoices beside a received one that moved to another day.
            await app.ports.invoices.saveKinds(
                clientId,
                [{ kind: 'issued', invoices: internals.invoices(40, 5) }, { kind: 'received', invoices: internals.invoices(3, 1, () => '2026-03-28') }],
                Date.UTC(2026, 3, 2)
            );
            await expectExact(clientId, 'issued', 45);
            await expectExact(clientId, 'received', 30);
            expect(await app.ports.syncStates.syncedAt(clientId, 'issued_invoices')).to.equal(Date.UTC(2026, 3, 2));
            expect(await app.ports.syncStates.syncedAt(clientId, 'received_invoices')).to.equal(Date.UTC(2026, 3, 2));
        });

        it('writes nothing for a save of no kinds', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            const version = async () => Number((await databaseOf(app)('clients').where({ id: clientId }).first('data_version'))!.data_version);
            const before = await version();
            await app.ports.invoices.saveKinds(clientId, [], Date.UTC(2026, 3, 1));
            expect(await version()).to.equal(before);
            expect(await databaseOf(app)('sync_states').where({ client_id: clientId })).to.deep.equal([]);
        });

        it('counts an invoice listed twice in one save once', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            const twice = internals.invoices(0, 20);
            await app.ports.invoices.save(clientId, 'received', [...twice, { ...twice[3]!, fecha: '2026-03-20' }], Date.UTC(2026, 3, 1));
            await expectExact(clientId, 'received', 20);
        });

        it('counts a save of stored invoices, unchanged or not, without adding them again', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            const stored = internals.invoices(0, 30);
            await app.ports.invoices.save(clientId, 'issued', stored, Date.UTC(2026, 3, 1));
            await app.ports.invoices.save(clientId, 'issued', stored, Date.UTC(2026, 3, 2));
            await expectExact(clientId, 'issued', 30);
            await app.ports.invoices.save(clientId, 'issued', [...stored.slice(0, 10), ...internals.invoices(30, 1)], Date.UTC(2026, 3, 3));
            await expectExact(clientId, 'issued', 31);
        });

        it('counts an invoice listed twice in a save of more invoices than one statement takes', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            const many = internals.invoices(0, 1_100);
            // Listed twice in the first statement's rows; the second's are all new.
            await app.ports.invoices.save(
                clientId,
                'issued',
                [...many.slice(0, 10), { ...many[5]!, fecha: '2026-03-20' }, ...many.slice(10)],
                Date.UTC(2026, 3, 1)
            );
            await expectExact(clientId, 'issued', 1_100);
        });

        it('refuses a save with an amount that is not a number, and writes nothing of it', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            for (const importe of [Number.NaN, Number.POSITIVE_INFINITY]) {
                const invoices = internals.invoices(0, 10);
                invoices[7] = { ...invoices[7]!, importe };
                const failed = await app.ports.invoices.save(clientId, 'issued', invoices, Date.UTC(2026, 3, 1)).then(() => null, (err: unknown) => err);
                expect(failed).to.have.property('message', 'un importe del comprobante no es un número finito');
            }

            expect(await databaseOf(app)('invoices').where({ client_id: clientId })).to.deep.equal([]);
            expect(await databaseOf(app)('sync_states').where({ client_id: clientId })).to.deep.equal([]);
        });
    });
}
