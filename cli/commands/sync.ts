import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import ora from 'ora';
import type { App } from '../../app/compose.js';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import type { ConfiguredAuthority } from '../../app/authority.js';
import { createAuthorityClient } from '../../app/authority.js';
import { queueDeps, syncDeps } from '../../app/sync.js';
import { invalid } from '../../core/domain/errors.js';
import { messages } from '../../core/domain/messages.js';
import { enqueueSync } from '../../core/use-cases/sync/enqueue-sync.js';
import { forceResync } from '../../core/use-cases/sync/force-resync.js';
import type { JobResult } from '../../core/use-cases/sync/run-job.js';
import type { Worker, WorkerOptions, WorkerSummary } from '../../core/use-cases/sync/run-worker.js';
import { startWorker } from '../../core/use-cases/sync/run-worker.js';
import { syncStatus } from '../../core/use-cases/sync/sync-status.js';
import { observeJob, startProcessMetrics } from '../metrics.js';
import type { Output } from '../run.js';
import { fail, outputFor, withApp } from '../run.js';

// The synchronization commands of the CLI contract (DESIGN.md): `sync` (cron), `sync worker`
// (long-running), `sync status`, `resync`; `serve --worker` uses startSyncWorker.

// The worker's own options, each optional here: the CLI fills in its defaults.
export type SyncWorkerOptions = Partial<Pick<WorkerOptions, 'concurrency' | 'leaseMs' | 'pollMs' | 'clientIds' | 'drain' | 'scheduleEveryMs' | 'onStart' | 'onResult'>>;

const internals = {
    defaultConcurrency: 8,
    defaultLeaseMs: 5 * 60_000,
    scheduleEveryMs: 60_000,

    collect: (value: string, previous: string[] = []): string[] => [...previous, value],

    concurrency(raw: string | undefined): number {

        if (raw === undefined) {
            return internals.defaultConcurrency;
        }

        const value = Number(raw);
        if (!Number.isInteger(value) || value < 1 || value > 200) {
            throw invalid([messages.sync.invalidConcurrency]);
        }

        return value;
    },

    positiveMs(raw: string | undefined, fallback: number, unit = 1000): number {

        const value = raw === undefined ? NaN : Number(raw);
        return Number.isFinite(value) && value > 0 ? Math.round(value * unit) : fallback;
    },

    // Progress on a terminal only; nothing on stdout besides the final result.
    progress(output: Output, total: () => number) {

        // A terminal of zero columns (some pseudo-terminals) would make ora redraw endlessly.
        const enabled = Boolean(process.stderr.isTTY) && (process.stderr.columns ?? 0) > 0 && !output.json;
        const spinner = ora({ text: 'Sincronizando…', isEnabled: enabled, isSilent: !enabled }).start();
        const state = { done: 0, failed: 0 };
        const render = () => {

            spinner.text = `Sincronizando: ${state.done}/${Math.max(total(), state.done)} CUIT${state.failed ? ` · ${state.failed} con fallas` : ''}`;
        };

        render();
        return {
            result(result: JobResult) {

                state.done++;
                if (result.disposition !== 'done' && result.disposition !== 'released') {
                    state.failed++;
                }

                render();
            },
            stop: () => spinner.stop()
        };
    },

    describeStatus(result: Awaited<ReturnType<typeof syncStatus>>): string {

        if ('summary' in result) {
            const lines = [`CUIT: ${result.summary.clients}. Trabajos pendientes: ${result.jobs.pending} (${result.jobs.due} vencidos), en curso: ${result.jobs.running}.`];
            for (const entry of result.summary.systems) {
                lines.push(`  ${entry.system.padEnd(18)} sincronizados ${entry.synced}, con error ${entry.failing}, más antiguo ${entry.oldestSyncedAtIso ?? '-'}`);
            }

            return lines.join('\n');
        }

        const lines: string[] = [];
        for (const client of result.clients) {
            lines.push(`CUIT ${client.cuit} (cuenta ${client.accountId}); trabajos pendientes ${client.jobs.pending}, en curso ${client.jobs.running}`);
            for (const system of client.systems) {
                lines.push(`  ${system.system.padEnd(18)} último éxito ${system.syncedAt ?? 'nunca'}${system.lastError ? ` · error (${system.lastAttemptAt}): ${system.lastError}` : ''}`);
            }
        }

        return lines.join('\n');
    },

    owner: () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
};

const authorities = new WeakMap<App, ConfiguredAuthority>();

// One authority client per app (with AUTHORITY=simulated and no AUTHORITY_URL, one simulated
// authority in this process), shared by every worker of the app.
export const authorityOf = (app: App): ConfiguredAuthority => {

    let authority = authorities.get(app);
    if (!authority) {
        authority = createAuthorityClient(app.config);
        authorities.set(app, authority);
    }

    return authority;
};

// A worker over the app's database and the configured authority.
export const startSyncWorker = (app: App, options: SyncWorkerOptions = {}): Worker => {

    const deps = syncDeps(app, authorityOf(app));
    return startWorker(deps, {
        owner: internals.owner(),
        concurrency: options.concurrency ?? internals.defaultConcurrency,
        leaseMs: options.leaseMs ?? internals.defaultLeaseMs,
        ...(options.pollMs ? { pollMs: options.pollMs } : {}),
        ...(options.clientIds ? { clientIds: options.clientIds } : {}),
        drain: options.drain ?? false,
        scheduleEveryMs: options.scheduleEveryMs === undefined ? internals.scheduleEveryMs : options.scheduleEveryMs,
        ...(options.onStart ? { onStart: options.onStart } : {}),
        ...(options.onResult ? { onResult: options.onResult } : {})
    });
};

export interface SyncNowSummary extends WorkerSummary {
    failures: { cuit: string | null; error: string | null }[];
}

