import { expect } from 'chai';
import type { Knex } from 'knex';
import { connect, dialectOf } from '../../../adapters/knex/connection.js';
import { migrationSource } from '../../../adapters/knex/migrations/index.js';
import { runKnexCli } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';

// Every migration can be undone and redone: down one at a time to an empty database, up one at
// a time to the same schema as a straight migrate. And the knex CLI that operators know runs
// on the service's database through knexfile.ts (going back is `arcasync migrate --down`).

const internals = {
    async schema(knex: Knex): Promise<string[]> {

        if (dialectOf(knex) === 'mysql') {
            const [tables] = await knex.raw(
                "select table_name as name from information_schema.tables where table_schema = database() and table_name not like 'knex\\_%' order by table_name"
            ) as [{ name: string }[]];
            const shown: string[] = [];
            for (const { name } of tables) {
                const [[row]] = await knex.raw(`show create table \`${name}\``) as [Record<string, string>[]];
                shown.push(String(row!['Create Table']).replace(/ AUTO_INCREMENT=\d+/, ''));
            }

            return shown;
        }

        const rows = await knex.raw(
            "select type, name, sql from sqlite_master where name not like 'knex\\_%' escape '\\' and name not like 'sqlite\\_%' escape '\\' order by type, name"
        ) as { type: string; name: string; sql: string | null }[];
        return rows.map((row) => `${row.type} ${row.name}: ${row.sql ?? ''}`);
    }
};

for (const database of testDatabases()) {

    describe(`migrations down and up (${database.name})`, function () {

        this.timeout(120_000);

        it('undoes every migration one by one, then redoes them to the same schema', async () => {

            const db = await database.create();
            const knex = connect(db.url);
            try {
                const names = await migrationSource.getMigrations([]);
                await knex.migrate.latest({ migrationSource });
                const latest = await internals.schema(knex);
                expect(latest.length).to.be.greaterThan(10);

                for (const name of [...names].reverse()) {
                    const [, undone] = await knex.migrate.down({ migrationSource }) as [number, string[]];
                    expect(undone, name).to.deep.equal([name]);
                }

                expect(await internals.schema(knex)).to.deep.equal([]);
                for (const name of names) {
                    const [, done] = await knex.migrate.up({ migrationSource }) as [number, string[]];
                    expect(done, name).to.deep.equal([name]);
                }

                expect(await internals.schema(knex)).to.deep.equal(latest);
            }
            finally {
                await knex.destroy();
                await db.release();
            }
        });

        // migrate:rollback is refused (test/migrate-rollback.test.ts): it dropped every table.
        it('npm run knex: migrate:latest, migrate:status on the service\'s migrations', async () => {

            const db = await database.create();
            try {
                const names = await migrationSource.getMigrations([]);
                expect(runKnexCli(db.url, ['migrate:latest']).stdout).to.include(`Batch 1 run: ${names.length} migrations`);
                expect(runKnexCli(db.url, ['migrate:status']).stdout).to.include(`Found ${names.length} Completed Migration file/files.\n${names.join('\n')}\n`)
                    .and.include('No Pending Migration files Found.');
            }
            finally {
                await db.release();
            }
        });
    });
}
