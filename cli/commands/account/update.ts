import type { Command } from 'commander';
import { updateAccount } from '../../../core/use-cases/staff/update-account.js';
import type { CliIo } from '../../io.js';
import { cliLabels, labelOf } from '../../messages.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addAccountUpdate = (account: Command, io: CliIo): void => {

    account.command('update <id>')
        .description('cambia la escritura por API o el estado de la suscripción')
        .option('--writing', 'habilita la escritura por API')
        .option('--no-writing', 'deshabilita la escritura por API')
        .option('--subscription <state>', 'active | paused | ended | inactive')
        .action(async (id: string, options: { writing?: boolean; subscription?: string }, command: Command) => {

            const result = await withApp(io, (app) => updateAccount(app.ports, {
                id: parseId(id),
                writingEnabled: options.writing,
                subscription: options.subscription
            }));
            outputFor(command, io).print(`Cuenta ${result.id}: escritura ${result.writingEnabled ? 'habilitada' : 'deshabilitada'}, suscripción ${labelOf(cliLabels.subscription, result.subscription)}`, result);
        });
};
