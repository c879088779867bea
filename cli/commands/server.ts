import type { Command } from 'commander';
import ora from 'ora';
import { composeApp } from '../../app/compose.js';
import type { App } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { seedDemo } from '../../app/demo.js';
import { createLogger } from '../../app/logger.js';
import { assertSecretKeyConfigured } from '../../app/secret-keys.js';
import { connect, migrateLatest } from '../../adapters/knex/index.js';
import type { JobResult } from '../../core/use-cases/sync/run-job.js';
import { createHttpServer } from '../../servers/http/server.js';
import type { ProcessMetrics } from '../metrics.js';
import { observeJob, startProcessMetrics } from '../metrics.js';
import { fail, outputFor } from '../run.js';
import { startSyncWorker, syncNow } from './sync.js';

const internals = {

    async serve(app: App, options: { host?: string; port?: string }, beforeStop?: () => Promise<unknown>, metrics?: ProcessMetrics | null) {

        const host = options.host ?? app.config.host;
        const port = options.port === undefined ? app.config.port : Number(options.port);
        const server = await createHttpServer(app.ports, {
            host,
            port,
            // Without PUBLIC_URL the server advertises the address it listens on (--port included).
            ...(app.config.publicUrlSet ? { publicUrl: app.config.publicUrl } : {}),
            logger: createLogger({ level: app.config.logLevel }),
            ...(metrics ? { metrics: metrics.metrics } : {})
        });
        await server.start();

        // On SIGTERM: stop taking jobs and give back their leases, finish in-flight requests,
        // then release the database.
        const stop = async () => {

            await beforeStop?.();
            await server.stop({ timeout: 10_000 });
            metrics?.close();
            await app.close();
            process.exit(0);
        };

        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
        return server.info.uri;
    }
};

export const registerServerCommands = (program: Command): void => {

    program.command('migrate')
        .description('crea o actualiza las tablas de la base de datos')
        .action(async (_options: object, command: Command) => {

            const output = outputFor(command);
            const spinner = ora({ text: 'Aplicando migraciones…', isEnabled: process.stderr.isTTY && !output.json }).start();
            const knex = connect(loadConfig().databaseUrl);
            try {
                const applied = await migrateLatest(knex);
                spinner.stop();
                output.print(applied.length ? `Migraciones aplicadas: ${applied.join(', ')}` : 'La base de datos ya estaba al día.', { applied });
            }
            catch (err) {
                spinner.stop();
                fail(err);
            }
            finally {
                await knex.destroy();
            }
        });

    program.command('serve')
        .description('sirve la API REST')
        .option('--host <host>', 'dirección donde escuchar')
        .option('--port <port>', 'puerto')
        .option('--worker', 'también sincroniza: un trabajador de la cola en este proceso')
        .option('--concurrency <n>', 'con --worker: CUIT a la vez', '8')
        .action(async (options: { host?: string; port?: string; worker?: boolean; concurrency: string }, command: Command) => {

            try {
                const config = loadConfig();
                assertSecretKeyConfigured(config);
                const app = await composeApp(config);
                const metrics = await startProcessMetrics(app);
                const observe = metrics ? { onResult: (result: JobResult) => observeJob(metrics.metrics, result) } : {};
                const worker = options.worker ? startSyncWorker(app, { concurrency: Number(options.concurrency) || 8, ...observe }) : null;
                const uri = await internals.serve(app, options, async () => await worker?.stop(), metrics);
                outputFor(command).print(`arcasync escuchando en ${uri}`, { url: uri });
            }
            catch (err) {
                fail(err);
            }
        });

    program.command('demo')
        .description('demostración en la base embebida: cuenta y token de prueba, y la API sirviendo (npm start)')
        .option('--host <host>', 'dirección donde escuchar')
        .option('--port <port>', 'puerto')
        .action(async (options: { host?: string; port?: string }, command: Command) => {

            try {
                // The authority is the simulated one, in this process unless AUTHORITY_URL names one.
                const app = await composeApp(loadConfig({ ...process.env, AUTHORITY: 'simulated' }));
                const output = outputFor(command);
                const demo = await seedDemo(app.ports);
                const first = await syncNow(app, output, { clientIds: null, concurrency: 4 });
                const worker = startSyncWorker(app, { concurrency: 4 });
                const uri = await internals.serve(app, options, async () => await worker.stop());
                output.print([
                    `arcasync escuchando en ${uri}`,
                    `Autoridad simulada; primera sincronización: ${first.synced} CUIT sincronizados, ${first.failed} con fallas, ${first.invoices} comprobantes.`,
                    `Cuenta de demostración ${demo.accountId}, usuario ${demo.email}.`,
                    'Token de acceso (se muestra una sola vez):',
                    `  ${demo.token}`,
                    'Probalo:',
                    `  curl -H "Authorization: Bearer ${demo.token}" ${uri}/v1/cuits`,
                    `  curl -H "Authorization: Bearer ${demo.token}" "${uri}/v1/cuits/${demo.cuits[0]}/mis-comprobantes/emitidos?from_date=${demo.from}&to_date=${demo.to}"`
                ].join('\n'), { url: uri, accountId: demo.accountId, token: demo.token, cuits: demo.cuits, sync: first });
            }
            catch (err) {
                fail(err);
            }
        });
};
