import type { Command } from 'commander';
import { createUser } from '../../../core/use-cases/staff/create-user.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addUserCreate = (user: Command, io: CliIo): void => {

    user.command('create')
        .description('crea un usuario')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--email <email>', 'email')
        .option('--password <password>', 'contraseña para iniciar sesión (MCP con OAuth)')
        .option('--role <role>', 'owner | member', 'owner')
        .action(async (options: { account: string; email: string; password?: string; role: string }, command: Command) => {

            const result = await withApp(io, (app) => createUser(app.ports, {
                accountId: parseId(options.account),
                email: options.email,
                password: options.password,
                role: options.role
            }));
            outputFor(command, io).print(`Usuario creado: ${result.id}`, result);
        });
};
