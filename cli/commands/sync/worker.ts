import type { Command } from 'commander';
import { startWebhookWorker } from '../../../app/webhooks.js';
import type { CliIo } from '../../io.js';
import { lazy } from '../../lazy.js';
import { counted } from '../../messages.js';
import { defaultWorkerConcurrency, openApp, outputFor, workerConcurrency } from '../../run.js';
import { jsonLine } from '../../terminal-text.js';

// `arcasync sync worker`: takes jobs from the queue until SIGTERM, the outbox's deliveries
// beside it; under --json one line per job.

const internals = {
    defaultLeaseMs: 5 * 60_000,

    positiveMs(raw: string | undefined, fallback: number, unit = 1000): number {

        const value = raw === undefined ? NaN : Number(raw);
        return Number.isFinite(value) && value > 0 ? Math.round(value * unit) : fallback;
    }
};

export const addSyncWorker = (sync: Command, io: CliIo): void => {

    sync.command('worker')
        .description('trabajador de larga duración: toma trabajos de la cola hasta recibir SIGTERM (pueden correr muchos a la vez)')
        .option('--concurrency <n>', `CUIT a la vez (${defaultWorkerConcurrency})`)
        .option('--lease-seconds <s>', 'duración de la reserva de un trabajo, renovada mientras corre', String(internals.defaultLeaseMs / 1000))
        .option('--poll-seconds <s>', 'espera entre consultas a la cola vacía', '1')
        .action(async (options: { concurrency?: string; leaseSeconds?: string; pollSeconds?: string }, command: Command) => {

            const output = outputFor(command, io);
            const [{ checkAuthorityFor, startSyncWorker }, { observeJob, startProcessMetrics }] = await Promise.all([lazy.worker(), lazy.metrics()]);
            const app = await openApp(io);
            try {
                await checkAuthorityFor(app);
                // `sync worker --concurrency N` may land on the parent's option (see status).
                const concurrency = workerConcurrency(
                    options.concurrency ?? (command.parent?.opts() as { concurrency?: string } | undefined)?.concurrency
                );
                const event = (data: object) => {

                    if (output.json) {
                        io.stdout.write(`${jsonLine(data)}\n`);
                    }
                };

                const metrics = await startProcessMetrics(app);
                const worker = startSyncWorker(app, {
                    concurrency,
                    leaseMs: internals.positiveMs(options.leaseSeconds, internals.defaultLeaseMs),
                    pollMs: internals.positiveMs(options.pollSeconds, 1000),
                    onStart: (start) => event({ event: 'start', ...start }),
                    onResult: (result) => {

                        if (metrics) {
                            observeJob(metrics.metrics, result);
                        }

                        event({
                            event: 'end',
                            jobId: result.jobId,
                            clientId: result.clientId,
                            cuit: result.cuit,
                            outcome: result.outcome,
                            disposition: result.disposition,
                            invoices: result.invoices,
                            at: result.endedAt
                        });
                    }
                });

                if (output.json) {
                    event({ event: 'ready', pid: process.pid, concurrency });
                }
                else {
                    io.stderr.write(`Trabajador de sincronización en marcha (concurrencia ${concurrency}); SIGTERM lo detiene.\n`);
                }

                // A graceful stop: no new jobs; running ones stop before their next system and
                // are given back to the queue. Listened for before anything else is awaited, since
                // the worker already runs jobs.
                const off = io.onStop(() => void worker.stop());
                // The outbox's deliveries run beside the sync (app/webhooks.ts).
                const deliveries = startWebhookWorker(app);
                const summary = await worker.done;
                off();
                await deliveries.stop();
                metrics?.close();
                await app.authority.close();
                output.print(`Trabajador detenido: ${counted(summary.jobs, 'trabajo', 'trabajos')}, ${summary.synced} ${summary.synced === 1 ? 'sincronizado' : 'sincronizados'}, ${summary.failed} con fallas.`, { event: 'stopped', ...summary });
            }
            finally {
                await app.close().catch(() => undefined);
            }
        });
};
