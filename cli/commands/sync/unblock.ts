import type { Command } from 'commander';
import { clearNewKeyWait } from '../../../core/use-cases/sync/sync-status.js';
import type { CliIo } from '../../io.js';
import { cliMessages } from '../../messages.js';
import { outputFor, withApp } from '../../run.js';

// `arcasync sync unblock <cuit>`: the CUIT's new keys may be tried at ARCA again this week.
export const addSyncUnblock = (sync: Command, io: CliIo): void => {

    sync.command('unblock <cuit>')
        .description('staff: las claves nuevas del CUIT pueden volver a probarse en ARCA (reinicia el cupo semanal de intentos)')
        .action(async (cuit: string, _options: unknown, command: Command) => {

            const result = await withApp(io, (app) => clearNewKeyWait({ clock: app.ports.clock, loginLedger: app.ports.loginLedger }, { cuit }));
            outputFor(command, io).print(cliMessages.newKeysUnblocked(result.cuit), result);
        });
};
