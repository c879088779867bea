import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import mysql from 'mysql2';
import { createAuthorityClient } from '../app/authority.js';
import { composeApp } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { syncDeps } from '../app/sync.js';
import { defaultTransportOptions } from '../adapters/authority/arca/http.js';
import { defaultDataOptions, generateTaxpayer } from '../adapters/authority/simulated/data.js';
import { startSimulatedAuthority } from '../adapters/authority/simulated/index.js';
import { displayName, sortKey } from '../core/domain/client.js';
import type { Cuit } from '../core/domain/cuit.js';
import type { InvoiceRecord } from '../core/domain/invoice.js';
import { startWorker } from '../core/use-cases/sync/run-worker.js';
import { testOnlyDatabaseOf as databaseOf } from '../app/compose.js';
import { benchDatabase } from './database.js';

// npm run bench:sync
//
// The first synchronization of N CUITs (12; 10 % legal entities, each represented by one of
// the people) against the simulated authority run in a child process with a realistic model:
// every request answered after a latency drawn from LATENCY (300–2000 ms), Mis Comprobantes
// answering "BL…" to requests closer than 1 s apart, and the arca adapter with its real pacing
// (fes 1.2 s, other hosts 0.3 s, strictly sequential within a key's session), its global
// concurrency C (default 4) and one login per key.
//
// Prints the wall time; the ideal bound under those rules: each key's session is sequential,
// so it takes at least the sum of its requests' latencies plus the pacing gaps between them,
// and all sessions together cannot beat the sum of every latency over C: ideal =
// max(longest session, Σ latency / C); wall/ideal; logins per key; requests per CUIT; the
// invoice storage rates, with the spread of the saves' times (a dozen saves make the rate
// swing by a third from run to run), and the worker's peak RSS. Beside the rate while
// syncing, two rows to tell where its distance goes: the same kind of saves one at a time,
// back to back (the service's code, warm), and on MySQL the floor, the sync's own saves' SQL
// replayed on a bare connection as far apart as they ran (the database, as idle between saves
// as in the sync). Then where the storing time went: the CPU each process used during the
// sync (this worker, the simulated authority, the local database), V8's collections that fell
// inside a save and the full ones (the set-up's garbage is collected before the sync starts),
// the event loop's delay during the sync,
// and on MySQL each kind of round trip the saves made (mysql2's diagnostics channel; their
// sum against the time spent writing).
//
// The database is not empty when the sync starts: like a running installation's, it already
// holds an earlier portfolio (100 CUITs and their invoices, stored first, four saves at a
// time, and printed as the write path into empty tables). On MariaDB a brand-new table takes
// inserts several times slower than one already holding rows, which only a fresh
// installation's very first sync ever meets.
//
// BENCH_CUITS, BENCH_LATENCY_MS=min,max, BENCH_CONCURRENCY. DATABASE_URL=mysql://root@127.0.0.1:3306/
// (a fresh database is created beside it and dropped) or sqlite:PATH (default: a temporary file).

