import type { Command } from 'commander';
import ora from 'ora';
import { composeApp } from '../../app/compose.js';
import type { App } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { seedDemo } from '../../app/demo.js';
import { connect, migrateLatest } from '../../adapters/knex/index.js';
import { createHttpServer } from '../../servers/http/server.js';
import { fail, outputFor } from '../run.js';

const internals = {

    async serve(app: App, options: { host?: string; port?: string }) {

        const host = options.host ?? app.config.host;
        const port = options.port === undefined ? app.config.port : Number(options.port);
        const server = await createHttpServer(app.ports, { host, port });
        await server.start();

        // Finish in-flight requests, then release the database.
        const stop = async () => {

            await server.stop({ timeout: 10_000 });
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
        .action(async (options: { host?: string; port?: string }, command: Command) => {

            try {
                const app = await composeApp(loadConfig());
                const uri = await internals.serve(app, options);
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
                const app = await composeApp(loadConfig());
                const demo = await seedDemo(app.ports);
                const uri = await internals.serve(app, options);
                outputFor(command).print([
                    `arcasync escuchando en ${uri}`,
                    `Cuenta de demostración ${demo.accountId}, usuario ${demo.email}.`,
                    'Token de acceso (se muestra una sola vez):',
                    `  ${demo.token}`,
                    'Probalo:',
                    `  curl -H "Authorization: Bearer ${demo.token}" ${uri}/v1/cuits`
                ].join('\n'), { url: uri, accountId: demo.accountId, token: demo.token });
            }
            catch (err) {
                fail(err);
            }
        });
};
