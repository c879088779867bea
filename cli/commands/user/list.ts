import type { Command } from 'commander';
import { listUsers } from '../../../core/use-cases/staff/list-users.js';
import type { CliIo } from '../../io.js';
import { cliLabels, labelOf } from '../../messages.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

export const addUserList = (user: Command, io: CliIo): void => {

    user.command('list')
        .description('los usuarios de una cuenta (de todas si no se indica): id, email, rol')
        .option('--account <id>', 'cuenta')
        .action(async (options: { account?: string }, command: Command) => {

            const result = await withApp(io, (app) => listUsers(app.ports, {
                accountId: options.account === undefined ? undefined : parseId(options.account)
            }));
            const lines = result.users.map((item) => `  ${item.id}  ${visible(item.email)}  ${labelOf(cliLabels.role, item.role)}  cuenta ${item.accountId}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin usuarios)', result);
        });
};
