import type { Command } from 'commander';
import { createCalendarFeed } from '../../../core/use-cases/calendar-feed.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addCalendarioCrear = (calendar: Command, io: CliIo): void => {

    calendar.command('crear')
        .description('crea la dirección del usuario (reemplaza la anterior); se muestra una sola vez')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const result = await withApp(io, async (app) => ({
                url: `${app.config.publicUrl}/calendario/${(await createCalendarFeed(app.ports, parseId(options.user))).token}.ics`
            }));
            outputFor(command, io).print(`Dirección del calendario (se muestra una sola vez; quien la tenga ve la agenda del usuario):\n${result.url}`, result);
        });
};
