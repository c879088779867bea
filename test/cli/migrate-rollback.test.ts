import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import knexFactory from 'knex';
import { migrationSource } from '../../adapters/knex/migrations/index.js';
import { operatorMessages } from '../../app/messages.js';
import type { CliIo } from '../../cli/io.js';
import { cliMessages } from '../../cli/messages.js';
import { runCli as runCommandLine } from '../../cli/program.js';
import type { CliResult } from '../support/cli.js';
import { cliEnv, runCli, runKnexCli } from '../support/cli.js';
import { tableNames, testDatabases } from '../support/databases.js';

// Going back a migration cannot destroy data silently. The README pointed to the knex CLI's
// migrate:rollback, which on a normal installation (every migration in batch 1) dropped every
// table with no question. Now `arcasync migrate --down` undoes one migration, says which
// tables (with their rows) and columns go, asks on a terminal and needs --yes elsewhere; the
// knex CLI refuses rollback and down; and both status listings name every migration without
// creating a database.

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    key: Buffer.alloc(32, 7).toString('base64'),

    // `arcasync ARGS` on a terminal: the answer is typed once the question is asked.
    async onTerminal(url: string, args: string[], answer: string): Promise<CliResult> {

        const result: CliResult = { code: null, stdout: '', stderr: '' };
        const stdin = Object.assign(new PassThrough(), { isTTY: true });
        const io: CliIo = {
            env: cliEnv(url),
            cwd: internals.root,
            stdin,
            stdout: { isTTY: true, write: (text: string) => (result.stdout += text) },
            stderr: {
                isTTY: true,
                write(text: string) {

                    result.stderr += text;
                    if (text.includes('¿La deshago?')) {
                        stdin.write(`${answer}\n`);
                    }

                    return true;
                }
            },
            onStop: () => () => undefined
        };
        result.code = await runCommandLine(args, io);
        return result;
    },

    async applied(url: string): Promise<string[]> {

        const status = await runCli(url, ['--json', 'migrate', '--status']);
        expect(status.code, status.stderr).to.equal(0);
        const { migrations } = JSON.parse(status.stdout) as { migrations: { name: string; applied: boolean }[] };
        return migrations.filter((each) => each.applied).map((each) => each.name);
    },

    async tables(url: string): Promise<string[]> {

        const knex = url.startsWith('sqlite:')
            ? knexFactory({ client: 'better-sqlite3', connection: { filename: url.slice('sqlite:'.length) }, useNullAsDefault: true })
            : knexFactory({ client: 'mysql2', connection: url, pool: { min: 0, max: 1 } });
        try {
            return (await tableNames(knex)).sort();
        }
        finally {
            await knex.destroy();
        }
    }
};