// Run the jobs of these clients (every due job when null) to the end in this process, with
// progress on a terminal: `sync` and the demo's first synchronization.
export const syncNow = async (app: App, output: Output, options: { clientIds: readonly number[] | null; concurrency: number }): Promise<SyncNowSummary> => {

    const queue = queueDeps(app);
    const initial = await queue.jobQueue.counts(options.clientIds ?? undefined, app.ports.clock.now().getTime());
    const total = initial.due + initial.running;
    const progress = internals.progress(output, () => total);
    const failures: SyncNowSummary['failures'] = [];
    const worker = startSyncWorker(app, {
        concurrency: options.concurrency,
        drain: true,
        scheduleEveryMs: null,
        pollMs: 200,
        ...(options.clientIds ? { clientIds: options.clientIds } : {}),
        onResult: (result) => {

            progress.result(result);
            if (result.disposition === 'retry' || result.disposition === 'failed') {
                failures.push({ cuit: result.cuit, error: result.error });
            }
        }
    });

    const stop = () => void worker.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
        return { ...await worker.done, failures };
    }
    finally {
        progress.stop();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
    }
};

export const registerSyncCommands = (program: Command): void => {

    const sync = program.command('sync')
        .description('sincroniza ahora con ARCA (para cron): los CUIT indicados, los vencidos o todos')
        .option('--cuit <cuit>', 'un CUIT a sincronizar (repetible)', internals.collect)
        .option('--due', 'los CUIT cuya última sincronización tiene más de un día')
        .option('--all', 'todos los CUIT')
        .option('--concurrency <n>', `CUIT a la vez (${internals.defaultConcurrency})`)
        .action(async (options: { cuit?: string[]; due?: boolean; all?: boolean; concurrency?: string }, command: Command) => {

            const output = outputFor(command);
            const summary = await withApp(async (app) => {

                const concurrency = internals.concurrency(options.concurrency);
                const { clientIds } = await enqueueSync(queueDeps(app), { cuits: options.cuit ?? [], all: options.all ?? false, due: options.due ?? false });
                try {
                    return await syncNow(app, output, { clientIds, concurrency });
                }
                finally {
                    await authorityOf(app).close();
                }
            });

            const lines = [`Sincronizados: ${summary.synced} CUIT; con fallas: ${summary.failed}; comprobantes guardados: ${summary.invoices}.`];
            for (const failure of summary.failures) {
                lines.push(`  ${failure.cuit ?? '?'}: ${failure.error ?? ''}`);
            }

            output.print(lines.join('\n'), summary);
        });

    sync.command('worker')
        .description('trabajador de larga duración: toma trabajos de la cola hasta recibir SIGTERM (pueden correr muchos a la vez)')
        .option('--concurrency <n>', `CUIT a la vez (${internals.defaultConcurrency})`)
        .option('--lease-seconds <s>', 'duración de la reserva de un trabajo, renovada mientras corre', String(internals.defaultLeaseMs / 1000))
        .option('--poll-seconds <s>', 'espera entre consultas a la cola vacía', '1')
        .action(async (options: { concurrency?: string; leaseSeconds?: string; pollSeconds?: string }, command: Command) => {

            const output = outputFor(command);
            let app: App | null = null;
            try {
                app = await composeApp(loadConfig());
                // `sync worker --concurrency N` may land on the parent's option (see status).
                const concurrency = internals.concurrency(options.concurrency ?? (command.parent?.opts() as { concurrency?: string } | undefined)?.concurrency);
                const event = (data: object) => {

                    if (output.json) {
                        process.stdout.write(`${JSON.stringify(data)}\n`);
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

                        event({ event: 'end', jobId: result.jobId, clientId: result.clientId, cuit: result.cuit, outcome: result.outcome, disposition: result.disposition, invoices: result.invoices, at: result.endedAt });
                    }
                });

                if (output.json) {
                    event({ event: 'ready', pid: process.pid, concurrency });
                }
                else {
                    process.stderr.write(`Trabajador de sincronización en marcha (concurrencia ${concurrency}); SIGTERM lo detiene.\n`);
                }

                // A graceful stop: no new jobs; running ones stop before their next system and
                // are given back to the queue.
                const stop = () => void worker.stop();
                process.once('SIGTERM', stop);
                process.once('SIGINT', stop);
                const summary = await worker.done;
                metrics?.close();
                await authorityOf(app).close();
                await app.close();
                app = null;
                output.print(`Trabajador detenido: ${summary.jobs} trabajos, ${summary.synced} sincronizados, ${summary.failed} con fallas.`, { event: 'stopped', ...summary });
                process.exit(0);
            }
            catch (err) {
                await app?.close().catch(() => undefined);
                fail(err);
            }
        });

    sync.command('status')
        .description('último éxito y último error por sistema')
        .option('--cuit <cuit>', 'un CUIT')
        .action(async (options: { cuit?: string }, command: Command) => {

            // Commander hands `sync status --cuit C` to the parent's --cuit when the program's
            // options are not positional: take it from there.
            const cuit = options.cuit ?? (command.parent?.opts() as { cuit?: string[] } | undefined)?.cuit?.at(-1);
            const result = await withApp((app) => syncStatus({ ...queueDeps(app), syncStates: app.ports.syncStates }, { cuit }));
            outputFor(command).print(internals.describeStatus(result), result);
        });

    program.command('resync <cuit>')
        .description('staff: fuerza una resincronización completa del CUIT')
        .action(async (cuit: string, _options: object, command: Command) => {

            const result = await withApp((app) => forceResync(queueDeps(app), { cuit }));
            outputFor(command).print(`Resincronización completa del CUIT ${result.cuit} encolada (trabajos ${result.jobs.join(', ')}).`, result);
        });
};
