import type { Command } from 'commander';
import { renewInvitation } from '../../../core/use-cases/staff/invite-user.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

// What `user invite` and `user link` print of a link: shown once, like a token.
export const invitationLines = (link: { link: string; expiresAt: number }): string => (
    `Enlace para definir la contraseña (se muestra una sola vez; vence el ${new Date(link.expiresAt).toISOString()} o al usarse):\n${link.link}`
);

// Another link for a user who has not set a password yet; the earlier one ends.
export const addUserLink = (user: Command, io: CliIo): void => {

    user.command('link')
        .description('genera un enlace nuevo para que un usuario sin contraseña la defina (anula el anterior)')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const result = await withApp(io, async (app) => {

                const renewed = await renewInvitation(app.ports, { userId: parseId(options.user) });
                return { ...renewed, link: `${app.config.publicUrl}/panel/invitacion/${renewed.token}` };
            });
            outputFor(command, io).print(invitationLines(result), { id: result.id, link: result.link, expiresAt: new Date(result.expiresAt).toISOString() });
        });
};
