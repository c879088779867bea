import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { composeApp } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { seedBench } from './seed.js';
import type { BenchData } from './seed.js';

// npm run bench:api -- [--db sqlite|mysql|both] [--duration 10] [--connections 32]
//                      [--warmup 2] [--only emitidos] [--profile DIR] [--read-cache-mb 0]
//                      ["--node-options=--max-semi-space-size=4 ..."]
// --profile writes the server's CPU profile (node --cpu-prof) to DIR and skips the ceiling,
// so the profile holds only the endpoints measured. --read-cache-mb sets the server's
// READ_CACHE_MB (0: every request reads the database, the cold path).
// (BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/ names the MariaDB server; the bench creates
// and drops its own database, arcasync_bench.)
//
// Seeds a database, starts bench/server.ts (the app composed like `arcasync serve`, plus a
// bare route) as a child process, drives each endpoint with autocannon and samples the
// child's RSS from /proc. Rate limits are raised by configuration, so every request is still
// counted by the database-backed limiter but none is refused.

interface Row {
    name: string;
    rps: number;
    p50: number;
    p99: number;
    non2xx: number;
    errors: number;
    cpuUs: number;             // server CPU (user + system) per request, in µs
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
}

interface RunResult {
    db: Db;
    rows: Row[];
    idle: number;
    peak: { rss: number; hwm: number };
}

