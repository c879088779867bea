import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { composeApp } from '../../../app/compose.js';
import { loadConfig } from '../../../app/config.js';
import { syncDeps } from '../../../app/sync.js';
import { displayName, sortKey } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { syncClient } from '../../../core/use-cases/sync/sync-client.js';
import { testDatabases } from '../../support/databases.js';
import { fakeAuthority, fakeTaxpayer } from '../../support/fake-authority.js';
import { seedAccount } from '../../support/fixtures.js';
import { testClock } from '../../support/server.js';
import { databaseOf, testEnv } from '../../support/app.js';

// Authority texts longer than their columns (issue 29, items 4 and 5): a 300-character
// "Denominación" made MariaDB refuse the save (ER_DATA_TOO_LONG), the CUIT's invoices failed
// and were retried every day without end; a 1 MB name was stored whole on SQLite and served
// in every page. Now both databases store the same text, cut at the column's size.

for (const database of testDatabases()) {

    describe(`authority texts longer than their columns (${database.name})`, () => {

        let app: App;
        let release: () => Promise<void>;

        before(async () => {

            const db = await database.create();
            release = db.release;
            app = await composeApp(loadConfig({ ...testEnv,
                DATABASE_URL: db.url,
                ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64')
            }), { clock: testClock('2026-03-15T12:00:00Z') });
        });

        after(async () => {

            await app.close();
            await release();
        });

        it('stores long names, subjects and concepts cut at the column size, the same on both databases (items 4, 5)', async () => {

            const { accountId } = await seedAccount(app.ports);
            const cuit = '20300000015' as Cuit;
            const names = { nombre: 'Ana', apellido: 'Larga', razonSocial: null };
            const client = (await app.ports.clients.insert({
                publicId: randomUUID(), accountId, cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                displayName: displayName({ tipo: 'persona-fisica', ...names }), sortName: sortKey(displayName({ tipo: 'persona-fisica', ...names })),
                email: null, telefono: null, sealedKey: app.ports.secretBox.seal('clave-correcta'),
                keyDigest: await app.ports.keyIdentity.of(cuit, 'clave-correcta'), createdAt: Date.parse('2026-03-15T12:00:00Z')
            }))!;

            const authority = fakeAuthority();
            const taxpayer = fakeTaxpayer();
            const long = `Denominación ${'ñ'.repeat(287)}`;           // 300 characters
            const huge = 'x'.repeat(1024 * 1024);
            taxpayer.invoices.received[0]!.counterpart.nombre = long;
            taxpayer.invoices.received.push({
                ...taxpayer.invoices.received[0]!,
                numeroDesde: '00000077',
                numeroHasta: '00000077',
                counterpart: { ...taxpayer.invoices.received[0]!.counterpart, nombre: huge }
            });
            taxpayer.notifications[0]!.asunto = `Asunto ${'é'.repeat(700)}`;
            taxpayer.sct.deuda[0]!.concepto = `Concepto 😀 ${'a'.repeat(400)}`;
            authority.taxpayers.set(cuit, taxpayer);

            const result = await syncClient(syncDeps(app, authority), { clientId: client.id });
            expect(result.systems.filter((system) => system.error), JSON.stringify(result.systems)).to.deep.equal([]);

            const page = await app.ports.invoices.list(client.id, 'received', { fromDate: '2025-01-01', toDate: '2026-12-31' }, { limit: 10, offset: 0 });
            const stored = page.items.map((item) => item.counterpart.nombre!).sort((a, b) => a.length - b.length);
            expect(stored.map((name) => Array.from(name).length)).to.deep.equal([255, 255]);
            expect(stored.find((name) => name.startsWith('Denominación'))).to.equal(`${Array.from(long).slice(0, 254).join('')}…`);

            const notification = await databaseOf(app)('dfe_notifications').where({ client_id: client.id, arca_id: '101' }).first();
            expect(Array.from(String(notification.asunto))).to.have.length(500);
            const debt = (await app.ports.sct.get(client.id)).deuda[0]!;
            expect(Array.from(debt.concepto)).to.have.length(200);
            expect(debt.concepto.startsWith('Concepto 😀 a')).to.equal(true);
        });
    });
}
