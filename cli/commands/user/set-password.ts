import type { Command } from 'commander';
import { invalid } from '../../../core/domain/errors.js';
import { messages } from '../../../core/domain/messages.js';
import { minPasswordLength } from '../../../core/domain/password.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import type { CliIo } from '../../io.js';
import { cliMessages } from '../../messages.js';
import { readNewPassword } from '../../password.js';
import { outputFor, parseId, withApp } from '../../run.js';

// The password the user signs in with to authorize MCP clients over OAuth.
export const addUserSetPassword = (user: Command, io: CliIo): void => {

    user.command('set-password')
        .description(
            `define la contraseña (al menos ${minPasswordLength} caracteres) con la que el usuario autoriza clientes MCP (OAuth); ` +
            'en una terminal la pide dos veces sin mostrarla, si no la lee de stdin'
        )
        .requiredOption('--user <id>', 'usuario')
        .option('--password <password>', `contraseña de al menos ${minPasswordLength} caracteres (preferí pasarla por stdin)`)
        .action(async (options: { user: string; password?: string }, command: Command) => {

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
};