const internals = {
    targets: { ratio: 1.2, invoicesPerSecond: 20_000, rssMb: 300 },
    cuits: Number(process.env.BENCH_CUITS ?? 12),
    latencyMs: (process.env.BENCH_LATENCY_MS ?? '300,2000').split(',').map(Number) as [number, number],
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? defaultTransportOptions.concurrency),
    entitiesShare: 0.1,
    // What a sync knows of these CUITs at its start, handed to their saves as a sync hands it
    // (core/use-cases/sync/sync-client.ts): no system ran, the registry calls none a monotributista.
    firstSync: { states: [], monotributista: false },
    fesGapMs: 1_000,

    // The simulated authority alone, in this child process: prints its URL, serves until killed.
    async serveAuthority(setup: { latencyMs: [number, number]; relations: Record<string, string[]> }): Promise<void> {

        const authority = await startSimulatedAuthority({ port: 0, latencyMs: setup.latencyMs, fesMinGapMs: internals.fesGapMs, relations: setup.relations });
        process.stdout.write(`${JSON.stringify({ url: authority.url })}\n`);
        process.once('SIGTERM', () => void authority.stop().then(() => process.exit(0)));
    },

    async startAuthority(relations: Record<string, string[]>): Promise<{ url: string; pid: number; stop(): void }> {

        const setup = JSON.stringify({ latencyMs: internals.latencyMs, relations });
        const child = spawn(
            process.execPath,
            ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve-authority', setup],
            { stdio: ['ignore', 'pipe', 'inherit'] }
        );
        const line = await new Promise<string>((resolve, reject) => {

            createInterface({ input: child.stdout! }).once('line', resolve);
            child.once('exit', (code) => reject(new Error(`simulated authority exited (${code})`)));
        });

        return { url: (JSON.parse(line) as { url: string }).url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
    },

    // CPU seconds a process has used so far (Linux's /proc; 100 ticks a second), null where it
    // cannot be read.
    cpuSeconds(pid: number | null): number | null {

        if (pid === null) {
            return null;
        }

        try {
            const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
            return (Number(fields[11]) + Number(fields[12])) / 100;
        }
        catch {
            return null;
        }
    },

    // The local MariaDB/MySQL server's process, if there is one.
    databasePid(): number | null {

        const named = (pid: string): boolean => {

            try {
                return ['mariadbd', 'mysqld'].includes(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
            }
            catch {
                return false;   // a process gone since the listing
            }
        };

        const pid = existsSync('/proc') ? readdirSync('/proc').find((entry) => /^\d+$/.test(entry) && named(entry)) : undefined;
        return pid === undefined ? null : Number(pid);
    },

    // Time during which at least one call was in progress.
    busyTimer() {

        let active = 0;
        let since = 0;
        let busy = 0;
        return {
            async time<T>(fn: () => Promise<T>): Promise<T> {

                if (active++ === 0) {
                    since = performance.now();
                }

                try {
                    return await fn();
                }
                finally {
                    if (--active === 0) {
                        busy += performance.now() - since;
                    }
                }
            },
            get ms() {

                return busy;
            },
            get active() {

                return active > 0;
            }
        };
    },

    // Each round trip to MySQL (mysql2's diagnostics channel) sent while `counted()`: its
    // statements' first words and its time, from the call to its answer's callback. And the
    // SQL, as sent, of the saves' statements (`saveOf` tells which save a call belongs to),
    // for the replay below.
    traceRoundTrips(counted: () => boolean, saveOf: () => number | undefined) {

        const channel = tracingChannel<unknown, { query: string }>('mysql2:query');
        const started = new WeakMap<object, number>();
        const trips: { what: string; ms: number }[] = [];
        const sent: string[][] = [];
        const handlers = {
            start: (message: { query: string }) => {

                const save = saveOf();
                if (save !== undefined) {
                    (sent[save] ??= []).push(message.query);
                }

                if (counted()) {
                    started.set(message, performance.now());
                }
            },
            end: () => undefined,
            asyncStart: (message: { query: string }) => {

                const at = started.get(message);
                if (at !== undefined) {
                    trips.push({
                        what: message.query.split(/;\s*/).map((sql) => sql.split(/\s+/).slice(0, sql.startsWith('insert') ? 3 : 2).join(' ')).join(' + '),
                        ms: performance.now() - at
                    });
                }
            },
            asyncEnd: () => undefined,
            error: () => undefined
        };
        channel.subscribe(handlers);
        return {
            stop() {

                channel.unsubscribe(handlers);
                return trips;
            },
            // The SQL the save numbered `save` sent, in order.
            sent: (save: number): readonly string[] => sent[save] ?? [],
            // Count, median and sum of each kind of round trip.
            lines(): string[] {

                const groups = new Map<string, number[]>();
                for (const trip of trips) {
                    groups.set(trip.what, [...groups.get(trip.what) ?? [], trip.ms]);
                }

                return [...groups].map(([what, ms]) => {

                    const sorted = [...ms].sort((x, y) => x - y);
                    return `    ${what.slice(0, 90).padEnd(90)} ${String(ms.length).padStart(4)}×  median ${internals.quantile(sorted, 0.5).toFixed(2)} ms  sum ${ms.reduce((x, y) => x + y, 0).toFixed(1)} ms`;
                });
            }
        };
    },

    mb: (bytes: number): number => Math.round(bytes / 1024 / 1024),

    // The value at `share` (0.5: the median) of numbers sorted ascending.
    quantile: (sorted: readonly number[], share: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!,

    // The database's own floor for the sync's saves: the very SQL they sent (rows removed
    // first, so it inserts them again), on one bare mysql2 connection, each save's statements
    // back to back and the saves started as far apart as they were in the sync. What is left
    // between this and the sync's own saves is the service's; what is left between this and
    // the saves run back to back is the machine's, idle between saves.
    async replaySaves(
        url: string,
        clientIds: readonly number[],
        saves: readonly { at: number; invoices: number; sql: readonly string[] }[]
    ): Promise<{ ms: number; invoices: number }[]> {

        // As the service's writer connections, several statements to a query.
        const connection = mysql.createConnection({ uri: url, multipleStatements: true });
        const send = (sql: string) => new Promise<void>((resolve, reject) => connection.query(sql, (err) => (err ? reject(err) : resolve())));
        try {
            for (const table of ['invoices', 'invoice_day_counts', 'sync_states']) {
                await send(`delete from ${table} where client_id in (${clientIds.join(', ')})${table === 'sync_states' ? " and system in ('issued_invoices', 'received_invoices')" : ''}`);
            }

            const timed: { ms: number; invoices: number }[] = [];
            const first = performance.now();
            for (const save of saves) {
                const wait = first + save.at - saves[0]!.at - performance.now();
                if (wait > 0) {
                    await new Promise((resolve) => setTimeout(resolve, wait));
                }

                const started = performance.now();
                for (const sql of save.sql) {
                    await send(sql);
                }

                timed.push({ ms: performance.now() - started, invoices: save.invoices });
            }

            return timed;
        }
        finally {
            connection.destroy();
        }
    },

    // How long saves took: count, median, p90 and slowest, and the median save's invoices.
    spread(saves: readonly { ms: number; invoices: number }[]): string {

        if (!saves.length) {
            return 'none';
        }

        const ms = saves.map((save) => save.ms).sort((x, y) => x - y);
        const invoices = saves.map((save) => save.invoices).sort((x, y) => x - y);
        const { quantile } = internals;
        return `${saves.length}: median ${quantile(ms, 0.5).toFixed(1)} ms, p90 ${quantile(ms, 0.9).toFixed(1)} ms, slowest ${ms.at(-1)!.toFixed(1)} ms, ${quantile(invoices, 0.5)} invoices in the median save`;
    },

    // The invoices of `cuits` new CUITs (numbered from `first`) stored through the sync's own
    // repository calls: four saves of one kind at a time, or, `oneAtATime`, each CUIT's issued
    // and received together in one save after the other, as a sync stores them.
    async storageCapacity(app: Awaited<ReturnType<typeof composeApp>>, accountId: number, first: number, cuits = 100, oneAtATime = false): Promise<{
        cuits: number;
        invoices: number;
        rate: number;
        saves: { ms: number; invoices: number }[];
    }> {

        const today = new Date().toISOString().slice(0, 10);
        const batches: { clientId: number; kind: 'issued' | 'received'; invoices: InvoiceRecord[] }[] = [];
        for (let i = first; i < first + cuits; i++) {
            const cuit = `27${String(20_000_000 + i).padStart(8, '0')}${i % 10}` as Cuit;
            const names = { nombre: 'Bea', apellido: `Capacidad ${i}`, razonSocial: null };
            const name = displayName({ tipo: 'persona-fisica', ...names });
            const client = (await app.ports.clients.insert({
                publicId: randomUUID(), accountId, cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: null, keyDigest: null, createdAt: Date.now()
            }))!;
            const taxpayer = generateTaxpayer(cuit, defaultDataOptions(today));
            batches.push(
                { clientId: client.id, kind: 'issued', invoices: taxpayer.issued },
                { clientId: client.id, kind: 'received', invoices: taxpayer.received }
            );
        }

        // A sync stores a CUIT's systems one after another, so the four saves in flight are
        // of different CUITs (issued first, then received): two kinds of one CUIT at once
        // would only measure one waiting for the other's lock on the client's row.
        batches.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'issued' ? -1 : 1));
        const invoices = batches.reduce((sum, batch) => sum + batch.invoices.length, 0);
        const saves: { ms: number; invoices: number }[] = [];
        const started = performance.now();
        if (oneAtATime) {
            for (let i = 0; i < cuits; i++) {
                const kinds = [batches[i]!, batches[i + cuits]!];
                const at = performance.now();
                await app.ports.invoices.saveKinds(kinds[0]!.clientId, kinds, Date.now(), internals.firstSync);
                saves.push({ ms: performance.now() - at, invoices: kinds[0]!.invoices.length + kinds[1]!.invoices.length });
            }
        }
        else {
            let next = 0;
            await Promise.all(Array.from({ length: 4 }, async () => {

                while (next < batches.length) {
                    const batch = batches[next++]!;
                    await app.ports.invoices.saveKinds(batch.clientId, [batch], Date.now(), internals.firstSync);
                }
            }));
        }

        const seconds = (performance.now() - started) / 1000;
        return { cuits, invoices, rate: invoices / seconds, saves };
    }
};

