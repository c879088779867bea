import type { Command } from 'commander';
import { unassignClientFromUser } from '../../../core/use-cases/staff/assign-client-to-user.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addUserUnassign = (user: Command, io: CliIo): void => {

    user.command('unassign')
        .description('quita un CUIT a un usuario member (deja de verlo en el acto)')
        .requiredOption('--user <id>', 'usuario')
        .requiredOption('--cuit <cuit>', 'CUIT de la cuenta del usuario')
        .action(async (options: { user: string; cuit: string }, command: Command) => {

            const result = await withApp(io, (app) => unassignClientFromUser(app.ports, { userId: parseId(options.user), cuit: options.cuit }));
            outputFor(command, io).print(`CUIT ${result.cuit} quitado al usuario ${result.userId}`, result);
        });
};
