import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import { mysqlServerAdmin } from '../test/support/mysql-server.js';
import { composeApp } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { seedBench, seedIntegrators } from './seed.js';
import type { BenchData, IntegratorData } from './seed.js';
import { integratorRequests, integratorWarmup, monthPages } from './workload.js';
import type { BenchRequest } from './workload.js';
import { testOnlyDatabaseOf as databaseOf } from '../app/compose.js';

// npm run bench:api -- [--db sqlite|mysql|both] [--duration 5] [--connections 32]
//                      [--warmup 1] [--only emitidos] [--profile DIR] [--read-cache-mb 0]
//                      [--workload both|endpoints|integrators]
//                      ["--node-options=--max-semi-space-size=4 ..."]
// --profile writes the server's CPU profile (node --cpu-prof) to DIR and skips the ceiling,
// so the profile holds only the endpoints measured (with --workload integrators, one profile
// per API server process of that workload). --read-cache-mb sets the server's
// READ_CACHE_MB (0: every request reads the database, the cold path). --duration and
// --warmup are seconds per row.
// (BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/ names the MariaDB server; the bench creates
// and drops its own database, arcasync_bench.)
//
// Seeds a database, starts bench/server.ts (the app composed like `arcasync serve`, plus a
// bare route) as a child process, drives each endpoint with autocannon and samples the
// child's RSS from /proc. Rate limits are raised by configuration, so every request is still
// counted by the database-backed limiter but none is refused.
//
// The integrator workload runs twice, right after seeding (the statistics the bulk load left)
// and after ANALYZE: every page of the month of issued invoices of one CUIT, in turn, against
// its first page, on a server without read cache; then each integrator user's pass over every
// page of its CUITs (one pass, every URL once, interleaved across users) on a server with the
// read cache; and the same three through bench/lean.ts, the lean floor. The integrators' pass
// runs on both sides in a new process warmed alike (see workload()), never after the other
// rows, so the API and the floor are compared with the same history.

interface Row {
    name: string;
    requests: number;
    rps: number;
    p50: number;
    p99: number;
    non2xx: number;
    errors: number;
    cpuUs: number;             // server CPU (user + system) per request, in µs
    statements: number;        // statements the server sent to the database per request
    gcUs: number;              // of which in V8's collections (main thread), in µs
}

// GET /bench/counts of bench/server.ts (the lean floor answers statements and gcMs only).
interface Counts {
    hits: number;
    misses: number;
    statements: number;
    gcMs: number;
}

type Db = 'sqlite' | 'mysql';

interface Options {
    dbs: Db[];
    duration: number;
    connections: number;
    warmup: number;
    only: string;
    profile: string;
    readCacheMb: string;
    nodeOptions: string;
    workload: 'both' | 'endpoints' | 'integrators';
}

interface RunResult {
    db: Db;
    rows: Row[];
    idle: number;
    peak: { rss: number; hwm: number };
    workload: WorkloadResult[];
}

// One run of the integrator workload: the API's rows and the lean floor's, same requests.
interface WorkloadResult {
    phase: string;
    firstPage: { app: Row; lean: Row };
    allPages: { app: Row; lean: Row; pages: number };
    integrators: { app: Row; lean: Row; users: number; urls: number; cache: { hits: number; misses: number } };
}

