import { expect } from 'chai';
import type { Knex } from 'knex';
import { schema } from '../../../adapters/knex/schema.js';
import { schemaDifferences } from '../../support/database-schema.js';
import { testDatabases, useKnex } from '../../support/databases.js';

// The one current schema (adapters/knex/schema.ts) is what the migrations build: a fresh
// database migrated to the latest has exactly its tables, columns (type, size, nullability),
// primary keys and indexes, on each database. A migration that changes a table without its
// entry there fails here, naming the table and the column or index that differ.

for (const database of testDatabases()) {

    describe(`the current schema (${database.name})`, () => {

        let knex: Knex;
        useKnex(database, (opened) => (knex = opened), { migrate: true });

        it('is what the migrations build', async () => {

            const differences = await schemaDifferences(knex, schema);
            expect(differences, `\n${differences.join('\n')}\n`).to.deep.equal([]);
        });

        it('names the table and column or index that differ', async () => {

            await knex.schema.alterTable('tags', (table) => {

                table.string('note', 30).nullable();
                table.index(['color'], 'tags_color');
            });
            try {
                const altered = {
                    ...schema,
                    tags: { ...schema.tags, columns: { ...schema.tags.columns, color: { type: 'string' as const, size: 20 } } }
                };
                expect(await schemaDifferences(knex, altered)).to.deep.equal([
                    'column tags.color: varchar(16) not null in the database, described as varchar(20) not null',
                    'column tags.note: in the database as varchar(30) null, not described in adapters/knex/schema.ts',
                    'index tags.tags_color: in the database as (color), not described in adapters/knex/schema.ts'
                ]);

                const { installation: _left, ...withoutOne } = schema;
                expect(await schemaDifferences(knex, withoutOne)).to.include('table installation: in the database, not described in adapters/knex/schema.ts');
            }
            finally {
                await knex.schema.alterTable('tags', (table) => {

                    table.dropIndex(['color'], 'tags_color');
                    table.dropColumn('note');
                });
            }
        });
    });
}
