import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import type { InvoiceRecord } from '../../../core/domain/invoice.js';
import { invoice, movement, notification, sctData } from '../../support/data.js';
import { useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { addClient, seedAccount } from '../../support/fixtures.js';

// The sync's writes of many clients at once, as concurrent workers make them: none may fail
// for the others (on MySQL, gap locks between neighbouring clients' rows deadlocked them).

for (const database of testDatabases()) {

    describe(`concurrent writes of many clients' synchronized data (${database.name})`, () => {

        let app: App;
        // The pools the service runs with: one connection on SQLite, ten on MySQL.
        useApp(database, (opened) => (app = opened));

        it('stores every client\'s invoices, SCT, CCMA, DFE and registry without a single failure', async () => {

            const { accountId } = await seedAccount(app.ports);
            const clients = [];
            for (let i = 0; i < 12; i++) {
                const cuit = `20${String(30_000_000 + i).padStart(8, '0')}`;
                const digits = cuit.split('').map(Number);
                const sum = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2].reduce((total, weight, k) => total + weight * digits[k]!, 0);
                const check = (11 - (sum % 11)) % 11;
                if (check === 10) {
                    continue;
                }

                clients.push(await addClient(app.ports, accountId, { cuit: `${cuit}${check}` }));
            }

            const invoicesOf = (round: number): InvoiceRecord[] => Array.from({ length: 150 }, (_, n) => invoice({
                fecha: `2026-0${1 + (n % 3)}-${String(1 + (n % 28)).padStart(2, '0')}`,
                numeroDesde: String(round * 1000 + n),
                numeroHasta: String(round * 1000 + n)
            }));

            const at = Date.UTC(2026, 3, 1);
            for (let round = 0; round < 3; round++) {
                const results = await Promise.allSettled(clients.flatMap((client) => [
                    app.ports.invoices.save(client.id, 'issued', invoicesOf(round), at),
                    app.ports.invoices.save(client.id, 'received', invoicesOf(round), at),
                    app.ports.sct.replace(client.id, sctData(), at),
                    app.ports.ccma.replace(client.id, { saldoDeudor: round, saldoAcreedor: null }, [movement({ orden: 1, periodo: '01/2026' })], at),
                    app.ports.notifications.save(client.id, [notification({ arcaId: `n-${round}`, fechaRecepcion: '2026-03-01T10:00:00.000Z' })], at),
                    app.ports.registry.save(client.id, { monotributista: round % 2 === 0, autonomo: false, categoria: 'A' }, at)
                ]));

                const failures = results.filter((result) => result.status === 'rejected').map(
                    (result) => String((result as PromiseRejectedResult).reason?.code ?? (result as PromiseRejectedResult).reason)
                );
                expect(failures, `round ${round}`).to.deep.equal([]);
            }

            for (const client of clients) {
                const page = await app.ports.invoices.list(client.id, 'issued', { fromDate: '2026-01-01', toDate: '2026-03-31' }, { limit: 1, offset: 0 });
                expect(page.total).to.equal(450);
            }
        });
    });
}
