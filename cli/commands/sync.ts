import type { Command } from 'commander';
import type { FleetLogins, KeyLogins, SyncStatusResult } from '../../core/use-cases/sync/sync-status.js';
import { messages } from '../../core/domain/messages.js';
import type { CuitHealthView } from '../../core/use-cases/cuit-health.js';
import { systemNames } from '../../core/domain/health.js';
import type { CliIo } from '../io.js';
import { syncSpinner } from '../progress.js';
import { defaultWorkerConcurrency, exitCodes, failure, openApp, outputFor, parseId, withApp, workerConcurrency } from '../run.js';
import { cliLabels, cliMessages, counted, labelOf } from '../messages.js';
import { jsonLine, visible } from '../terminal-text.js';

// The synchronization commands of the command line (README.md): `sync` (cron), `sync worker`
// (long-running), `sync status`, `resync`. The work happens in app/worker.ts; this module
// parses options and shows progress and results.

const internals = {
    defaultLeaseMs: 5 * 60_000,
    // The widest system label, so that what follows lines up.
    systemWidth: Math.max(...Object.values(cliLabels.system).map((label) => label.length)),

    collect: (value: string, previous: string[] = []): string[] => [...previous, value],

    positiveMs(raw: string | undefined, fallback: number, unit = 1000): number {

        const value = raw === undefined ? NaN : Number(raw);
        return Number.isFinite(value) && value > 0 ? Math.round(value * unit) : fallback;
    }
};

