import type { Command } from 'commander';
import { listAccounts } from '../../../core/use-cases/staff/list-accounts.js';
import type { CliIo } from '../../io.js';
import { cliLabels, counted, labelOf } from '../../messages.js';
import { outputFor, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

export const addAccountList = (account: Command, io: CliIo): void => {

    account.command('list')
        .description('todas las cuentas: id, nombre, suscripción, escritura, CUIT y usuarios')
        .action(async (_options: object, command: Command) => {

            const result = await withApp(io, (app) => listAccounts(app.ports));
            const lines = result.accounts.map((item) => `  ${item.id}  ${visible(item.name)} · suscripción ${labelOf(cliLabels.subscription, item.subscription)} · escritura ${item.writingEnabled ? 'habilitada' : 'deshabilitada'} · ${item.cuitCount} CUIT · ${counted(item.userCount, 'usuario', 'usuarios')}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin cuentas)', result);
        });
};
