import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { messages } from '../../core/domain/messages.js';
import { setPassword } from '../../core/use-cases/staff/set-password.js';
import { serveStdio } from '../../servers/mcp/stdio.js';
import { fail, outputFor, parseId, withApp } from '../run.js';

// `arcasync mcp`: the MCP tools over stdio as the user of ARCASYNC_TOKEN; and
// `arcasync user set-password`, the password that user signs in with to authorize MCP
// clients over OAuth.

const internals = {
    // stdout carries the protocol: anything else goes to stderr.
    log: (event: Record<string, unknown>) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`),

    // The password from --password or, so it stays out of shell history, from stdin.
    password(option: string | undefined): string {

        if (option !== undefined) {
            return option;
        }

        return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
    }
};

export const registerMcpCommands = (program: Command): void => {

    program.command('mcp')
        .description('servidor MCP por stdio (las cinco herramientas de solo lectura) como el usuario de ARCASYNC_TOKEN')
        .action(async () => {

            const token = process.env.ARCASYNC_TOKEN;
            if (!token) {
                return fail(new Error(messages.mcp.noToken));
            }

            try {
                const app = await composeApp(loadConfig());
                const server = await serveStdio(app.ports, token, internals.log).catch(async (err: unknown) => {

                    await app.close();
                    throw err;
                });

                const stop = async () => {

                    await server.close().catch(() => undefined);
                    await app.close();
                    process.exit(0);
                };

                process.stdin.once('end', stop);
                process.stdin.once('close', stop);
                process.once('SIGTERM', stop);
                process.once('SIGINT', stop);
            }
            catch (err) {
                fail(err);
            }
        });

    const user = program.commands.find((command) => command.name() === 'user') ?? program.command('user').description('usuarios de una cuenta');
    user.command('set-password')
        .description('define la contraseña con la que el usuario autoriza clientes MCP (OAuth); se lee de stdin si no se pasa --password')
        .requiredOption('--user <id>', 'usuario')
        .option('--password <password>', 'contraseña (preferí pasarla por stdin)')
        .action(async (options: { user: string; password?: string }, command: Command) => {

            const result = await withApp((app) => setPassword(app.ports, { userId: parseId(options.user), password: internals.password(options.password) }));
            outputFor(command).print(`Contraseña actualizada para el usuario ${result.id}`, result);
        });
};
