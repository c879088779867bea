import { existsSync } from 'node:fs';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { connect } from '../../../adapters/knex/connection.js';
import { databaseFailureCause } from '../../../adapters/knex/errors.js';
import { migrateLatest, migrationSource } from '../../../adapters/knex/migrations/index.js';
import { cliMessages } from '../../../cli/messages.js';
import { operatorMessages } from '../../../app/messages.js';
import type { CliResult } from '../../support/cli.js';
import { cliEnv, runBuiltCli, runCli } from '../../support/cli.js';
import { testDatabases } from '../../support/databases.js';

// An upgrade starts every process at once (serve, the workers, a cron run), and each one
// migrates before it works. A migration in progress elsewhere is waited for, and then found
// applied; a lock left behind by a migration cut short is named, with the way to free it.

const internals = {
    waiting: 'otra migración de esta base está en curso: se espera a que termine',

    // `arcasync migrate` in a process of its own: once it says it waits, and once it ends.
    migrateProcess(url: string): { waits: Promise<void>; ended: Promise<CliResult> } {

        let said: () => void = () => undefined;
        const waits = new Promise<void>((resolve) => {

            said = resolve;
        });
        const ended = runBuiltCli(['migrate'], {
            env: cliEnv(url),
            onStderr: (text) => {

                if (text.includes(internals.waiting)) {
                    said();
                }
            }
        });
        return { waits, ended };
    },

    setLock: (knex: Knex, held: boolean) => knex('knex_migrations_lock').update({ is_locked: held ? 1 : 0 }),

    async isLocked(knex: Knex): Promise<boolean> {

        const row = await knex('knex_migrations_lock').first('is_locked') as { is_locked: number | string };
        return Number(row.is_locked) === 1;
    },

    // knex's own tables, with the lock held as another migration's would be.
    async holdLock(knex: Knex): Promise<void> {

        await knex.migrate.list({ migrationSource });
        await internals.setLock(knex, true);
    }
};

for (const database of testDatabases()) {

    describe(`migrations started by several processes at once (${database.name})`, function () {

        this.timeout(60_000);

        let knex: Knex;
        let url: string;
        let release: () => Promise<void>;
        let warnings: string[];

        beforeEach(async () => {

            const db = await database.create();
            ({ url, release } = db);
            warnings = [];
            const keep = (message: unknown) => {

                warnings.push(String(message));
            };
            knex = connect(url, {}, { warn: keep, error: keep, deprecate: keep, debug: () => undefined });
        });

        afterEach(async () => {

            await knex.destroy();
            await release();
        });

        it('three `arcasync migrate` waiting on a migration in progress all succeed once it ends: one applies, two find it done', async () => {

            await internals.holdLock(knex);
            const runs = [1, 2, 3].map(() => internals.migrateProcess(url));
            // All three find the lock held and say they wait; then the other migration ends.
            await Promise.race([Promise.all(runs.map((run) => run.waits)), Promise.all(runs.map((run) => run.ended))]);
            await internals.setLock(knex, false);

            const results = await Promise.all(runs.map((run) => run.ended));
            const names = await migrationSource.getMigrations([]);
            expect(results.map((result) => result.code)).to.deep.equal([0, 0, 0]);
            expect(results.map((result) => result.stdout).sort()).to.deep.equal([
                `La base de datos ya estaba al día.\n`,
                `La base de datos ya estaba al día.\n`,
                `Migraciones aplicadas: ${names.join(', ')}\n`
            ]);
            for (const { stderr } of results) {
                // One log line each, in Spanish, saying why it waited; none of knex's English advice.
                const lines = stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as { msg: string });
                expect(lines.map((line) => line.msg)).to.deep.equal([internals.waiting]);
            }

            expect(Number((await knex('knex_migrations').count({ count: '*' }).first())!.count)).to.equal(names.length);
            expect(await internals.isLocked(knex)).to.equal(false);
        });

        it('two free lock rows, left by two first migrations at once, are made one and the migration runs', async () => {

            await knex.migrate.list({ migrationSource });
            await knex('knex_migrations_lock').insert({ is_locked: 0 });

            const applied = await migrateLatest(knex, { lockWaitMs: 5_000 });
            expect(applied).to.deep.equal(await migrationSource.getMigrations([]));
            expect((await knex('knex_migrations_lock').select('is_locked')).map((row: { is_locked: number | string }) => Number(row.is_locked))).to.deep.equal([0]);
        });

        it('a lock still held after the wait is refused with the way to free it; `migrate --unlock` frees it', async () => {

            await internals.holdLock(knex);
            let refused: unknown = null;
            await migrateLatest(knex, { lockWaitMs: 300 }).catch((err: unknown) => {

                refused = err;
            });
            expect(databaseFailureCause(refused)).to.equal(
                'otra migración la tiene bloqueada y no terminó en 1 s; si ninguna está en curso (una se cortó a la mitad), liberala con \'arcasync migrate --unlock\' y volvé a intentar'
            );
            expect(warnings).to.include(internals.waiting);
            expect(await internals.isLocked(knex)).to.equal(true);

            const unlocked = await runCli(url, ['migrate', '--unlock']);
            expect(unlocked).to.deep.equal({ code: 0, stdout: `${cliMessages.migrationsUnlocked}\n`, stderr: '' });
            expect(await internals.isLocked(knex)).to.equal(false);

            const json = await runCli(url, ['--json', 'migrate', '--unlock']);
            expect(JSON.parse(json.stdout)).to.deep.equal({ unlocked: true });

            expect((await migrateLatest(knex, { lockWaitMs: 300 })).length).to.equal((await migrationSource.getMigrations([])).length);
        });
    });
}

describe('migrate --unlock without a database', () => {

    it('names the file it looked for and creates nothing', async () => {

        const db = await testDatabases()[0]!.create();
        const file = db.url.replace(/^sqlite:/, '');
        const result = await runCli(db.url, ['migrate', '--unlock']);
        const created = existsSync(file);
        await db.release();
        expect(result.code).to.equal(1);
        expect(result.stderr).to.equal(`Error: ${operatorMessages.noDatabase(file)}\n`);
        expect(created).to.equal(false);
    });
});
