import type { Command } from 'commander';
import { assertSecretKeyConfigured } from '../../app/secret-keys.js';
import type { CliIo } from '../io.js';
import { stopRequested } from '../io.js';
import { lazy } from '../lazy.js';
import { configOf, defaultWorkerConcurrency, openApp, outputFor, parsePort, workerConcurrency } from '../run.js';

// `arcasync serve`: the service in production. The serving process is app/server.ts; this
// command prints where it listens and stops it when asked (SIGTERM, SIGINT).
export const registerServeCommand = (program: Command, io: CliIo): void => {

    program.command('serve')
        .description('sirve la API REST y /mcp: el servicio en producción (la demostración es npm start)')
        .option('--host <host>', 'dirección donde escuchar')
        .option('--port <port>', 'puerto')
        .option('--worker', 'también sincroniza: un trabajador de la cola en este proceso')
        .option('--concurrency <n>', `con --worker: CUIT a la vez (${defaultWorkerConcurrency})`)
        .action(async (options: { host?: string; port?: string; worker?: boolean; concurrency?: string }, command: Command) => {

            const port = parsePort(options.port);
            const worker = options.worker ? { concurrency: workerConcurrency(options.concurrency) } : null;
            const config = configOf(io);
            assertSecretKeyConfigured(config);
            const stopping = stopRequested(io);
            const { servingBusyTimeoutMs } = await lazy.database();
            // The database before the server's modules (hapi, OAuth, MCP): one that cannot be
            // used is said at once.
            const app = await openApp(io, { config, pool: { busyTimeoutMs: servingBusyTimeoutMs } });
            const { startServing } = await lazy.server();
            const serving = await startServing(app, {
                ...(options.host ? { host: options.host } : {}),
                ...(port === undefined ? {} : { port }),
                worker
            });
            outputFor(command, io).print(`arcasync escuchando en ${serving.url}`, { url: serving.url });
            await stopping;
            await serving.stop();
        });
};
