import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addCalendarioCrear } from './crear.js';
import { addCalendarioRevocar } from './revocar.js';

// `arcasync calendario …`: a user's private iCalendar address of the agenda (docs/answers.md),
// printed once when made; until the panel shows it.
export const registerCalendarioCommands = (program: Command, io: CliIo): void => {

    const calendar = program.command('calendario').description('la dirección privada (iCalendar) de la agenda de vencimientos de un usuario');
    for (const add of [addCalendarioCrear, addCalendarioRevocar]) {
        add(calendar, io);
    }
};
