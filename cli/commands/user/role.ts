import type { Command } from 'commander';
import { changeUserRole } from '../../../core/use-cases/staff/change-user-role.js';
import type { CliIo } from '../../io.js';
import { cliLabels, labelOf } from '../../messages.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addUserRole = (user: Command, io: CliIo): void => {

    user.command('role')
        .description('cambia el rol de un usuario (la cuenta conserva al menos un owner)')
        .requiredOption('--user <id>', 'usuario')
        .requiredOption('--role <role>', 'owner | member')
        .action(async (options: { user: string; role: string }, command: Command) => {

            const result = await withApp(io, (app) => changeUserRole(app.ports, { userId: parseId(options.user), role: options.role }));
            outputFor(command, io).print(`Usuario ${result.id}: rol ${labelOf(cliLabels.role, result.role)}`, result);
        });
};
