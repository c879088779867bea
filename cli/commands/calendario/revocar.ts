import type { Command } from 'commander';
import { revokeCalendarFeed } from '../../../core/use-cases/calendar-feed.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addCalendarioRevocar = (calendar: Command, io: CliIo): void => {

    calendar.command('revocar')
        .description('revoca la dirección del usuario: deja de responder al instante')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const result = await withApp(io, (app) => revokeCalendarFeed(app.ports, parseId(options.user)));
            outputFor(command, io).print(result.revoked ? 'Dirección del calendario revocada.' : 'El usuario no tenía una dirección de calendario.', result);
        });
};