const texts = {
    count: (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`,

    // logins started, passwords posted and re-logins of one key or of all.
    counts(entry: { logins: number; passwordPosts: number; relogins: number }): string {

        return [
            texts.count(entry.logins, 'inicio de sesión', 'inicios de sesión'),
            texts.count(entry.passwordPosts, 'envío de la clave', 'envíos de la clave'),
            texts.count(entry.relogins, 'reingreso', 'reingresos')
        ].join(', ');
    },

    ended: (ended: KeyLogins['ended']): string => (ended
        ? ` Sin más ingresos hoy: ${messages.authority[ended.kind as keyof typeof messages.authority] ?? visible(ended.kind)} (${ended.at})`
        : ''),

    fleet: (logins: FleetLogins): string[] => [
        `Ingresos a ARCA hoy (${logins.day}): ${texts.count(logins.keys, 'clave', 'claves')}, ${texts.counts(logins)}; ${
            texts.count(logins.ended, 'clave', 'claves')} sin más ingresos hoy.`,
        ...logins.notable.map((entry) => `  clave de ${entry.keyCuit}: ${texts.counts(entry)}.${texts.ended(entry.ended)}`)
    ]
};

// A login key's day in the fleet's ledger (docs/scaling.md), for `sync status --cuit` and the probe.
export const describeKeyLogins = (entry: KeyLogins): string => `ingresos a ARCA hoy (${entry.day}) con la clave de ${entry.keyCuit}: ${
    texts.counts(entry)}.${texts.ended(entry.ended)}`;

// Each CUIT's health beside its systems (core/use-cases/cuit-health.ts): the state and what to do.
type StatusWithHealth = SyncStatusResult & { clients?: { clientId: number; estado?: CuitHealthView | null }[] };

const describeStatus = (result: StatusWithHealth): string => {

    if ('summary' in result) {
        const lines = [`CUIT: ${result.summary.clients}. Trabajos pendientes: ${result.jobs.pending} (${result.jobs.due} vencidos), en curso: ${result.jobs.running}.`];
        for (const entry of result.summary.systems) {
            lines.push(`  ${labelOf(cliLabels.system, entry.system).padEnd(internals.systemWidth)} sincronizados ${entry.synced}, con error ${entry.failing}, más antiguo ${entry.oldestSyncedAtIso ?? '-'}`);
        }

        lines.push(...texts.fleet(result.logins));
        return lines.join('\n');
    }

    const lines: string[] = [];
    for (const client of result.clients) {
        lines.push(`CUIT ${client.cuit} (cuenta ${client.accountId}); trabajos pendientes ${client.jobs.pending}, en curso ${client.jobs.running}`);
        const health = (client as { estado?: CuitHealthView | null }).estado;
        if (health) {
            lines.push(`  estado: ${health.estado}${health.desde ? ` desde ${health.desde}` : ''}. ${visible(health.mensaje)} ${visible(health.accion)}`);
            lines.push(`  clave fiscal${health.clave.cuit ? ` de ${health.clave.cuit}` : ''}: ${health.clave.estado}${health.clave.desde ? ` desde ${health.clave.desde}` : ''}`);
        }

        if (client.logins) {
            lines.push(`  ${describeKeyLogins(client.logins)}`);
        }

        if (client.newKeys) {
            lines.push(`  ${cliMessages.newKeys(client.cuit, client.newKeys)}`);
        }

        const states = new Map(health?.sistemas.map((entry) => [entry.sistema, entry.estado]));
        for (const system of client.systems) {
            const state = states.get(systemNames[system.system]);
            lines.push(`  ${labelOf(cliLabels.system, system.system).padEnd(internals.systemWidth)} ${state ? `${state} · ` : ''}último éxito ${system.syncedAt ?? 'nunca'}${system.lastError ? ` · error (${system.lastAttemptAt}): ${visible(system.lastError)}` : ''}`);
        }
    }

    return lines.join('\n');
};

export const registerSyncCommands = (program: Command, io: CliIo): void => {

    const sync = program.command('sync')
        .description('sincroniza ahora con ARCA (para cron): los CUIT indicados, los vencidos o todos')
        .option('--cuit <cuit>', 'un CUIT a sincronizar (repetible)', internals.collect)
        .option('--due', 'los CUIT cuya última sincronización tiene más de un día')
        .option('--all', 'todos los CUIT')
        .option('--account <id>', 'con --cuit: la cuenta cuyo cliente se sincroniza (obligatoria si varias cuentas gestionan el CUIT)')
        .option('--concurrency <n>', `CUIT a la vez (${defaultWorkerConcurrency})`)
        .action(async (options: { cuit?: string[]; due?: boolean; all?: boolean; account?: string; concurrency?: string }, command: Command) => {

            const output = outputFor(command, io);
            const [{ enqueueSync }, { queueDeps }, { syncNow }, { deliverDueNow }] = await Promise.all([
                import('../../core/use-cases/sync/enqueue-sync.js'),
                import('../../app/sync.js'),
                import('../../app/worker.js'),
                import('../../app/webhooks.js')
            ]);

            const accountId = options.account === undefined ? undefined : parseId(options.account);
            const summary = await withApp(io, async (app) => {

                const concurrency = await workerConcurrency(options.concurrency);
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

    sync.command('worker')
        .description('trabajador de larga duración: toma trabajos de la cola hasta recibir SIGTERM (pueden correr muchos a la vez)')
        .option('--concurrency <n>', `CUIT a la vez (${defaultWorkerConcurrency})`)
        .option('--lease-seconds <s>', 'duración de la reserva de un trabajo, renovada mientras corre', String(internals.defaultLeaseMs / 1000))
        .option('--poll-seconds <s>', 'espera entre consultas a la cola vacía', '1')
        .action(async (options: { concurrency?: string; leaseSeconds?: string; pollSeconds?: string }, command: Command) => {

            const output = outputFor(command, io);
            const [{
                checkAuthorityFor,
                startSyncWorker
            }, { observeJob, startProcessMetrics }] = await Promise.all([import('../../app/worker.js'), import('../../app/metrics.js')]);
            const app = await openApp(io);
            try {
                await checkAuthorityFor(app);
                // `sync worker --concurrency N` may land on the parent's option (see status).
                const concurrency = await workerConcurrency(
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
                const deliveries = (await import('../../app/webhooks.js')).startWebhookWorker(app);
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

    sync.command('status')
        .description('último éxito y último error por sistema')
        .option('--cuit <cuit>', 'un CUIT')
        .action(async (options: { cuit?: string }, command: Command) => {

            // Commander hands `sync status --cuit C` to the parent's --cuit when the program's
            // options are not positional: take it from there.
            const cuit = options.cuit ?? (command.parent?.opts() as { cuit?: string[] } | undefined)?.cuit?.at(-1);
            const [{ syncStatus }, { queueDeps }, { diagnosticsDirOf, diagnosticsSummary }] = await Promise.all(
                [import('../../core/use-cases/sync/sync-status.js'), import('../../app/sync.js'), import('../../app/authority.js')]
            );
            const { healthOfClient } = await import('../../core/use-cases/cuit-health.js');
            const { undeliveredEvents } = await import('../../core/use-cases/webhooks/deliver.js');
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

    sync.command('unblock <cuit>')
        .description('staff: las claves nuevas del CUIT pueden volver a probarse en ARCA (reinicia el cupo semanal de intentos)')
        .action(async (cuit: string, _options: unknown, command: Command) => {

            const { clearNewKeyWait } = await import('../../core/use-cases/sync/sync-status.js');
            const result = await withApp(io, (app) => clearNewKeyWait({ clock: app.ports.clock, loginLedger: app.ports.loginLedger }, { cuit }));
            outputFor(command, io).print(cliMessages.newKeysUnblocked(result.cuit), result);
        });

    program.command('resync <cuit>')
        .description('staff: fuerza una resincronización completa del CUIT')
        .option('--account <id>', 'la cuenta cuyo cliente se resincroniza (obligatoria si varias cuentas gestionan el CUIT)')
        .action(async (cuit: string, options: { account?: string }, command: Command) => {

            const [{ forceResync }, { queueDeps }] = await Promise.all([import('../../core/use-cases/sync/force-resync.js'), import('../../app/sync.js')]);
            const accountId = options.account === undefined ? undefined : parseId(options.account);
            const result = await withApp(io, (app) => forceResync({ ...queueDeps(app), accounts: app.ports.accounts }, { cuit, accountId }));
            outputFor(command, io).print(`Resincronización completa del CUIT ${result.cuit} de la cuenta ${result.accountId} encolada (trabajo ${result.jobs.join(', ')}).`, result);
        });
};
