import { expect } from 'chai';
import type { App } from '../../../app/compose.js';
import { invoice } from '../../support/data.js';
import { databaseOf, useApp } from '../../support/app.js';
import { testDatabases } from '../../support/databases.js';
import { seedAccountWithClient } from '../../support/fixtures.js';

// What the authority writes in an invoice comes back as it was written, whatever its
// characters: on MySQL a save's rows travel as one INSERT's escaped VALUES
// (adapters/knex/fast/value-rows.ts), which must change nothing of them, and a text the database
// cannot hold as written (a lone UTF-16 surrogate, from an HTML entity like &#xD800;) is
// stored with U+FFFD in its place, never by losing the row's other values.

const internals = {
    names: [
        'Pérez & Hijos S.R.L. 😀',
        'comillas "dobles", \'simples\' y `invertidas`',
        'barra \\ invertida \\n \\u0041',
        'control \u0001\u001f\t\n\r\b\f fin',
        '[{"json": true}]',
        '  espacios  '
    ]
};

for (const database of testDatabases()) {

    describe(`invoice texts (${database.name})`, () => {

        let app: App;
        useApp(database, (opened) => (app = opened));

        const saved = async (names: readonly string[]): Promise<{ name: string | null; importe: number; iva: number | null }[]> => {

            const { clientId } = await seedAccountWithClient(app.ports);
            const invoices = names.map((nombre, i) => {

                const base = invoice({ numeroDesde: String(i + 1), numeroHasta: String(i + 1), importe: 1210.5, iva: 210.5 });
                return { ...base, counterpart: { ...base.counterpart, nombre } };
            });
            await app.ports.invoices.save(clientId, 'received', invoices, Date.UTC(2026, 3, 1));
            const rows = await databaseOf(app)('invoices').where({ client_id: clientId }).orderBy('id').select('counterpart_name', 'importe', 'iva');
            return rows.map((row: Record<string, unknown>) => ({
                name: row.counterpart_name as string | null,
                importe: Number(row.importe),
                iva: row.iva === null ? null : Number(row.iva)
            }));
        };

        it('stores every character of a name as the authority wrote it', async () => {

            expect(await saved(internals.names)).to.deep.equal(internals.names.map((name) => ({ name, importe: 1210.5, iva: 210.5 })));
        });

        it('stores a lone surrogate as U+FFFD, keeping the row\'s other values', async () => {

            expect(await saved(['a\uD800b', 'c\uDFFFd', 'e\uD83D'])).to.deep.equal(
                ['a\uFFFDb', 'c\uFFFDd', 'e\uFFFD'].map((name) => ({ name, importe: 1210.5, iva: 210.5 }))
            );
        });
    });
}
