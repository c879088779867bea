import type { Command } from 'commander';
import { queueDeps } from '../../../app/sync.js';
import { deliverDueNow } from '../../../app/webhooks.js';
import { enqueueSync } from '../../../core/use-cases/sync/enqueue-sync.js';
import type { CliIo } from '../../io.js';
import { lazy } from '../../lazy.js';
import { cliMessages } from '../../messages.js';
import { syncSpinner } from '../../progress.js';
import { defaultWorkerConcurrency, exitCodes, failure, outputFor, parseId, withApp, workerConcurrency } from '../../run.js';
import { visible } from '../../terminal-text.js';

// `arcasync sync`: the given CUITs, the due ones or all, synced now (for cron), then what is due
// in the outbox delivered. The parent of `sync worker`, `sync status` and `sync unblock`.

const internals = {
    collect: (value: string, previous: string[] = []): string[] => [...previous, value]
};

export const registerSyncCommand = (program: Command, io: CliIo): Command => program.command('sync')
    .description('sincroniza ahora con ARCA (para cron): los CUIT indicados, los vencidos o todos')
    .option('--cuit <cuit>', 'un CUIT a sincronizar (repetible)', internals.collect)
    .option('--due', 'los CUIT cuya última sincronización tiene más de un día')
    .option('--all', 'todos los CUIT')
    .option('--account <id>', 'con --cuit: la cuenta cuyo cliente se sincroniza (obligatoria si varias cuentas gestionan el CUIT)')
    .option('--concurrency <n>', `CUIT a la vez (${defaultWorkerConcurrency})`)
    .action(async (options: { cuit?: string[]; due?: boolean; all?: boolean; account?: string; concurrency?: string }, command: Command) => {

        const output = outputFor(command, io);
        const { syncNow } = await lazy.worker();
        const accountId = options.account === undefined ? undefined : parseId(options.account);
        const summary = await withApp(io, async (app) => {

            const concurrency = workerConcurrency(options.concurrency);
            const { clientIds } = await enqueueSync({ ...queueDeps(app), accounts: app.ports.accounts }, {
                cuits: options.cuit ?? [],
                accountId,
                all: options.all ?? false,
                due: options.due ?? false,
                window: app.config.fleet.window
            });
            const spinner = await syncSpinner(io, output);
            const stop = new AbortController();
            const off = io.onStop(() => stop.abort());
            try {
                const run = await syncNow(app, { clientIds, concurrency, onProgress: spinner.update, signal: stop.signal });
                spinner.stop();
                // What is due in the outbox goes out before the command exits: a cron-only
                // installation has no worker to deliver it.
                const webhooks = await deliverDueNow(app, {
                    signal: stop.signal,
                    onStart: (capMs) => {

                        if (!output.json) {
                            io.stderr.write(`${cliMessages.webhooksDelivering(capMs)}\n`);
                        }
                    }
                });
                return { ...run, webhooks };
            }
            finally {
                off();
                spinner.stop();
                await app.authority.close();
            }
        });

        const lines = [cliMessages.syncSummary(summary)];
        for (const failed of summary.failures) {
            lines.push(`  ${failed.cuit ?? '?'}: ${visible(failed.error ?? '')}`);
        }

        if (summary.otherWorkers) {
            lines.push(cliMessages.syncByOthers(summary.otherWorkers));
        }

        if (summary.webhooks.delivered || summary.webhooks.notDelivered) {
            lines.push(cliMessages.webhooksDelivered(summary.webhooks));
        }

        output.print(lines.join('\n'), summary);
        if (summary.failed) {
            throw failure(cliMessages.syncFailed(summary.failed), exitCodes.syncFailures);
        }
    });
