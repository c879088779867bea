import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { stopRequested } from '../io.js';
import { readNewPassword } from '../password.js';
import { minPasswordLength } from '../../core/domain/password.js';
import { failure, openApp, outputFor, parseId, withApp } from '../run.js';
import { cliMessages, counted } from '../messages.js';

// `arcasync mcp`: the MCP tools over stdio as the user of ARCASYNC_TOKEN; and
// `arcasync user set-password`, the password that user signs in with to authorize MCP
// clients over OAuth, and `arcasync user revoke-oauth`, which ends those authorizations.

export const registerMcpCommands = (program: Command, io: CliIo): void => {

    program.command('mcp')
        .description('servidor MCP por stdio (las cinco herramientas de solo lectura) como el usuario de ARCASYNC_TOKEN')
        .action(async () => {

            const token = io.env.ARCASYNC_TOKEN;
            if (!token) {
                throw failure(cliMessages.noToken);
            }

            const { serveStdio } = await import('../../servers/mcp/stdio.js');
            // stdout carries the protocol: anything else goes to stderr.
            const log = (event: Record<string, unknown>) => io.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);
            const app = await openApp(io);
            try {
                const server = await serveStdio(app.ports, token, log);
                const ended = new Promise<void>((resolve) => {

                    io.stdin.on('end', resolve);
                    io.stdin.on('close', resolve);
                });
                await Promise.race([ended, stopRequested(io)]);
                await server.close().catch(() => undefined);
            }
            finally {
                await app.close();
            }
        });

    const user = program.commands.find((command) => command.name() === 'user') ?? program.command('user').description('usuarios de una cuenta');
    user.command('set-password')
        .description(
            `define la contraseña (al menos ${minPasswordLength} caracteres) con la que el usuario autoriza clientes MCP (OAuth); ` +
            'en una terminal la pide dos veces sin mostrarla, si no la lee de stdin'
        )
        .requiredOption('--user <id>', 'usuario')
        .option('--password <password>', `contraseña de al menos ${minPasswordLength} caracteres (preferí pasarla por stdin)`)
        .action(async (options: { user: string; password?: string }, command: Command) => {

            const [{ setPassword }, { messages }, { invalid }] = await Promise.all([
                import('../../core/use-cases/staff/set-password.js'),
                import('../../core/domain/messages.js'),
                import('../../core/domain/errors.js')
            ]);
            // The database is checked first, so nobody types a password for nothing.
            const result = await withApp(io, async (app) => {

                const userId = parseId(options.user);
                const password = options.password ?? await readNewPassword(io, {
                    first: cliMessages.passwordPrompt(userId, minPasswordLength),
                    again: cliMessages.passwordAgain
                }, (typed) => {

                    // The core's own rule and message (set-password), said before asking again.
                    if (typed.length < minPasswordLength) {
                        throw invalid([messages.admin.shortPassword(minPasswordLength)]);
                    }
                });
                return setPassword(app.ports, { userId, password });
            });
            outputFor(command, io).print(`Contraseña actualizada para el usuario ${result.id}; sus autorizaciones OAuth (clientes MCP) quedaron revocadas`, result);
        });

    user.command('revoke-oauth')
        .description('revoca todas las autorizaciones OAuth del usuario (clientes MCP): permisos, tokens y sesiones; los tokens de la API no cambian')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const { revokeOAuth } = await import('../../core/use-cases/staff/revoke-oauth.js');
            const result = await withApp(io, async (app) => revokeOAuth(app.ports, { userId: parseId(options.user) }));
            outputFor(command, io).print(`Autorizaciones OAuth del usuario ${result.id} revocadas (${counted(result.revoked, 'registro', 'registros')})`, result);
        });
};
