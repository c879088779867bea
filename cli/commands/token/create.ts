import type { Command } from 'commander';
import { createToken } from '../../../core/use-cases/staff/create-token.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addTokenCreate = (token: Command, io: CliIo): void => {

    token.command('create')
        .description('crea un token; se muestra una sola vez')
        .requiredOption('--user <id>', 'usuario')
        .option('--name <name>', 'nombre para reconocerlo')
        .action(async (options: { user: string; name?: string }, command: Command) => {

            const result = await withApp(io, (app) => createToken(app.ports, { userId: parseId(options.user), name: options.name }));
            outputFor(command, io).print(`Token ${result.id} (se muestra una sola vez):\n${result.token}`, result);
        });
};
