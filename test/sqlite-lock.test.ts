import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { sqliteFileOf } from '../app/config.js';
import { messages } from '../core/domain/messages.js';
import { testDatabases } from './support/databases.js';
import { seedAccount } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { startTestServer } from './support/server.js';

// Another process holding SQLite's write lock (a backup, the sqlite3 shell: BEGIN IMMEDIATE)
// must not freeze the server (issue 29, item 3). Writes of the request path (rate-limit
// counters) waited on the event loop for the lock, so every request, /healthcheck included,
// waited with them; now they are answered 503 with Retry-After while the lock is held, and
// /healthcheck keeps answering. The lock is held for 8 s, less than the wait the server used
// to accept: before, the request waited it out and was served; now it is refused at once.

const internals = {
    root: fileURLToPath(new URL('..', import.meta.url)),
    holdMs: 8_000,

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
