import type { Command } from 'commander';
import { confirmed } from '../confirm.js';
import type { CliIo } from '../io.js';
import { databaseLabel } from '../../app/config.js';
import { lazy } from '../lazy.js';
import { cliMessages } from '../messages.js';
import type { Output } from '../run.js';
import { assertDatabaseExists, configOf, failure, outputFor } from '../run.js';

// `arcasync migrate`: the database's tables created or brought up to date; with --status,
// --down or --unlock, one other action on the migrations (README.md, The command line).

const internals = {
    // `migrate --down`: one migration, the last applied. What it drops is said first; on a
    // terminal the operator confirms, elsewhere --yes must say so (a script, a pipe).
    async down(io: CliIo, output: Output, yes: boolean): Promise<void> {

        const { planDatabaseDown, undoDatabaseMigration } = await lazy.database();
        const config = configOf(io);
        await assertDatabaseExists(config);
        const plan = await planDatabaseDown(config);
        if (!plan) {
            output.print(cliMessages.nothingToUndo, { undone: null });
            return;
        }

        const said = cliMessages.downPlan(plan);
        if (!yes) {
            if (!io.stdin.isTTY) {
                throw failure(cliMessages.downNeedsYes(said));
            }

            if (!await confirmed(io, `${said}\n${cliMessages.downQuestion}`)) {
                throw failure(cliMessages.downDeclined);
            }
        }

        const undone = await undoDatabaseMigration(config, plan.name);
        output.print(`${yes ? `${said}\n` : ''}${cliMessages.downDone(undone)}`, { undone, tables: plan.tables, columns: plan.columns });
    }
};

export const registerMigrateCommand = (program: Command, io: CliIo): void => {

    program.command('migrate')
        .description('crea o actualiza las tablas de la base de datos; espera a otra migración en curso. Solo en una base vacía o de arcasync')
        .option('--status', 'lista cada migración, aplicada o pendiente (no escribe nada)')
        .option('--down', 'deshace la última migración aplicada, una sola: dice qué tablas borra y pide confirmación')
        .option('--yes', 'con --down: confirma sin preguntar (obligatorio sin terminal)')
        .option('--unlock', 'libera el bloqueo que dejó una migración cortada a la mitad (no migra)')
        .action(async (options: { status?: boolean; down?: boolean; yes?: boolean; unlock?: boolean }, command: Command) => {

            const output = outputFor(command, io);
            if ([options.status, options.down, options.unlock].filter(Boolean).length > 1) {
                throw failure(cliMessages.migrateOneAction);
            }

            if (options.yes && !options.down) {
                throw failure(cliMessages.migrateYesAlone);
            }

            if (options.unlock) {
                const { unlockDatabaseMigrations } = await lazy.database();
                const config = configOf(io);
                await assertDatabaseExists(config);
                await unlockDatabaseMigrations(config);
                output.print(cliMessages.migrationsUnlocked, { unlocked: true });
                return;
            }

            if (options.status) {
                const { databaseMigrationStates } = await lazy.database();
                const config = configOf(io);
                await assertDatabaseExists(config);
                const states = await databaseMigrationStates(config);
                output.print(cliMessages.migrationStates(databaseLabel(config.databaseUrl), states), {
                    migrations: states.map((state) => ({ name: state.name, applied: state.batch !== null, batch: state.batch }))
                });
                return;
            }

            if (options.down) {
                await internals.down(io, output, Boolean(options.yes));
                return;
            }

            const [{ default: ora }, { migrateDatabase }] = await Promise.all([lazy.spinner(), lazy.database()]);
            // Off a terminal ora would still print its text once: quiet instead.
            const enabled = Boolean(io.stderr.isTTY) && !output.json;
            const spinner = ora({ text: 'Aplicando migraciones…', isEnabled: enabled, isSilent: !enabled, stream: io.stderr as NodeJS.WritableStream }).start();
            const config = configOf(io);
            try {
                const applied = await migrateDatabase(config);
                spinner.stop();
                output.print(applied.length ? `Migraciones aplicadas: ${applied.join(', ')}` : 'La base de datos ya estaba al día.', { applied });
            }
            finally {
                spinner.stop();
            }
        });
};
