import type { Command } from 'commander';
import { queueDeps } from '../../../app/sync.js';
import { syncStatus } from '../../../core/use-cases/sync/sync-status.js';
import { undeliveredEvents } from '../../../core/use-cases/webhooks/deliver.js';
import type { CliIo } from '../../io.js';
import { lazy } from '../../lazy.js';
import { cliMessages } from '../../messages.js';
import { outputFor, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';
import { describeStatus } from './describe.js';

// `arcasync sync status`: each system's last success and last error, each CUIT's health, and
// what waits (ARCA pages of an unknown shape, webhook events).
export const addSyncStatus = (sync: Command, io: CliIo): void => {

    sync.command('status')
        .description('último éxito y último error por sistema')
        .option('--cuit <cuit>', 'un CUIT')
        .action(async (options: { cuit?: string }, command: Command) => {

            // Commander hands `sync status --cuit C` to the parent's --cuit when the program's
            // options are not positional: take it from there.
            const cuit = options.cuit ?? (command.parent?.opts() as { cuit?: string[] } | undefined)?.cuit?.at(-1);
            const [{ healthOfClient }, { diagnosticsDirOf, diagnosticsSummary }] = await Promise.all([lazy.cuitHealth(), lazy.authority()]);
            const result = await withApp(io, async (app) => {

                const status = await syncStatus(
                    { ...queueDeps(app), syncStates: app.ports.syncStates, loginLedger: app.ports.loginLedger },
                    { cuit, weeklyWrongCap: app.config.fleet.wrongKeysPerWeek }
                );
                const withHealth = 'clients' in status ? {
                    ...status,
                    clients: await Promise.all(status.clients.map(async (client) => ({
                        ...client,
                        estado: await healthOfClient(app.ports, client.accountId, client.clientId)
                    })))
                } : status;
                return {
                    ...withHealth,
                    unknownPages: diagnosticsSummary(diagnosticsDirOf(app.config.dataDir)),
                    webhooksWaiting: await undeliveredEvents(app.ports)
                };
            });
            const pages = result.unknownPages.captured ? `\nPáginas de ARCA con forma desconocida guardadas: ${result.unknownPages.captured} en ${visible(result.unknownPages.dir)} (última: ${visible(result.unknownPages.latest ?? '')})` : '';
            const waiting = result.webhooksWaiting.events ? `\n${cliMessages.webhooksWaiting(result.webhooksWaiting.events, result.webhooksWaiting.oldestAt!)}` : '';
            outputFor(command, io).print(`${describeStatus(result)}${pages}${waiting}`, result);
        });
};
