import type { Command } from 'commander';
import { assignClientToUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addUserAssign = (user: Command, io: CliIo): void => {

    user.command('assign')
        .description('asigna un CUIT a un usuario member')
        .requiredOption('--user <id>', 'usuario')
        .requiredOption('--cuit <cuit>', 'CUIT de la cuenta del usuario')
        .action(async (options: { user: string; cuit: string }, command: Command) => {

            const result = await withApp(io, (app) => assignClientToUser(app.ports, { userId: parseId(options.user), cuit: options.cuit }));
            outputFor(command, io).print(`CUIT ${result.cuit} asignado al usuario ${result.userId}`, result);
        });
};
