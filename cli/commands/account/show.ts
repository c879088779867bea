import type { Command } from 'commander';
import { showAccount } from '../../../core/use-cases/staff/show-account.js';
import type { CliIo } from '../../io.js';
import { cliLabels, labelOf } from '../../messages.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

export const addAccountShow = (account: Command, io: CliIo): void => {

    account.command('show <id>')
        .description('usuarios, cantidad de CUIT (facturación) y opciones de la cuenta')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp(io, (app) => showAccount(app.ports, { id: parseId(id) }));
            const users = result.users.map((user) => `  ${user.id}  ${visible(user.email)}  ${labelOf(cliLabels.role, user.role)}`).join('\n') || '  (sin usuarios)';
            outputFor(command, io).print([
                `Cuenta ${result.id}: ${visible(result.name)}`,
                `Suscripción: ${labelOf(cliLabels.subscription, result.subscription)}`,
                `Escritura por API: ${result.writingEnabled ? 'habilitada' : 'deshabilitada'}`,
                `CUIT gestionados: ${result.cuitCount}`,
                'Usuarios:',
                users
            ].join('\n'), result);
        });
};
