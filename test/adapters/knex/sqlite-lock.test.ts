import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { composeApp } from '../../../app/compose.js';
import { loadConfig, sqliteFileOf } from '../../../app/config.js';
import { displayName, sortKey } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { messages } from '../../../core/domain/messages.js';
import { testDatabases } from '../../support/databases.js';
import { cliEnv, runBuiltCli } from '../../support/cli.js';
import { seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer } from '../../support/server.js';
import { databaseOf, testEnv } from '../../support/app.js';

// Another process holding SQLite's write lock (a backup, the sqlite3 shell: BEGIN IMMEDIATE)
// must not freeze the server (issue 29, item 3). Writes of the request path (rate-limit
// counters) waited on the event loop for the lock, so every request, /healthcheck included,
// waited with them; now they are answered 503 with Retry-After while the lock is held, and
// /healthcheck keeps answering. The lock is held for 8 s, less than the wait the server used
// to accept: before, the request waited it out and was served; now it is refused at once.

const internals = {
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    holdMs: 8_000,

    // A process of its own that writes all the time, as a worker saving its syncs does: the
    // write lock held 30 ms of every 40; resolves once it writes.
    write(file: string): Promise<ChildProcess> {

        const script = `const Database = require('better-sqlite3'); const db = new Database(${JSON.stringify(file)}); db.pragma('busy_timeout = 10000');
            db.exec('CREATE TABLE IF NOT EXISTS test_writes (n INTEGER)'); const insert = db.prepare('INSERT INTO test_writes (n) VALUES (1)');
            const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
            const tick = () => { db.exec('BEGIN IMMEDIATE'); insert.run(); pause(35); db.exec('COMMIT'); setTimeout(tick, 5); };
            process.stdout.write('writing\\n'); tick();`;
        const child = spawn(process.execPath, ['-e', script], { cwd: internals.root, stdio: ['ignore', 'pipe', 'inherit'] });
        return new Promise((resolve, reject) => {

            child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('writing') && resolve(child));
            child.once('exit', (code) => reject(new Error(`writer exited with ${code}`)));
        });
    },

    // A process of its own holding the write lock; resolves once it holds it.
    hold(file: string, ms: number): Promise<ChildProcess> {

        const script = `const Database = require('better-sqlite3'); const db = new Database(${JSON.stringify(file)}); db.exec('BEGIN IMMEDIATE'); process.stdout.write('locked\\n'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`;
        const child = spawn(process.execPath, ['-e', script], { cwd: internals.root, stdio: ['ignore', 'pipe', 'inherit'] });
        return new Promise((resolve, reject) => {

            child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve(child));
            child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
        });
    }
};

describe('a SQLite write lock held by another process', function () {

    this.timeout(60_000);

    let server: TestServer;

    before(async () => {

        server = await startTestServer(testDatabases()[0]!);
    });

    after(async () => {

        await server.stop();
    });

    it('answers requests that must write 503 with Retry-After, and /healthcheck, while the lock is held (item 3)', async () => {

        const { token } = await seedAccount(server.app.ports);
        expect((await server.request('/v1/cuits', { token })).status).to.equal(200);
        // A user with no request counted yet: its first request must write its counters.
        const fresh = await seedAccount(server.app.ports);

        const holder = await internals.hold(sqliteFileOf(server.app.config.databaseUrl)!, internals.holdMs);
        const exited = new Promise((resolve) => holder.once('exit', resolve));
        try {
            const [refused, health] = await Promise.all([server.request('/v1/cuits', { token: fresh.token }), server.request('/healthcheck')]);
            expect(holder.exitCode, 'answered while the lock was still held').to.equal(null);
            expect(refused.status, refused.text).to.equal(503);
            expect(refused.body).to.deep.equal({ error: messages.unavailable });
            expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
            expect(health.status, health.text).to.be.oneOf([200, 503]);
        }
        finally {
            await exited;
        }

        expect((await server.request('/v1/cuits', { token })).status).to.equal(200);
    });
});

// Cron's `sync --due` while other processes write (a worker's saves): scheduling the day reads
// which CUITs are due, then writes their jobs. In a transaction that read first SQLite cannot
// wait for the lock: it failed at once with "database is locked" (exit 1) whenever the other
// writer held the lock or had written since the read. Now it takes the lock as it begins and
// waits its turn; three runs at once still give each CUIT one daily job.
describe('cron scheduling the day while other processes write (SQLite)', function () {

    this.timeout(120_000);

    it('sync --due waits for the write lock instead of failing, and enqueues each CUIT once', async () => {

        const db = await testDatabases()[0]!.create();
        const secretKey = randomBytes(32).toString('base64');
        const app = await composeApp(loadConfig({ ...testEnv, DATABASE_URL: db.url, ARCASYNC_SECRET_KEY: secretKey }));
        let writer: ChildProcess | null = null;
        try {
            const { accountId } = await seedAccount(app.ports);
            for (let i = 0; i < 40; i++) {
                const cuit = `2031000${String(i).padStart(3, '0')}1` as Cuit;
                const names = { nombre: 'Ana', apellido: `Prueba ${cuit}`, razonSocial: null };
                const name = displayName({ tipo: 'persona-fisica', ...names });
                await app.ports.clients.insert({
                    publicId: randomUUID(), accountId, cuit, tipo: 'persona-fisica', ...names, representativeId: null,
                    displayName: name, sortName: sortKey(name), email: null, telefono: null, sealedKey: null, keyDigest: null, createdAt: Date.now()
                });
            }

            // Their first jobs are left aside: the runs below schedule the day.
            await databaseOf(app)('sync_jobs').delete();
            writer = await internals.write(sqliteFileOf(db.url)!);
            // A window away from now: the daily jobs wait for it and the runs end at once.
            const minute = Math.floor((Date.now() - 3 * 3_600_000) / 60_000) % 1440;
            const env = cliEnv(db.url, { ARCASYNC_SECRET_KEY: secretKey, AUTHORITY: 'simulated', LOG_LEVEL: 'silent', SYNC_WINDOW: minute < 5 ? '12:00-12:01' : '00:00-00:01' });
            const runs = await Promise.all([0, 1, 2].map(() => runBuiltCli(['sync', '--due', '--json'], { env })));
            for (const run of runs) {
                expect(run.code, run.stderr).to.equal(0);
            }

            const jobs = await databaseOf(app)('sync_jobs').select('client_id', 'reason');
            expect(jobs).to.have.length(40);
            expect(new Set(jobs.map((job) => job.client_id)).size).to.equal(40);
            expect(jobs.every((job) => job.reason === 'daily')).to.equal(true);
        }
        finally {
            writer?.kill('SIGTERM');
            await app.close();
            await db.release();
        }
    });
});
