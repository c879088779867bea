import type { Command } from 'commander';
import { createAccount } from '../../../core/use-cases/staff/create-account.js';
import type { CliIo } from '../../io.js';
import { outputFor, withApp } from '../../run.js';

export const addAccountCreate = (account: Command, io: CliIo): void => {

    account.command('create')
        .description('crea una cuenta')
        .requiredOption('--name <name>', 'nombre de la cuenta')
        .option('--writing', 'habilita la escritura por API')
        .option('--subscription <state>', 'active | paused | ended | inactive', 'active')
        .action(async (options: { name: string; writing?: boolean; subscription: string }, command: Command) => {

            const result = await withApp(io, (app) => createAccount(app.ports, {
                name: options.name,
                writingEnabled: Boolean(options.writing),
                subscription: options.subscription
            }));
            outputFor(command, io).print(`Cuenta creada: ${result.id}`, result);
        });
};
