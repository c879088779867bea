import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { movement, notification, sctData } from '../../support/data.js';
import { useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccountWithClient } from '../../support/fixtures.js';

// The texts the authority writes in the tax current account, the monotributo account and the
// electronic-address notifications come back as one character wherever the page held half of
// a UTF-16 pair (a reference like &#xD800;): U+FFFD, as invoices store it, on both databases.
// SQLite kept such a text's bytes and read them back as three U+FFFD.

const internals = {
    lone: 'Intereses \uD800 resarcitorios',
    stored: 'Intereses \uFFFD resarcitorios'
};

for (const database of testDatabases()) {

    describe(`synchronized texts with half a UTF-16 pair (${database.name})`, () => {

        let app: App;
        useApp(database, (opened) => (app = opened));

        it('stores them in the tax current account as U+FFFD', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            const data = sctData();
            await app.ports.sct.replace(clientId, {
                deuda: data.deuda.map((item) => ({ ...item, concepto: internals.lone })),
                vencimientos: data.vencimientos.map((item) => ({ ...item, detalle: internals.lone })),
                ddjj: data.ddjj.map((item) => ({ ...item, impuesto: internals.lone }))
            }, Date.UTC(2026, 3, 1));

            const stored = await app.ports.sct.get(clientId);
            expect(stored.deuda.map((item) => item.concepto)).to.deep.equal([internals.stored, internals.stored]);
            expect(stored.deuda.map((item) => item.saldo)).to.deep.equal([15000.5, 800]);
            expect(stored.vencimientos.map((item) => item.detalle)).to.deep.equal([internals.stored]);
            expect(stored.ddjj.map((item) => item.impuesto)).to.deep.equal([internals.stored]);
        });

        it('stores them in the monotributo account\'s movements as U+FFFD', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            await app.ports.ccma.replace(
                clientId,
                { saldoDeudor: 25000, saldoAcreedor: 0 },
                [movement({ orden: 1, periodo: '2026-01', descripcion: internals.lone })],
                Date.UTC(2026, 3, 1)
            );

            const page = await app.ports.ccma.listMovementsByPeriod(clientId, { offset: 0, limit: 10 });
            expect(page.items.map((item) => [item.descripcion, item.debe])).to.deep.equal([[internals.stored, 25000]]);
        });

        it('stores them in the notifications as U+FFFD', async () => {

            const { clientId } = await seedAccountWithClient(app.ports);
            await app.ports.notifications.save(clientId, [notification({
                arcaId: '1',
                fechaRecepcion: '2026-03-01T00:00:00.000Z',
                asunto: internals.lone,
                organismo: 'ARCA \uDC00'
            })], Date.UTC(2026, 3, 1));

            const page = await app.ports.notifications.list(clientId, { offset: 0, limit: 10 });
            expect(page.items.map((item) => [item.asunto, item.organismo])).to.deep.equal([[internals.stored, 'ARCA \uFFFD']]);
        });
    });
}