for (const database of testDatabases()) {

    describe(`going back a migration (${database.name})`, function () {

        this.timeout(180_000);

        let names: string[];
        before(async () => {

            names = await migrationSource.getMigrations([]);
        });

        it('migrate --status names every migration, applied or pending, and creates nothing', async () => {

            const db = await database.create();
            try {
                if (database.name === 'sqlite') {
                    const file = db.url.slice('sqlite:'.length);
                    expect(await runCli(db.url, ['migrate', '--status'])).to.deep.equal({ code: 1, stdout: '', stderr: `Error: ${operatorMessages.noDatabase(file)}\n` });
                    expect(existsSync(file)).to.equal(false);
                }
                else {
                    const empty = await runCli(db.url, ['migrate', '--status']);
                    expect(empty.code, empty.stderr).to.equal(0);
                    expect(empty.stdout).to.include(`: 0 aplicadas, ${names.length} pendientes.`);
                    expect(await internals.tables(db.url)).to.deep.equal([]);
                }

                expect((await runCli(db.url, ['migrate'])).code).to.equal(0);
                const status = await runCli(db.url, ['migrate', '--status']);
                const lines = status.stdout.trimEnd().split('\n');
                expect(lines[0]).to.match(new RegExp(`^Migraciones de .+: ${names.length} aplicadas, 0 pendientes\\.$`));
                expect(lines.slice(1).map((line) => line.trim().split(/\s+/)[0])).to.deep.equal(names);
                expect(lines.slice(1).every((line) => line.endsWith('aplicada (lote 1)'))).to.equal(true);
                expect(await internals.applied(db.url)).to.deep.equal(names);
            }
            finally {
                await db.release();
            }
        });

        it('migrate --down undoes one migration at a time, says what goes with its data, asks on a terminal and needs --yes elsewhere', async () => {

            const db = await database.create();
            try {
                expect((await runCli(db.url, ['migrate'])).code).to.equal(0);
                const account = await runCli(db.url, ['account', 'create', '--name', 'Estudio real'], { ARCASYNC_SECRET_KEY: internals.key });
                expect(account.code, account.stderr).to.equal(0);

                // Off a terminal, without --yes: said, refused, nothing undone.
                const unconfirmed = await runCli(db.url, ['migrate', '--down']);
                expect(unconfirmed.code).to.equal(1);
                expect(unconfirmed.stderr).to.match(new RegExp(`^Error: Deshacer la migración ${names.at(-1)!} .*confirmalo con --yes\\.\\n$`));
                expect(await internals.applied(db.url)).to.deep.equal(names);

                const first = await runCli(db.url, ['migrate', '--down', '--yes']);
                expect(first.code, first.stderr).to.equal(0);
                expect(first.stdout).to.include(`Migración deshecha: ${names.at(-1)!}.`);
                expect(await internals.applied(db.url)).to.deep.equal(names.slice(0, -1));
                const pending = await runCli(db.url, ['migrate', '--status']);
                expect(pending.stdout).to.match(new RegExp(`\\n  ${names.at(-1)!} +pendiente\\n$`));

                // One at a time, down to the first; each says what it drops.
                const said: Record<string, { tables: { name: string; rows: number }[]; columns: string[] }> = {};
                for (let left = names.length - 1; left > 1; left--) {
                    const down = await runCli(db.url, ['--json', 'migrate', '--down', '--yes']);
                    expect(down.code, down.stderr).to.equal(0);
                    type Undone = { undone: string; tables: { name: string; rows: number }[]; columns: string[] };
                    const { undone, tables, columns } = JSON.parse(down.stdout) as Undone;
                    expect(undone).to.equal(names[left - 1]);
                    said[undone] = { tables, columns };
                    expect(await internals.applied(db.url)).to.deep.equal(names.slice(0, left - 1));
                }

                expect(said['012_sync_changes']).to.deep.equal({ tables: [{ name: 'sync_changes', rows: 0 }], columns: [] });
                expect(said['011_health_webhooks']!.tables.map((table) => table.name).sort()).to.deep.equal(['webhook_deliveries', 'webhook_endpoints', 'webhook_events']);
                expect(said['011_health_webhooks']!.columns).to.deep.equal(['sync_states.failing_since']);
                expect(said['004_data_versions']!.columns.sort()).to.deep.equal(['accounts.data_version', 'clients.data_version']);

                // The first migration holds the accounts: the question names them and their rows.
                const declined = await internals.onTerminal(db.url, ['migrate', '--down'], 'no');
                expect(declined.code).to.equal(1);
                expect(declined.stderr).to.include('accounts (1 fila)').and.include('con todos sus datos').and.include('¿La deshago?');
                expect(declined.stderr).to.match(/Error: No se deshizo ninguna migración\.\n$/);
                expect(await internals.applied(db.url)).to.deep.equal([names[0]]);
                expect((await runCli(db.url, ['account', 'list'], { ARCASYNC_SECRET_KEY: internals.key })).stdout).to.include('Estudio real');

                const confirmed = await internals.onTerminal(db.url, ['migrate', '--down'], 'si');
                expect(confirmed.code, confirmed.stderr).to.equal(0);
                expect(confirmed.stdout).to.equal(`Migración deshecha: ${names[0]!}. 'arcasync migrate' la vuelve a aplicar (sin los datos que se borraron).\n`);
                expect(await internals.applied(db.url)).to.deep.equal([]);
                expect(await internals.tables(db.url)).to.deep.equal(['knex_migrations', 'knex_migrations_lock']);

                expect(await runCli(db.url, ['migrate', '--down', '--yes'])).to.deep.equal({ code: 0, stdout: 'No hay migraciones aplicadas: no hay nada que deshacer.\n', stderr: '' });
                // --yes never reaches another action, and one action at a time.
                expect(await runCli(db.url, ['migrate', '--yes'])).to.deep.equal({ code: 1, stdout: '', stderr: `Error: ${cliMessages.migrateYesAlone}\n` });
                expect(await runCli(db.url, ['migrate', '--status', '--down'])).to.deep.equal({ code: 1, stdout: '', stderr: `Error: ${cliMessages.migrateOneAction}\n` });
                expect(await internals.tables(db.url)).to.deep.equal(['knex_migrations', 'knex_migrations_lock']);
                expect((await runCli(db.url, ['migrate'])).stdout).to.equal(`Migraciones aplicadas: ${names.join(', ')}\n`);
            }
            finally {
                await db.release();
            }
        });

        it('refuses to undo 027 while an address is held by users of two accounts, changing nothing', async () => {

            const db = await database.create();
            try {
                expect((await runCli(db.url, ['migrate'])).code).to.equal(0);
                for (const name of ['Estudio Uno', 'Estudio Dos']) {
                    const { id } = JSON.parse((await runCli(db.url, ['--json', 'account', 'create', '--name', name], { ARCASYNC_SECRET_KEY: internals.key })).stdout) as { id: number };
                    const invited = await runCli(db.url, ['user', 'invite', '--account', String(id), '--email', 'compartida@example.com'], { ARCASYNC_SECRET_KEY: internals.key });
                    expect(invited.code, invited.stderr).to.equal(0);
                }

                // Down to 027 first, when newer migrations come.
                const upTo027 = names.slice(0, names.indexOf('027_user_signin_email') + 1);
                while ((await internals.applied(db.url)).length > upTo027.length) {
                    expect((await runCli(db.url, ['migrate', '--down', '--yes'])).code).to.equal(0);
                }

                const refused = await runCli(db.url, ['migrate', '--down', '--yes']);
                expect(refused.code).to.equal(1);
                expect(refused.stderr).to.include('No se puede deshacer 027_user_signin_email: 1 dirección está en más de un usuario');
                expect(await internals.applied(db.url)).to.deep.equal(upTo027);
            }
            finally {
                await db.release();
            }
        });

        it('the knex CLI refuses migrate:rollback and migrate:down, and its migrate:status names pending migrations', async () => {

            const db = await database.create();
            try {
                if (database.name === 'sqlite') {
                    const file = db.url.slice('sqlite:'.length);
                    expect(runKnexCli(db.url, ['migrate:status'])).to.deep.equal({ code: 1, stdout: '', stderr: `Error: ${operatorMessages.noDatabase(file)}\n` });
                    expect(existsSync(file)).to.equal(false);
                }

                expect(runKnexCli(db.url, ['migrate:latest']).stdout).to.include(`Batch 1 run: ${names.length} migrations`);
                expect((await runCli(db.url, ['account', 'create', '--name', 'Estudio real'], { ARCASYNC_SECRET_KEY: internals.key })).code).to.equal(0);
                for (const command of ['migrate:rollback', 'migrate:down']) {
                    expect(runKnexCli(db.url, [command])).to.deep.equal({ code: 1, stdout: '', stderr: `Error: ${operatorMessages.knexUndo(command)}\n` });
                }

                expect(runKnexCli(db.url, ['migrate:rollback', '--all']).code).to.equal(1);
                expect(await internals.applied(db.url)).to.deep.equal(names);
                expect((await runCli(db.url, ['account', 'list'], { ARCASYNC_SECRET_KEY: internals.key })).stdout).to.include('Estudio real');

                expect((await runCli(db.url, ['migrate', '--down', '--yes'])).code).to.equal(0);
                const status = runKnexCli(db.url, ['migrate:status']);
                expect(status.stdout).to.include(`Found 1 Pending Migration file/files.\n${names.at(-1)!}\n`);
                expect(status.stdout).to.not.include('undefined');
            }
            finally {
                await db.release();
            }
        });
    });
}
