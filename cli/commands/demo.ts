import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { stopRequested } from '../io.js';
import { lazy } from '../lazy.js';
import { counted } from '../messages.js';
import { syncSpinner } from '../progress.js';
import { configOf, openApp, outputFor, parsePort } from '../run.js';

// `arcasync demo` (npm start): app/demo.ts seeds and serves; this command prints how to try it
// and stops it when asked (SIGTERM, SIGINT).
export const registerDemoCommand = (program: Command, io: CliIo): void => {

    program.command('demo')
        .description(
            'demostración (npm start): cuenta, token y autoridad de prueba sobre una base vacía o suya; nunca toca otra base. En producción: arcasync serve'
        )
        .option('--host <host>', 'dirección donde escuchar')
        .option('--port <port>', 'puerto')
        .action(async (options: { host?: string; port?: string }, command: Command) => {

            const port = parsePort(options.port);
            const { checkDemo, demoRelations, startDemo } = await lazy.demo();
            const output = outputFor(command, io);
            const stopping = stopRequested(io);
            // The authority is the simulated one, in this process unless AUTHORITY_URL names one.
            const config = configOf(io, { ...io.env, AUTHORITY: 'simulated' });
            await checkDemo(config, { host: options.host ?? config.host, port: port ?? config.port });
            const { servingBusyTimeoutMs } = await lazy.database();
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