const internals = {
    targets: { ratio: 0.30, p99: 25, rssMb: 200, pages: 0.8, pagesP99: 60, lean: 0.7 },
    mysqlBase: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/',
    mysqlDatabase: 'arcasync_bench',

    options(): Options {

        const { values } = parseArgs({
            options: {
                db: { type: 'string', default: 'both' },
                duration: { type: 'string', default: '5' },
                connections: { type: 'string', default: '32' },
                warmup: { type: 'string', default: '1' },
                workload: { type: 'string', default: 'both' },
                // Only the endpoints whose name contains this text (the ceiling always runs).
                only: { type: 'string', default: '' },
                profile: { type: 'string', default: '' },
                'read-cache-mb': { type: 'string', default: '' },
                // Extra NODE_OPTIONS for the server process only (e.g. V8 heap limits).
                'node-options': { type: 'string', default: '' }
            }
        });

        if (!['sqlite', 'mysql', 'both'].includes(values.db!)) {
            throw new Error('--db must be sqlite, mysql or both');
        }

        if (!['both', 'endpoints', 'integrators'].includes(values.workload!)) {
            throw new Error('--workload must be both, endpoints or integrators');
        }

        return {
            dbs: values.db === 'both' ? ['sqlite', 'mysql'] : [values.db as Db],
            duration: Number(values.duration),
            connections: Number(values.connections),
            warmup: Number(values.warmup),
            only: values.only!,
            profile: values.profile!,
            readCacheMb: values['read-cache-mb']!,
            nodeOptions: values['node-options']!,
            workload: values.workload as Options['workload']
        };
    },

    async mysqlAdmin<T>(fn: (knex: Knex) => Promise<T>): Promise<T> {

        const knex = mysqlServerAdmin(internals.mysqlBase);
        try {
            return await fn(knex);
        }
        finally {
            await knex.destroy();
        }
    },

    async prepare(db: Db): Promise<{ url: string; cleanup: () => Promise<void> }> {

        if (db === 'sqlite') {
            const dir = mkdtempSync(join(tmpdir(), 'arcasync-bench-'));
            return { url: `sqlite:${join(dir, 'bench.sqlite')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
        }

        const name = internals.mysqlDatabase;
        await internals.mysqlAdmin(async (knex) => {

            await knex.raw(`DROP DATABASE IF EXISTS \`${name}\``);
            await knex.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        });

        const url = new URL(internals.mysqlBase);
        url.pathname = `/${name}`;
        return { url: url.toString(), cleanup: () => internals.mysqlAdmin(async (knex) => void await knex.raw(`DROP DATABASE IF EXISTS \`${name}\``)) };
    },

    env(databaseUrl: string): NodeJS.ProcessEnv {

        return { ...process.env, DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_PER_MONTH: '1000000000' };
    },

    async seed(databaseUrl: string): Promise<{ data: BenchData; integrators: IntegratorData }> {

        const app = await composeApp(loadConfig(internals.env(databaseUrl)));
        try {
            return { data: await seedBench(app), integrators: await seedIntegrators(app) };
        }
        finally {
            await app.close();
        }
    },

    // InnoDB recalculates statistics in the background some time after a bulk load, and
    // SQLite only on ANALYZE; a steady-state server has current ones.
    async analyze(db: Db, databaseUrl: string): Promise<void> {

        const app = await composeApp(loadConfig(internals.env(databaseUrl)), { migrate: false });
        try {
            await databaseOf(app).raw(db === 'mysql'
                ? 'ANALYZE TABLE invoices, invoice_day_counts, clients, user_clients, client_tags, tags, tokens, users, accounts, rate_limits, sync_states, sct_debts, sct_due_dates, sct_returns, ccma_balances, ccma_movements, dfe_notifications'
                : 'ANALYZE');
        }
        finally {
            await app.close();
        }
    },

    // The server's own log (one line per request at the default level) goes to a file, as
    // it would in production, not through this process.
    logFile: join(tmpdir(), 'arcasync-bench-server.log'),

    // bench/server.ts (the API) or bench/lean.ts (the lean floor), compiled into dist/bench/ and
    // run by plain node, READ_CACHE_MB as given.
    start(databaseUrl: string, options: Options, script = 'server.ts', readCacheMb = options.readCacheMb): Promise<{ child: ChildProcess; url: string }> {

        const log = openSync(internals.logFile, 'w');
        const profile = options.profile && script === 'server.ts' ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`] : [];
        const child = spawn(process.execPath, [...profile, join(import.meta.dirname, '..', 'dist', 'bench', script.replace(/\.ts$/, '.js'))], {
            env: {
                ...internals.env(databaseUrl),
                ...(readCacheMb ? { READ_CACHE_MB: readCacheMb } : {}),
                NODE_OPTIONS: [process.env.NODE_OPTIONS, options.nodeOptions].filter(Boolean).join(' ')
            },
            stdio: ['ignore', 'pipe', log]
        });
        closeSync(log);

        return new Promise((resolve, reject) => {

            let buffer = '';
            child.stdout!.on('data', (chunk: Buffer) => {

                buffer += chunk.toString();
                const line = buffer.split('\n')[0];
                if (buffer.includes('\n') && line) {
                    resolve({ child, url: JSON.parse(line).url });
                }
            });
            child.once('exit', (code) => reject(new Error(`bench server exited (${code}); its log: ${internals.logFile}`)));
            child.once('error', reject);
        });
    },

    async stop(child: ChildProcess): Promise<void> {

        if (child.exitCode !== null) {
            return;
        }

        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
    },

    // VmRSS now and VmHWM (peak) of the server process, in MB.
    memory(pid: number): { rss: number; hwm: number } {

        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
        return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
    },

    // utime + stime of the server process, in µs (clock ticks are 1/100 s on Linux).
    cpu(pid: number): number {

        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
        return (Number(fields[11]) + Number(fields[12])) * 10_000;
    },

    // One request per endpoint before measuring: each must answer 200 with what it should.
    async check(url: string, token: string, endpoints: { name: string; path: string; auth: boolean }[], data: BenchData) {

        for (const endpoint of endpoints) {
            const res = await fetch(url + endpoint.path, { headers: endpoint.auth ? { authorization: `Bearer ${token}` } : {} });
            const body = await res.json() as { data?: unknown; pagination?: { total: number } };
            if (res.status !== 200) {
                throw new Error(`${endpoint.path} answered ${res.status}: ${JSON.stringify(body)}`);
            }

            if (endpoint.name.startsWith('GET /v1/cuits?') && (body.pagination?.total !== 1_000 || (body.data as unknown[]).length !== 50)) {
                throw new Error(`unexpected /v1/cuits page: total ${body.pagination?.total}`);
            }

            if (endpoint.name.includes('emitidos') && (body.pagination?.total !== data.month.invoices || (body.data as unknown[]).length !== 50)) {
                throw new Error(`unexpected invoice page: total ${body.pagination?.total}, expected ${data.month.invoices}`);
            }

            if (endpoint.name.includes('/sct') && !body.data) {
                throw new Error('sct has no data');
            }
        }
    },

    // The API's rows of one endpoint each (the ceiling first), on a server as configured.
    async endpoints(databaseUrl: string, data: BenchData, options: Options, db: Db): Promise<Pick<RunResult, 'rows' | 'idle' | 'peak'>> {

        const endpoints = [
            { name: 'GET /bench/bare (ceiling)', path: '/bench/bare', auth: false },
            { name: 'GET /v1/cuits?limit=50', path: '/v1/cuits?limit=50', auth: true },
            { name: `GET …/emitidos (1 month, ${data.month.invoices} rows, page 50)`, path: `/v1/cuits/${data.cuit}/mis-comprobantes/emitidos?from_date=${data.month.from}&to_date=${data.month.to}&limit=50`, auth: true },
            { name: 'GET …/sct', path: `/v1/cuits/${data.cuit}/sct`, auth: true }
        ].filter((endpoint, i) => (i === 0 ? !options.profile : endpoint.name.includes(options.only)));

        const { child, url } = await internals.start(databaseUrl, options);
        const samples: number[] = [];
        let peak = { rss: 0, hwm: 0 };
        const sampler = setInterval(() => {

            try {
                const mem = internals.memory(child.pid!);
                samples.push(mem.rss);
                peak = { rss: Math.max(peak.rss, mem.rss), hwm: Math.max(peak.hwm, mem.hwm) };
            }
            catch { }
        }, 100);

        const rows: Row[] = [];
        try {
            await internals.check(url, data.token, endpoints, data);
            const idle = internals.memory(child.pid!).rss;
            for (const endpoint of endpoints) {
                const requests = [{ token: endpoint.auth ? data.token : '', path: endpoint.path }];
                if (options.warmup > 0) {
                    await internals.drive(url, requests, options, { duration: options.warmup });
                }

                const row = await internals.measure(endpoint.name, child.pid!, url, requests, options, { duration: options.duration });
                rows.push(row);
                process.stderr.write(`[${db}] ${endpoint.name}: ${Math.round(row.rps)} req/s\n`);
            }

            const final = internals.memory(child.pid!);
            peak = { rss: Math.max(peak.rss, final.rss), hwm: Math.max(peak.hwm, final.hwm) };
            return { rows, idle, peak };
        }
        finally {
            clearInterval(sampler);
            await internals.stop(child);
        }
    },

    // autocannon over `requests` in turn (one shared cursor, so each URL is asked for once
    // per lap, whichever connection sends it), for a duration or an amount of requests.
    drive(url: string, requests: BenchRequest[], options: Options, bound: { duration: number } | { amount: number }) {

        let next = 0;
        return autocannon({
            url,
            connections: options.connections,
            ...bound,
            // autocannon notices that `amount` requests are done only on its sampling tick (1 s
            // by default), which rounded a one-pass run of a few seconds to whole seconds.
            ...('amount' in bound ? { sampleInt: 10 } : {}),
            requests: [{
                setupRequest: (request) => {

                    const { token, path } = requests[next++ % requests.length]!;
                    return { ...request, path, headers: { ...request.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } };
                }
            }]
        });
    },

    async measure(
        name: string,
        pid: number,
        url: string,
        requests: BenchRequest[],
        options: Options,
        bound: { duration: number } | { amount: number }
    ): Promise<Row> {

        const cpuBefore = internals.cpu(pid);
        const before = await internals.counts(url);
        const result = await internals.drive(url, requests, options, bound);
        const total = Math.max(1, result.requests.total);
        const cpuUs = (internals.cpu(pid) - cpuBefore) / total;
        const after = await internals.counts(url);
        const statements = (after.statements - before.statements) / total;
        const gcUs = (after.gcMs - before.gcMs) * 1000 / total;
        return {
            name,
            requests: result.requests.total,
            rps: result.requests.total / (result.duration || 1),
            p50: result.latency.p50,
            p99: result.latency.p99,
            non2xx: result.non2xx,
            errors: result.errors + result.timeouts,
            cpuUs,
            gcUs,
            statements
        };
    },

    // Every request must answer 200 before anything is measured (the lean floor's too).
    async expectOk(url: string, requests: BenchRequest[], what: string) {

        for (const { token, path } of requests) {
            const res = await fetch(url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
            if (res.status !== 200) {
                throw new Error(`${what} ${path} answered ${res.status}: ${await res.text()}`);
            }

            await res.arrayBuffer();
        }
    },

    // The server's read cache counts (the API only), the statements it sent
    // (bench/statement-count.ts) and its time in V8's collections (bench/gc-time.ts).
    async counts(url: string): Promise<Counts> {

        return await (await fetch(`${url}/bench/counts`)).json() as Counts;
    },

    // The integrator workload once: the month's first page and all its pages on a server
    // without read cache; every integrator's pass on a server with it; then the same three
    // on the lean floor. Each in its own process, one at a time.
    async workload(phase: string, db: Db, databaseUrl: string, data: BenchData, integrators: IntegratorData, options: Options): Promise<WorkloadResult> {

        const pages = monthPages(data);
        const first = pages.slice(0, 1);
        const passes = integratorRequests(integrators);
        const warmup = integratorWarmup(integrators, data);
        const timed = { duration: options.duration };
        const log = (name: string, row: Row) => process.stderr.write(`[${db}, ${phase}] ${name}: ${Math.round(row.rps)} req/s, p99 ${row.p99} ms\n`);
        const rows = async (script: string, readCacheMb: string, run: (pid: number, url: string) => Promise<void>) => {

            const { child, url } = await internals.start(databaseUrl, options, script, readCacheMb);
            try {
                await run(child.pid!, url);
            }
            finally {
                await internals.stop(child);
            }
        };

        const result = {} as {
            firstApp: Row;
            allApp: Row;
            integratorsApp: Row;
            cache: { hits: number; misses: number };
            firstLean: Row;
            allLean: Row;
            integratorsLean: Row;
        };
        await rows('server.ts', '0', async (pid, url) => {

            // Checked here, where nothing is cached: a URL asked for before the integrators'
            // pass would count as a hit in it.
            await internals.expectOk(url, [...first, pages.at(-1)!, ...passes.slice(0, 40), ...warmup.slice(-40)], 'API');
            await internals.drive(url, pages, options, { duration: options.warmup });
            result.firstApp = await internals.measure('first page', pid, url, first, options, timed);
            log('first page', result.firstApp);
            result.allApp = await internals.measure('all pages', pid, url, pages, options, timed);
            log('all pages', result.allApp);
        });

        // The integrators' pass, on the API with the read cache as configured (the app's
        // default unless --read-cache-mb) and on the lean floor, each in a new process warmed
        // the same way: the month's pages for the warm-up time, then the warm-up set
        // (workload.ts) for as long as a timed row, at least one lap: it runs every route the
        // pass runs, on URLs the pass never asks for, as a server that has been up has. Both
        // sides then have the same history, and the read cache holds only answers the pass
        // cannot use.
        const warm = async (url: string) => {

            await internals.drive(url, pages, options, { duration: options.warmup });
            await internals.drive(url, warmup, options, { amount: warmup.length });
            await internals.drive(url, warmup, options, timed);
        };

        await rows('server.ts', options.readCacheMb, async (pid, url) => {

            await warm(url);
            const before = await internals.counts(url);
            result.integratorsApp = await internals.measure('integrators', pid, url, passes, options, { amount: passes.length });
            const after = await internals.counts(url);
            result.cache = { hits: after.hits - before.hits, misses: after.misses - before.misses };
            log('integrators', result.integratorsApp);
        });

        await rows('lean.ts', '', async (pid, url) => {

            await internals.expectOk(url, [...first, pages.at(-1)!, ...passes.slice(0, 40), ...warmup.slice(-40)], 'lean floor');
            await internals.drive(url, pages, options, { duration: options.warmup });
            result.firstLean = await internals.measure('first page', pid, url, first, options, timed);
            result.allLean = await internals.measure('all pages', pid, url, pages, options, timed);
        });

        await rows('lean.ts', '', async (pid, url) => {

            await warm(url);
            result.integratorsLean = await internals.measure('integrators', pid, url, passes, options, { amount: passes.length });
            log('lean floor, integrators', result.integratorsLean);
        });

        return {
            phase,
            firstPage: { app: result.firstApp, lean: result.firstLean },
            allPages: { app: result.allApp, lean: result.allLean, pages: pages.length },
            integrators: { app: result.integratorsApp, lean: result.integratorsLean, users: integrators.users.length, urls: passes.length, cache: result.cache }
        };
    },

    async run(db: Db, options: Options): Promise<RunResult> {

        const { url: databaseUrl, cleanup } = await internals.prepare(db);
        try {
            const seedStart = Date.now();
            const { data, integrators } = await internals.seed(databaseUrl);
            const cuits = integrators.users.reduce((sum, user) => sum + user.cuits.length, 0);
            process.stderr.write(`[${db}] seeded 1,000 CUITs and 100,000 invoices, and ${integrators.users.length} integrator users with ${cuits} CUITs, in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`);

            const workload: WorkloadResult[] = [];
            // A profile of the endpoints alone unless --workload integrators asks for theirs.
            const integratorsToo = options.workload === 'integrators' || (options.workload === 'both' && !options.profile);
            if (integratorsToo) {
                workload.push(await internals.workload('right after seeding', db, databaseUrl, data, integrators, options));
            }

            await internals.analyze(db, databaseUrl);
            const endpoints = options.workload === 'integrators' ? {
                rows: [],
                idle: 0,
                peak: { rss: 0, hwm: 0 }
            } : await internals.endpoints(databaseUrl, data, options, db);
            if (integratorsToo) {
                workload.push(await internals.workload('after ANALYZE', db, databaseUrl, data, integrators, options));
            }

            return { db, ...endpoints, workload };
        }
        finally {
            await cleanup();
        }
    },

    // A markdown table: the first column left-aligned, the others right-aligned.
    markdown(header: string[], lines: string[][]): string[] {

        const widths = header.map((_, c) => Math.max(header[c]!.length, ...lines.map((line) => line[c]!.length)));
        const format = (cells: string[]) => `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
        return [format(header), `|${widths.map((w, c) => (c === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...lines.map(format)];
    },

    dbName: (db: Db): string => (db === 'sqlite' ? 'SQLite (better-sqlite3)' : 'MariaDB (mysql2)'),

    table(result: RunResult, options: Options): string {

        if (!result.rows.length) {
            return '';
        }

        // Without the ceiling (a profiling run) there is no ratio and no verdict.
        const isCeiling = (row: Row) => row.name.endsWith('(ceiling)');
        const ceiling = result.rows.find(isCeiling)?.rps ?? Number.NaN;
        const header = ['endpoint', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'CPU µs/req', 'GC µs/req', 'statements/req', 'non-2xx', 'verdict'];
        const lines = result.rows.map((row) => {

            const ratio = row.rps / ceiling;
            const ok = ratio >= internals.targets.ratio && row.p99 < internals.targets.p99 && row.non2xx === 0 && row.errors === 0;
            const verdict = isCeiling(row) || Number.isNaN(ceiling) ? '' : ok ? 'ok' : 'MISS';
            return [
                row.name,
                String(Math.round(row.rps)),
                Number.isNaN(ratio) ? '' : ratio.toFixed(2),
                String(row.p50),
                String(row.p99),
                String(Math.round(row.cpuUs)),
                String(Math.round(row.gcUs)),
                row.statements.toFixed(2),
                String(row.non2xx + row.errors),
                verdict
            ];
        });

        const rssOk = result.peak.hwm < internals.targets.rssMb;
        return [
            `### ${internals.dbName(result.db)} — ${options.connections} connections, ${options.duration} s per endpoint`,
            '',
            ...internals.markdown(header, lines),
            '',
            `Server RSS: ${result.idle.toFixed(0)} MB idle after seeding, ${result.peak.rss.toFixed(0)} MB peak sampled, VmHWM ${result.peak.hwm.toFixed(0)} MB (target < ${internals.targets.rssMb} MB: ${rssOk ? 'ok' : 'MISS'})`,
            ''
        ].join('\n');
    },

    // Each row against the API's first page of the same run and against the lean floor's row
    // of the same requests: ratios measured side by side hold on a loaded machine where the
    // absolute figures do not.
    workloadTable(result: RunResult, options: Options): string {

        if (!result.workload.length) {
            return '';
        }

        const { targets } = internals;
        const header = [
            'phase',
            'workload',
            'req/s',
            'vs first page',
            'vs lean floor',
            'p50 ms',
            'p99 ms',
            'CPU µs/req',
            'GC µs/req',
            'statements/req',
            'requests',
            'non-2xx',
            'verdict'
        ];
        const lines: string[][] = [];
        for (const run of result.workload) {
            const { cache } = run.integrators;
            const hitRate = cache.hits + cache.misses ? `${(100 * cache.hits / (cache.hits + cache.misses)).toFixed(1)} %` : 'n/a';
            const rows: [string, Row, Row, Row, string][] = [
                ['API, first page (1 URL, no read cache)', run.firstPage.app, run.firstPage.app, run.firstPage.lean, ''],
                [`API, all ${run.allPages.pages} pages in turn (no read cache)`, run.allPages.app, run.firstPage.app, run.allPages.lean,
                    run.allPages.app.rps / run.firstPage.app.rps >= targets.pages && run.allPages.app.p99 < targets.pagesP99 ? 'ok' : 'MISS'],
                [`API, integrators: ${run.integrators.users} users, ${run.integrators.urls} URLs once (read cache hits ${hitRate})`, run.integrators.app, run.firstPage.app, run.integrators.lean,
                    run.integrators.app.rps / run.integrators.lean.rps >= targets.lean ? 'ok' : 'MISS'],
                ['lean floor, first page', run.firstPage.lean, run.firstPage.lean, run.firstPage.lean, ''],
                ['lean floor, all pages in turn', run.allPages.lean, run.firstPage.lean, run.allPages.lean, ''],
                ['lean floor, integrators', run.integrators.lean, run.firstPage.lean, run.integrators.lean, '']
            ];
            for (const [name, row, first, lean, verdict] of rows) {
                const failed = row.non2xx + row.errors;
                lines.push(
                    [
                        run.phase,
                        name,
                        String(Math.round(row.rps)),
                        (row.rps / first.rps).toFixed(2),
                        (row.rps / lean.rps).toFixed(2),
                        String(row.p50),
                        String(row.p99),
                        String(Math.round(row.cpuUs)),
                        String(Math.round(row.gcUs)),
                        row.statements.toFixed(2),
                        String(row.requests),
                        String(failed),
                        failed ? 'MISS' : verdict
                    ]
                );
            }
        }

        return [
            `### ${internals.dbName(result.db)}, integrator workload — ${options.connections} connections, ${options.duration} s per timed row (integrators: one pass)`,
            '',
            ...internals.markdown(header, lines),
            ''
        ].join('\n');
    }
};

const options = internals.options();
const tables: string[] = [];
for (const db of options.dbs) {
    const result = await internals.run(db, options);
    tables.push(internals.table(result, options), internals.workloadTable(result, options));
}

rmSync(internals.logFile, { force: true });     // kept only when a run fails
const flags = (options.nodeOptions ? ` Server NODE_OPTIONS: ${options.nodeOptions}.` : '') + (options.readCacheMb ? ` Server READ_CACHE_MB=${options.readCacheMb}.` : '');
const { targets } = internals;
process.stdout.write(`\n${tables.filter(Boolean).join('\n')}\nTargets: every authenticated endpoint ≥ ${targets.ratio} of the ceiling, p99 < ${targets.p99} ms; server RSS < ${targets.rssMb} MB; ` +
    `all pages ≥ ${targets.pages} of the first page with p99 < ${targets.pagesP99} ms; integrators ≥ ${targets.lean} of the lean floor. ` +
    `Node ${process.versions.node}, ${cpus().length} CPUs, load average ${loadavg().map((load) => load.toFixed(2)).join(' ')} at the end.${flags}\n`);