const main = async (): Promise<void> => {

    const db = await benchDatabase('sync');
    let authorityProcess: { url: string; pid: number; stop(): void } | null = null;
    const app = await composeApp(loadConfig({
        ...process.env,
        DATABASE_URL: db.url,
        ARCASYNC_SECRET_KEY: randomBytes(32).toString('base64'),
        // The made-up CUITs below have no valid check digit, as the simulated authority's own.
        SYNC_CHECK_DIGITS: '0'
    }), db.name === 'SQLite' ? {} : { pool: { max: 10 } });
    try {
        // The portfolio: physical persons with keys, and legal entities each represented by
        // one of them. Created with their first job, as POST /v1/cuits does.
        const accountId = await app.ports.accounts.create({ name: 'Bench', writingEnabled: true, subscription: 'active', createdAt: Date.now() });
        const earlier = await internals.storageCapacity(app, accountId, 0);
        const before = Number((await databaseOf(app)('invoices').count({ n: '*' }).first())!.n);
        const entities = Math.round(internals.cuits * internals.entitiesShare);
        const people: { id: number; cuit: string }[] = [];
        const relations: Record<string, string[]> = {};
        const sealed = app.ports.secretBox.seal('clave-bench');
        const synced: number[] = [];
        for (let i = 0; i < internals.cuits; i++) {
            const entity = i >= internals.cuits - entities;
            const cuit = `${entity ? '30' : '20'}${String(10_000_000 + i).padStart(8, '0')}${i % 10}` as Cuit;
            const names = entity ? { nombre: null, apellido: null, razonSocial: `Empresa ${i} SA` } : { nombre: 'Ana', apellido: `Bench ${i}`, razonSocial: null };
            const name = displayName({ tipo: entity ? 'persona-juridica' : 'persona-fisica', ...names });
            const keyDigest = entity ? null : await app.ports.keyIdentity.of(cuit, 'clave-bench');
            const client = (await app.ports.clients.insert({
                publicId: randomUUID(), accountId, cuit, tipo: entity ? 'persona-juridica' : 'persona-fisica', ...names,
                representativeId: entity ? people[i % people.length]!.id : null,
                displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: entity ? null : sealed, keyDigest, createdAt: Date.now()
            }))!;
            // A daily sync's keys have logged in before: proven keys, which the login ledger
            // lets in every day (an account gets one unproven key a day, docs/architecture.md).
            if (keyDigest) {
                await databaseOf(app)('arca_keys').insert({ key_id: keyDigest, key_cuit: cuit, proven_at: Date.now() - 86_400_000 });
            }
            synced.push(client.id);
            if (!entity) {
                people.push({ id: client.id, cuit });
            }
            else {
                (relations[people[i % people.length]!.cuit] ??= []).push(cuit);
            }
        }

        authorityProcess = await internals.startAuthority(relations);

        // Each exchange by key session: its latency, and the pacing gap it had to wait.
        const sessions = new Map<number, { ms: number; gaps: number; last: string | null }>();
        const pacing = defaultTransportOptions.pacingMs;
        const authority = createAuthorityClient({ authority: 'simulated', authorityUrl: authorityProcess.url }, {
            concurrency: internals.concurrency,
            pacingMs: pacing,
            blockWaitMs: defaultTransportOptions.blockWaitMs,
            pollIntervalMs: 2_000,
            onExchange: (exchange) => {

                const session = sessions.get(exchange.session) ?? { ms: 0, gaps: 0, last: null };
                session.ms += exchange.ms;
                if (session.last === exchange.host) {
                    session.gaps += pacing[exchange.host] ?? pacing.default;
                }

                session.last = exchange.host;
                sessions.set(exchange.session, session);
            }
        });
        const deps = syncDeps(app, authority);
        const saving = internals.busyTimer();
        // Every write of invoices: a kind alone, or a CUIT's issued and received together.
        const { save, saveKinds } = deps.invoices;
        // And each save's time and invoices, to print their spread: a dozen saves make the
        // rate above swing by a third from run to run.
        const saves: { at: number; ms: number; invoices: number }[] = [];
        const saveOf = new AsyncLocalStorage<number>();
        const timed = async (invoices: number, write: () => Promise<void>): Promise<void> => {

            const save = { at: performance.now(), ms: 0, invoices };
            saves.push(save);
            await saveOf.run(saves.length - 1, () => saving.time(write));
            save.ms = performance.now() - save.at;
        };

        deps.invoices = {
            ...deps.invoices,
            save: (...args) => timed(args[2].length, () => save(...args)),
            saveKinds: (...args) => timed(args[1].reduce((sum, kind) => sum + kind.invoices.length, 0), () => saveKinds(...args))
        };
        for (const id of synced) {
            await deps.jobQueue.enqueue(id, 'first', Date.now());
        }

        // The set-up's garbage (the earlier portfolio's hundred generated taxpayers) collected
        // now, not by a full collection in the middle of the sync, which a worker never meets
        // (npm run bench:sync passes --expose-gc).
        (globalThis as { gc?: () => void }).gc?.();
        const trace = internals.traceRoundTrips(() => saving.active, () => saveOf.getStore());
        const loopDelay = monitorEventLoopDelay({ resolution: 5 });
        loopDelay.enable();
        // V8's collections during the sync: one that falls inside a save stops it too.
        const collections: { at: number; ms: number; full: boolean }[] = [];
        const gc = new PerformanceObserver((list) => collections.push(...list.getEntries().map((entry) => ({
            at: entry.startTime,
            ms: entry.duration,
            full: (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR
        }))));
        gc.observe({ entryTypes: ['gc'] });

        let peakRss = process.memoryUsage().rss;
        const sampler = setInterval(() => {

            peakRss = Math.max(peakRss, process.memoryUsage().rss);
        }, 50);

        // Enough CUITs in flight that the adapter's C slots never wait for the database.
        const workerConcurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? internals.concurrency * 4);
        // Who had the 2 cores during the sync: this worker, the simulated authority (whose CPU
        // a real sync does not share: ARCA's servers are elsewhere) and the database.
        const databasePid = db.name === 'SQLite' ? null : internals.databasePid();
        const cpuOf = {
            worker: () => {

                const { user, system } = process.cpuUsage();
                return (user + system) / 1e6;
            },
            authority: () => internals.cpuSeconds(authorityProcess!.pid),
            database: () => internals.cpuSeconds(databasePid)
        };
        const cpuBefore = { worker: cpuOf.worker(), authority: cpuOf.authority(), database: cpuOf.database() };
        const started = performance.now();
        const summary = await startWorker(deps, { owner: 'bench', concurrency: workerConcurrency, leaseMs: 10 * 60_000, drain: true }).done;
        const wallMs = performance.now() - started;
        const cpuUsed = Object.entries(cpuBefore).map(([who, before]) => {

            const after = cpuOf[who as keyof typeof cpuOf]();
            return after === null || before === null ? null : `${who} ${(after - before).toFixed(1)} s`;
        }).filter((entry) => entry !== null);
        loopDelay.disable();
        gc.disconnect();
        const full = collections.filter((collection) => collection.full);
        const inSaves = collections.filter((collection) => saves.some((save) => collection.at < save.at + save.ms && collection.at + collection.ms > save.at));
        const tripsMs = trace.stop().reduce((sum, trip) => sum + trip.ms, 0);
        clearInterval(sampler);
        peakRss = Math.max(peakRss, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);

        const stored = Number((await databaseOf(app)('invoices').count({ n: '*' }).first())!.n) - before;

        // The write path alone, without the authority's latency and parsing around it: the
        // invoices of another set of new CUITs stored through the same repository call, four
        // at a time (new rows, as in a first sync).
        const capacity = await internals.storageCapacity(app, accountId, earlier.cuits);
        // The same saves as the sync's, one CUIT's issued and received at a time, one after the
        // other: what the sync's saves would reach if the process and the database were as warm
        // as they are here, back to back.
        const single = await internals.storageCapacity(app, accountId, earlier.cuits + capacity.cuits, 40, true);
        const replayed = db.name === 'SQLite' ? [] : await internals.replaySaves(db.url, synced, saves.map((save, i) => ({ ...save, sql: trace.sent(i) })));
        const replayMs = replayed.reduce((sum, save) => sum + save.ms, 0);
        const replayRate = replayMs ? replayed.reduce((sum, save) => sum + save.invoices, 0) / (replayMs / 1000) : 0;

        const requests = authority.transport.requests;
        const chains = [...sessions.values()];
        const longestMs = Math.max(0, ...chains.map((chain) => chain.ms + chain.gaps));
        const latencySumMs = chains.reduce((sum, chain) => sum + chain.ms, 0);
        const idealMs = Math.max(longestMs, latencySumMs / internals.concurrency);
        const ratio = wallMs / idealMs;
        const storingRate = stored / (saving.ms / 1000);
        const rssMb = internals.mb(peakRss);
        const check = (ok: boolean) => (ok ? 'ok' : 'NOT MET');
        const lines = [
            `bench:sync on ${db.name}, ${cpus().length} CPUs: ${internals.cuits} CUITs (${entities} legal entities, ${people.length} keys), latency ${internals.latencyMs.join('–')} ms per request, fes paced ${pacing['fes.afip.gob.ar']} ms, others ${pacing.default} ms, adapter concurrency C = ${internals.concurrency}, worker concurrency ${workerConcurrency}`,
            `  jobs ${summary.jobs}, synced ${summary.synced}, failed ${summary.failed}`,
            `  requests to the authority      ${requests}  (${(requests / internals.cuits).toFixed(1)} per CUIT)`,
            `  logins                         ${authority.logins}  (${(authority.logins / people.length).toFixed(2)} per key)`,
            `  wall time                      ${(wallMs / 1000).toFixed(2)} s`,
            `  ideal bound                    ${(idealMs / 1000).toFixed(2)} s  (longest key session ${(longestMs / 1000).toFixed(2)} s, Σ latency / C ${(latencySumMs / internals.concurrency / 1000).toFixed(2)} s)`,
            `  ratio                          ${ratio.toFixed(3)}  (target ≤ ${internals.targets.ratio}: ${check(ratio <= internals.targets.ratio)})`,
            `  invoices stored                ${stored}`,
            `  invoices/s end to end          ${Math.round(stored / (wallMs / 1000))}`,
            `  invoices/s while storing       ${Math.round(storingRate)}  (${(saving.ms / 1000).toFixed(2)} s writing; target ≥ ${internals.targets.invoicesPerSecond}: ${check(storingRate >= internals.targets.invoicesPerSecond)})`,
            `  saves while syncing            ${internals.spread(saves)}`,
            `  invoices/s, write path alone   ${Math.round(capacity.rate)}  (${capacity.invoices} invoices of ${capacity.cuits} new CUITs, 4 at a time; target ≥ ${internals.targets.invoicesPerSecond}: ${check(capacity.rate >= internals.targets.invoicesPerSecond)})`,
            `  …one save at a time            ${Math.round(single.rate)}  (${single.invoices} invoices of ${single.cuits} new CUITs, each CUIT's two kinds in one save, back to back)`,
            `  saves one at a time            ${internals.spread(single.saves)}`,
            ...db.name === 'SQLite' ? [] : [
                `  floor: the saves' SQL replayed ${Math.round(replayRate)} invoices/s  (one bare mysql2 connection, each save's statements back to back, saves as far apart as in the sync)`,
                `  saves replayed                 ${internals.spread(replayed)}`
            ],
            `  earlier portfolio              ${earlier.invoices} invoices of ${earlier.cuits} CUITs already stored when the sync began (at ${Math.round(earlier.rate)} invoices/s, 4 at a time into empty tables)`,
            `  worker peak RSS                ${rssMb} MB  (during the sync; target < ${internals.targets.rssMb}: ${check(rssMb < internals.targets.rssMb)})`,
            `  CPU during the sync            ${cpuUsed.join(', ')}  (of ${(wallMs / 1000 * cpus().length).toFixed(1)} s on ${cpus().length} cores)`,
            `  GC pauses inside saves         ${inSaves.length} of ${collections.length} during the sync, ${inSaves.reduce((sum, collection) => sum + collection.ms, 0).toFixed(1)} ms (longest ${Math.max(0, ...inSaves.map((collection) => collection.ms)).toFixed(1)} ms) of the ${saving.ms.toFixed(1)} ms writing`,
            `  full collections               ${full.length} during the sync, ${full.reduce((sum, collection) => sum + collection.ms, 0).toFixed(1)} ms (longest ${Math.max(0, ...full.map((collection) => collection.ms)).toFixed(1)} ms)${full.length ? `, at ${full.map((collection) => `${((collection.at - started) / 1000).toFixed(0)} s`).join(', ')}` : ''}`,
            `  event-loop delay               mean ${(loopDelay.mean / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms  (during the sync, sampled every 5 ms: 5 ms is an idle loop)`,
            ...db.name === 'SQLite' ? [] : [`  round trips while storing      ${tripsMs.toFixed(1)} ms of the ${(saving.ms).toFixed(1)} ms writing:`, ...trace.lines()]
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
    }
    finally {
        await app.close();
        await db.drop();
        authorityProcess?.stop();
    }
};

if (process.argv[2] === '--serve-authority') {
    await internals.serveAuthority(JSON.parse(process.argv[3]!) as { latencyMs: [number, number]; relations: Record<string, string[]> });
}
else {
    await main();
}
