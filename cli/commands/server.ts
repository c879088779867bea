import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { stopRequested } from '../io.js';
import { syncSpinner } from '../progress.js';
import type { Output } from '../run.js';
import { assertDatabaseExists, configOf, defaultWorkerConcurrency, failure, openApp, outputFor, workerConcurrency } from '../run.js';
import { cliMessages, counted } from '../messages.js';

// `migrate`, `serve` and `demo` (npm start). The serving process is app/server.ts; these
// commands print where it listens and stop it when asked (SIGTERM, SIGINT).

const internals = {
    // --port as typed: a whole number a socket can listen on (0: any free one), said in Spanish
    // before the server's own English refusal.
    port(raw: string | undefined): number | undefined {

        if (raw === undefined) {
            return undefined;
        }

        const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
        if (!(port <= 65_535)) {
            throw failure(cliMessages.invalidPort);
        }

        return port;
    },

    // `migrate --down`: one migration, the last applied. What it drops is said first; on a
    // terminal the operator confirms, elsewhere --yes must say so (a script, a pipe).
    async down(io: CliIo, output: Output, yes: boolean): Promise<void> {

        const [{ planDatabaseDown, undoDatabaseMigration }, config] = await Promise.all([import('../../app/database.js'), configOf(io)]);
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

            const { confirmed } = await import('../confirm.js');
            if (!await confirmed(io, `${said}\n${cliMessages.downQuestion}`)) {
                throw failure(cliMessages.downDeclined);
            }
        }

        const undone = await undoDatabaseMigration(config, plan.name);
        output.print(`${yes ? `${said}\n` : ''}${cliMessages.downDone(undone)}`, { undone, tables: plan.tables, columns: plan.columns });
    }
};

export const registerServerCommands = (program: Command, io: CliIo): void => {

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
                const [{ unlockDatabaseMigrations }, config] = await Promise.all([import('../../app/database.js'), configOf(io)]);
                await assertDatabaseExists(config);
                await unlockDatabaseMigrations(config);
                output.print(cliMessages.migrationsUnlocked, { unlocked: true });
                return;
            }

            if (options.status) {
                const [{ databaseMigrationStates }, { databaseLabel }, config] = await Promise.all([import('../../app/database.js'), import('../../app/config.js'), configOf(io)]);
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

            const [{ default: ora }, { migrateDatabase }] = await Promise.all([import('ora'), import('../../app/database.js')]);
            // Off a terminal ora would still print its text once: quiet instead.
            const enabled = Boolean(io.stderr.isTTY) && !output.json;
            const spinner = ora({ text: 'Aplicando migraciones…', isEnabled: enabled, isSilent: !enabled, stream: io.stderr as NodeJS.WritableStream }).start();
            const config = await configOf(io);
            try {
                const applied = await migrateDatabase(config);
                spinner.stop();
                output.print(applied.length ? `Migraciones aplicadas: ${applied.join(', ')}` : 'La base de datos ya estaba al día.', { applied });
            }
            finally {
                spinner.stop();
            }
        });

    program.command('serve')
        .description('sirve la API REST y /mcp: el servicio en producción (la demostración es npm start)')
        .option('--host <host>', 'dirección donde escuchar')
        .option('--port <port>', 'puerto')
        .option('--worker', 'también sincroniza: un trabajador de la cola en este proceso')
        .option('--concurrency <n>', `con --worker: CUIT a la vez (${defaultWorkerConcurrency})`)
        .action(async (options: { host?: string; port?: string; worker?: boolean; concurrency?: string }, command: Command) => {

            const port = internals.port(options.port);
            const worker = options.worker ? { concurrency: await workerConcurrency(options.concurrency) } : null;
            const { assertSecretKeyConfigured } = await import('../../app/secret-keys.js');
            const config = await configOf(io);
            assertSecretKeyConfigured(config);
            const stopping = stopRequested(io);
            const { servingBusyTimeoutMs } = await import('../../app/database.js');
            // The database before the server's modules (hapi, OAuth, MCP): one that cannot be
            // used is said at once.
            const app = await openApp(io, { config, pool: { busyTimeoutMs: servingBusyTimeoutMs } });
            const { startServing } = await import('../../app/server.js');
            const serving = await startServing(app, {
                ...(options.host ? { host: options.host } : {}),
                ...(port === undefined ? {} : { port }),
                worker
            });
            outputFor(command, io).print(`arcasync escuchando en ${serving.url}`, { url: serving.url });
            await stopping;
            await serving.stop();
        });

    program.command('demo')
        .description(
            'demostración (npm start): cuenta, token y autoridad de prueba sobre una base vacía o suya; nunca toca otra base. En producción: arcasync serve'
        )
        .option('--host <host>', 'dirección donde escuchar')
        .option('--port <port>', 'puerto')
        .action(async (options: { host?: string; port?: string }, command: Command) => {

            const port = internals.port(options.port);
            const { checkDemo, demoRelations, startDemo } = await import('../../app/demo.js');
            const output = outputFor(command, io);
            const stopping = stopRequested(io);
            // The authority is the simulated one, in this process unless AUTHORITY_URL names one.
            const config = await configOf(io, { ...io.env, AUTHORITY: 'simulated' });
            await checkDemo(config, { host: options.host ?? config.host, port: port ?? config.port });
            const { servingBusyTimeoutMs } = await import('../../app/database.js');
            const app = await openApp(io, { config, create: true, pool: { busyTimeoutMs: servingBusyTimeoutMs }, authorityRelations: demoRelations() });
            const spinner = await syncSpinner(io, output);
            let run: Awaited<ReturnType<typeof startDemo>>;
            try {
                run = await startDemo(app, {
                    ...(options.host ? { host: options.host } : {}),
                    ...(port === undefined ? {} : { port }),
                    onProgress: spinner.update
                });
            }
            catch (err) {
                await app.close().catch(() => undefined);
                throw err;
            }
            finally {
                spinner.stop();
            }

            const { demo, first, serving } = run;
            const uri = serving.url;
            output.print([
                `arcasync escuchando en ${uri}`,
                `Panel: ${uri}/panel (usuario ${demo.email}, contraseña ${demo.password})`,
                `Documentación de la API: ${uri}/docs`,
                `Autoridad simulada; primera sincronización: ${first.synced} CUIT ${first.synced === 1 ? 'sincronizado' : 'sincronizados'}, ${first.failed} con error, ${counted(first.invoices, 'comprobante', 'comprobantes')}.`,
                `Cuenta de demostración ${demo.accountId}: usuario ${demo.email}, contraseña ${demo.password} (nueva en cada inicio).`,
                'Token de acceso (se muestra una sola vez):',
                `  ${demo.token}`,
                'Probalo:',
                `  curl -H "Authorization: Bearer ${demo.token}" ${uri}/v1/cuits`,
                `  curl -H "Authorization: Bearer ${demo.token}" "${uri}/v1/cuits/${demo.cuits[0]}/mis-comprobantes/emitidos?from_date=${demo.from}&to_date=${demo.to}"`,
                `MCP: ${uri}/mcp (el cliente abre el inicio de sesión: entrá con ${demo.email} y la contraseña de arriba; o usá el token como Bearer).`,
                'Para detenerlo: Ctrl+C.'
            ].join('\n'), { url: uri, panel: `${uri}/panel`, docs: `${uri}/docs`, mcp: `${uri}/mcp`, accountId: demo.accountId, email: demo.email, password: demo.password, token: demo.token, cuits: demo.cuits, sync: first });
            await stopping;
            await serving.stop();
        });
};
