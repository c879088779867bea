import type { Command } from 'commander';
import { inviteUser } from '../../../core/use-cases/staff/invite-user.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { invitationLines } from './link.js';

// The panel's "agregar usuario": the user without a password, and the link that sets it.
export const addUserInvite = (user: Command, io: CliIo): void => {

    user.command('invite')
        .description('agrega un usuario sin contraseña y muestra una sola vez el enlace para definirla (7 días, un solo uso); no se envía email. ' +
            'Un email de otra cuenta se invita como cualquier otro: el enlace lo rechaza a quien ya ingresa con él')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--email <email>', 'email')
        .option('--role <role>', 'owner | member', 'member')
        .action(async (options: { account: string; email: string; role: string }, command: Command) => {

            const result = await withApp(io, async (app) => {

                const invited = await inviteUser(app.ports, { accountId: parseId(options.account), email: options.email, role: options.role });
                return { ...invited, link: `${app.config.publicUrl}/panel/invitacion/${invited.token}` };
            });
            outputFor(command, io).print(`Usuario creado: ${result.id}\n${invitationLines(result)}`, {
                id: result.id, link: result.link, expiresAt: new Date(result.expiresAt).toISOString()
            });
        });
};