const internals = {
    targets: { ratio: 0.30, p99: 25, rssMb: 200 },
    mysqlBase: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/',
    mysqlDatabase: 'arcasync_bench',

    options(): Options {

        const { values } = parseArgs({
            options: {
                db: { type: 'string', default: 'both' },
                duration: { type: 'string', default: '10' },
                connections: { type: 'string', default: '32' },
                warmup: { type: 'string', default: '2' },
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

        return {
            dbs: values.db === 'both' ? ['sqlite', 'mysql'] : [values.db as Db],
            duration: Number(values.duration),
            connections: Number(values.connections),
            warmup: Number(values.warmup),
            only: values.only!,
            profile: values.profile!,
            readCacheMb: values['read-cache-mb']!,
            nodeOptions: values['node-options']!
        };
    },

    async mysqlAdmin<T>(fn: (knex: Knex) => Promise<T>): Promise<T> {

        const url = new URL(internals.mysqlBase);
        const knex = knexFactory({
            client: 'mysql2',
            connection: { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
        });
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

    async seed(db: Db, databaseUrl: string): Promise<BenchData> {

        const app = await composeApp(loadConfig(internals.env(databaseUrl)));
        try {
            const data = await seedBench(app);
            if (db === 'mysql') {
                // InnoDB recalculates statistics in the background some time after a bulk
                // load; until then it may scan the invoice index from the client's first row.
                // A steady-state server has current statistics, so the bench refreshes them.
                await app.knex.raw('ANALYZE TABLE invoices, clients, client_tags, tags, tokens, users, accounts, rate_limits, sync_states');
            }

            return data;
        }
        finally {
            await app.close();
        }
    },

    // The server's own log (one line per request at the default level) goes to a file, as
    // it would in production, not through this process.
    logFile: join(tmpdir(), 'arcasync-bench-server.log'),

    start(databaseUrl: string, options: Options): Promise<{ child: ChildProcess; url: string }> {

        const log = openSync(internals.logFile, 'w');
        const profile = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`] : [];
        const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(import.meta.dirname, 'server.ts')], {
            env: { ...internals.env(databaseUrl), ...(options.readCacheMb ? { READ_CACHE_MB: options.readCacheMb } : {}), NODE_OPTIONS: [process.env.NODE_OPTIONS, options.nodeOptions].filter(Boolean).join(' ') },
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

    async run(db: Db, options: Options): Promise<RunResult> {

        const { url: databaseUrl, cleanup } = await internals.prepare(db);
        try {
            const seedStart = Date.now();
            const data = await internals.seed(db, databaseUrl);
            process.stderr.write(`[${db}] seeded 1,000 CUITs and 100,000 invoices in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`);

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
                    const headers: Record<string, string> = endpoint.auth ? { authorization: `Bearer ${data.token}` } : {};
                    if (options.warmup > 0) {
                        await autocannon({ url: url + endpoint.path, connections: options.connections, duration: options.warmup, headers });
                    }

                    const cpuBefore = internals.cpu(child.pid!);
                    const result = await autocannon({ url: url + endpoint.path, connections: options.connections, duration: options.duration, headers });
                    const cpuUs = (internals.cpu(child.pid!) - cpuBefore) / Math.max(1, result.requests.total);
                    rows.push({ name: endpoint.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts, cpuUs });
                    process.stderr.write(`[${db}] ${endpoint.name}: ${Math.round(result.requests.average)} req/s\n`);
                }

                const final = internals.memory(child.pid!);
                peak = { rss: Math.max(peak.rss, final.rss), hwm: Math.max(peak.hwm, final.hwm) };
                return { db, rows, idle, peak };
            }
            finally {
                clearInterval(sampler);
                await internals.stop(child);
            }
        }
        finally {
            await cleanup();
        }
    },

    table(result: RunResult, options: Options): string {

        // Without the ceiling (a profiling run) there is no ratio and no verdict.
        const isCeiling = (row: Row) => row.name.endsWith('(ceiling)');
        const ceiling = result.rows.find(isCeiling)?.rps ?? Number.NaN;
        const header = ['endpoint', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'CPU µs/req', 'non-2xx', 'verdict'];
        const lines = result.rows.map((row) => {

            const ratio = row.rps / ceiling;
            const ok = ratio >= internals.targets.ratio && row.p99 < internals.targets.p99 && row.non2xx === 0 && row.errors === 0;
            const verdict = isCeiling(row) || Number.isNaN(ceiling) ? '' : ok ? 'ok' : 'MISS';
            return [row.name, String(Math.round(row.rps)), Number.isNaN(ratio) ? '' : ratio.toFixed(2), String(row.p50), String(row.p99), String(Math.round(row.cpuUs)), String(row.non2xx + row.errors), verdict];
        });

        const widths = header.map((_, c) => Math.max(header[c]!.length, ...lines.map((line) => line[c]!.length)));
        const format = (cells: string[]) => `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
        const rssOk = result.peak.hwm < internals.targets.rssMb;
        return [
            `### ${result.db === 'sqlite' ? 'SQLite (better-sqlite3)' : 'MariaDB (mysql2)'} — ${options.connections} connections, ${options.duration} s per endpoint`,
            '',
            format(header),
            `|${widths.map((w, c) => (c === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
            ...lines.map(format),
            '',
            `Server RSS: ${result.idle.toFixed(0)} MB idle after seeding, ${result.peak.rss.toFixed(0)} MB peak sampled, VmHWM ${result.peak.hwm.toFixed(0)} MB (target < ${internals.targets.rssMb} MB: ${rssOk ? 'ok' : 'MISS'})`,
            ''
        ].join('\n');
    }
};

const options = internals.options();
const tables: string[] = [];
for (const db of options.dbs) {
    tables.push(internals.table(await internals.run(db, options), options));
}

rmSync(internals.logFile, { force: true });     // kept only when a run fails
const flags = (options.nodeOptions ? ` Server NODE_OPTIONS: ${options.nodeOptions}.` : '') + (options.readCacheMb ? ` Server READ_CACHE_MB=${options.readCacheMb}.` : '');
process.stdout.write(`\n${tables.join('\n')}\nTargets: every authenticated endpoint ≥ ${internals.targets.ratio} of the ceiling, p99 < ${internals.targets.p99} ms; server RSS < ${internals.targets.rssMb} MB. Node ${process.versions.node}.${flags}\n`);
