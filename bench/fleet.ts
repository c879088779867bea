import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from '../app/compose.js';
import { composeApp, testOnlyDatabaseOf as databaseOf } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { arcaHosts } from '../adapters/authority/hosts.js';
import type { SimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { startSimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { displayName, sortKey } from '../core/domain/client.js';
import type { Cuit } from '../core/domain/cuit.js';
import type { SyncProcess } from '../test/support/sync-processes.js';
import { spawnSyncProcess, syncEnv, until } from '../test/support/sync-processes.js';
import { benchDatabase } from './database.js';

// npm run bench:fleet
//
// A fleet of N `arcasync sync worker` processes (N = 1, 2, 4) over one database, against the
// simulated authority (in this process), syncing a portfolio where representatives log in for
// several legal entities (docs/scaling.md). For each N, on a fresh database: every CUIT gets a
// job due at once, and the run ends when none is due or running. Prints per N:
// - logins per key (the simulator's count: one per key is the promise), overlapping sessions;
// - the peak of requests in flight per host, seen by the simulator, against the fleet's cap
//   SYNC_HOST_IN_FLIGHT (fleet-wide on MySQL/MariaDB; each process's own on SQLite, one
//   machine: there the bound is N times the cap);
// - blocks met (BENCH_BLOCK=1 scripts one "BL…" of Mis Comprobantes) and recorded;
// - wall time against the ideal bound under the caps: the largest of
//   · the busiest host: its requests × latency / its cap,
//   · the slots: all the sessions' work (requests × latency, plus Mis Comprobantes' pacing
//     inside a session) over the sessions that can run at once (min(slots, keys)),
//   · the longest key: a representative's CUITs one after another in one session,
//   · the login starts: keys / SYNC_LOGINS_PER_MINUTE.
//
// BENCH_WORKERS=1,2,4, BENCH_CONCURRENCY (slots per worker, 4), BENCH_LATENCY_MS (40),
// BENCH_HOST_IN_FLIGHT (4), BENCH_REPRESENTATIVES (6) of BENCH_ENTITIES (3) each, BENCH_PERSONS
// (12), BENCH_BLOCK. DATABASE_URL=mysql://root@127.0.0.1:3306/ (a fresh database per N beside
// it, dropped) or none (a temporary SQLite file per N). Needs dist/ (npm run build).

const internals = {
    workers: (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number),
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4),
    latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 40),
    hostInFlight: Number(process.env.BENCH_HOST_IN_FLIGHT ?? 4),
    loginsPerMinute: 600,
    representatives: Number(process.env.BENCH_REPRESENTATIVES ?? 6),
    entities: Number(process.env.BENCH_ENTITIES ?? 3),
    persons: Number(process.env.BENCH_PERSONS ?? 12),
    block: process.env.BENCH_BLOCK === '1',
    // Mis Comprobantes' pacing inside a session against the simulated authority (app/authority.ts).
    fesPacingMs: 120,
    secretKey: randomBytes(32).toString('base64'),

    // A daily window away from now: the workers' own daily jobs never come due in the run.
    window(): string {

        const minute = Math.floor((Date.now() - 3 * 3_600_000) / 60_000) % 1440;
        return minute < 5 ? '12:00-12:01' : '00:00-00:01';
    },

    // Representatives with their entities, then persons: login CUIT -> the CUITs it reaches.
    portfolio(): Map<string, string[]> {

        const keys = new Map<string, string[]>();
        for (let r = 0; r < internals.representatives; r++) {
            const key = `20${String(40_000_000 + r).padStart(8, '0')}1`;
            keys.set(key, [key, ...Array.from({ length: internals.entities }, (_, e) => `30${String(50_000_000 + r * 100 + e).padStart(8, '0')}1`)]);
        }

        for (let p = 0; p < internals.persons; p++) {
            const key = `27${String(60_000_000 + p).padStart(8, '0')}1`;
            keys.set(key, [key]);
        }

        return keys;
    },

    async seed(app: App, keys: Map<string, string[]>): Promise<number[]> {

        const accountId = await app.ports.accounts.create({ name: 'Bench fleet', writingEnabled: true, subscription: 'active', createdAt: Date.now() });
        const sealed = app.ports.secretBox.seal('clave-bench');
        const ids: number[] = [];
        for (const [key, cuits] of keys) {
            let representativeId: number | null = null;
            for (const cuit of cuits) {
                const entity = cuit !== key;
                const names = entity ? { nombre: null, apellido: null, razonSocial: `Empresa ${cuit}` } : { nombre: 'Ana', apellido: `Flota ${cuit}`, razonSocial: null };
                const tipo = entity ? 'persona-juridica' as const : 'persona-fisica' as const;
                const name = displayName({ tipo, ...names });
                const client: { id: number } = (await app.ports.clients.insert({
                    publicId: randomUUID(), accountId, cuit: cuit as Cuit, tipo, ...names, representativeId: entity ? representativeId : null,
                    displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: entity ? null : sealed, keyDigest: entity ? null : await app.ports.keyIdentity.of(cuit as Cuit, 'clave'), createdAt: Date.now()
                }))!;
                representativeId ??= client.id;
                ids.push(client.id);
            }
        }

        return ids;
    },

    async run(workers: number, keys: Map<string, string[]>): Promise<string[]> {

        const db = await benchDatabase('fleet');
        const relations = Object.fromEntries([...keys].filter(([, cuits]) => cuits.length > 1).map(([key, cuits]) => [key, cuits.slice(1)]));
        const authority: SimulatedAuthority = await startSimulatedAuthority({ port: 0, latencyMs: internals.latencyMs, relations });
        const app = await composeApp(loadConfig({ DATABASE_URL: db.url, ARCASYNC_SECRET_KEY: internals.secretKey }));
        const fleet: SyncProcess[] = [];
        try {
            const clientIds = await internals.seed(app, keys);
            const knex = databaseOf(app);
            // The first syncs the clients came with are the run's own, below.
            await knex('sync_jobs').delete();
            const env = syncEnv(db.url, internals.secretKey, authority.url, {
                SYNC_WINDOW: internals.window(),
                SYNC_HOST_IN_FLIGHT: String(internals.hostInFlight),
                SYNC_LOGINS_PER_MINUTE: String(internals.loginsPerMinute)
            });
            for (let i = 0; i < workers; i++) {
                fleet.push(spawnSyncProcess(['sync', 'worker', '--json', '--concurrency', String(internals.concurrency), '--poll-seconds', '0.05', '--lease-seconds', '60'], env));
            }

            await until(() => fleet.every((worker) => worker.events.some((event) => event.event === 'ready')), 120_000, 'the workers');
            if (internals.block) {
                authority.script({ host: arcaHosts.mcmp, answer: 'block', times: 1 });
            }

            const started = Date.now();
            await knex('sync_jobs').insert(clientIds.map((id) => ({ client_id: id, reason: 'manual', status: 'pending', run_after: started, attempts: 0, created_at: started })));
            await until(async () => {

                const busy = await knex('sync_jobs').where('status', 'running').orWhere((due) => due.where('status', 'pending').andWhere('run_after', '<=', Date.now())).first('id');
                return !busy;
            }, 600_000, 'the jobs');
            const wallMs = Date.now() - started;
            // The run's jobs (the workers' schedulers add daily ones for their window).
            const failed = Number((await knex('sync_jobs').where({ reason: 'manual' }).whereNot('status', 'done').count({ n: '*' }).first())!.n);
            const recorded = await knex('authority_host_blocks').count({ n: '*' }).first();

            const stats = authority.stats();
            // ARCA's hosts only: not the simulator's own control requests (who represents whom).
            const hosts = new Set<string>(Object.values(arcaHosts));
            const byHost = Object.fromEntries(Object.entries(stats.byHost).filter(([host]) => hosts.has(host)));
            const logins = [...keys.keys()].map((key) => stats.loginsByCuit[key] ?? 0);
            const requestsMs = Object.values(byHost).reduce((sum, requests) => sum + requests * internals.latencyMs, 0);
            const sessionWorkMs = requestsMs + (byHost[arcaHosts.mcmp] ?? 0) * internals.fesPacingMs;
            const cuits = clientIds.length;
            const hostCap = internals.hostInFlight * (db.name === 'SQLite' ? workers : 1);
            const bounds = {
                host: Math.max(...Object.values(byHost)) * internals.latencyMs / hostCap,
                slots: sessionWorkMs / Math.min(workers * internals.concurrency, keys.size),
                key: Math.max(...[...keys.values()].map((reached) => reached.length)) * sessionWorkMs / cuits,
                logins: (keys.size - 1) / internals.loginsPerMinute * 60_000
            };
            const idealMs = Math.max(...Object.values(bounds));
            const peaks = Object.entries(stats.peakInFlightByHost).filter(([host]) => hosts.has(host)).sort(([a], [b]) => a.localeCompare(b));
            const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
            return [
                `${String(workers).padEnd(8)} ${seconds(wallMs).padEnd(8)} ${seconds(idealMs).padEnd(8)} ${(wallMs / idealMs).toFixed(2).padEnd(10)} ${
                    `${Math.min(...logins)}–${Math.max(...logins)} (${logins.reduce((a, b) => a + b, 0)} for ${keys.size} keys)`.padEnd(24)} ${
                    String(stats.overlappingSessions).padEnd(8)} ${`${stats.blocks} met, ${Number(recorded!.n)} recorded`.padEnd(20)} ${failed}`,
                `         peak in flight per host (cap ${hostCap}): ${peaks.map(([host, peak]) => `${host.split('.')[0]} ${peak}`).join(', ')}; most ${Math.max(...peaks.map(([, peak]) => peak))}`,
                `         bounds: busiest host ${seconds(bounds.host)}, slots ${seconds(bounds.slots)}, longest key ${seconds(bounds.key)}, login starts ${seconds(bounds.logins)}; ${
                    Object.values(byHost).reduce((sum, requests) => sum + requests, 0)} requests to ARCA's hosts`
            ];
        }
        finally {
            for (const worker of fleet) {
                worker.child.kill('SIGTERM');
                await worker.exited;
            }

            await app.close();
            await authority.stop();
            await db.drop();
        }
    }
};

const main = async (): Promise<void> => {

    const keys = internals.portfolio();
    const cuits = [...keys.values()].reduce((sum, reached) => sum + reached.length, 0);
    const database = process.env.DATABASE_URL?.split(':')[0] ?? 'sqlite';
    process.stdout.write(`bench:fleet: ${cuits} CUITs, ${keys.size} keys (${internals.representatives} representatives of ${internals.entities} entities each, ${
        internals.persons} persons), ${database}, latency ${internals.latencyMs} ms, SYNC_HOST_IN_FLIGHT ${internals.hostInFlight}, ${internals.concurrency} slots per worker${
        internals.block ? ', one BL… scripted' : ''}\n`);
    process.stdout.write(`${'workers'.padEnd(8)} ${'wall'.padEnd(8)} ${'ideal'.padEnd(8)} ${'wall/ideal'.padEnd(10)} ${'logins per key'.padEnd(24)} ${
        'overlaps'.padEnd(8)} ${'blocks'.padEnd(20)} not done\n`);
    for (const workers of internals.workers) {
        process.stdout.write(`${(await internals.run(workers, keys)).join('\n')}\n`);
        await sleep(500);
    }
};

await main();
