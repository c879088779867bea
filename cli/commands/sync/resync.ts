import type { Command } from 'commander';
import { queueDeps } from '../../../app/sync.js';
import { forceResync } from '../../../core/use-cases/sync/force-resync.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

// `arcasync resync <cuit>`: a whole resynchronization of one client queued.
export const addResync = (program: Command, io: CliIo): void => {

    program.command('resync <cuit>')
        .description('staff: fuerza una resincronización completa del CUIT')
        .option('--account <id>', 'la cuenta cuyo cliente se resincroniza (obligatoria si varias cuentas gestionan el CUIT)')
        .action(async (cuit: string, options: { account?: string }, command: Command) => {

            const accountId = options.account === undefined ? undefined : parseId(options.account);
            const result = await withApp(io, (app) => forceResync({ ...queueDeps(app), accounts: app.ports.accounts }, { cuit, accountId }));
            outputFor(command, io).print(`Resincronización completa del CUIT ${result.cuit} de la cuenta ${result.accountId} encolada (trabajo ${result.jobs.join(', ')}).`, result);
        });
};
