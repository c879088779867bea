import type { Command } from 'commander';
import { removeUser } from '../../../core/use-cases/staff/remove-user.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addUserRemove = (user: Command, io: CliIo): void => {

    user.command('remove')
        .description('elimina un usuario: sus tokens de la API, sesiones del panel y autorizaciones OAuth terminan en el acto (la cuenta conserva al menos un owner)')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const result = await withApp(io, (app) => removeUser(app.ports, { userId: parseId(options.user) }));
            outputFor(command, io).print(`Usuario ${result.id} eliminado; sus tokens, sesiones y autorizaciones OAuth quedaron revocados`, { id: result.id, removed: true });
        });
};
