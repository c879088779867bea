import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { messages } from '../core/domain/messages.js';
import { runInProcess, startCliProcess } from './support/cli.js';

// The database `npm start` creates holds made-up clients and keys: after the demo, every
// command that would contact the real authority for it (the README's cron line among them)
// refuses with one line; with AUTHORITY=simulated they run.

const internals = {
    // A process started like `npm start`: the embedded default, no authority settings.
    env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {

        const env: NodeJS.ProcessEnv = { ...process.env };
        for (const name of ['DATABASE_URL', 'TEST_MYSQL_URL', 'ARCASYNC_SECRET_KEY', 'AUTHORITY', 'AUTHORITY_URL', 'METRICS_PORT']) {
            delete env[name];
        }

        return { ...env, LOG_LEVEL: 'silent', ...extra };
    }
};

describe('the demo database and the real authority', function () {

    this.timeout(120_000);
    let dir: string;

    before(async () => {

        dir = mkdtempSync(join(tmpdir(), 'arcasync-demo-'));
        const demo = await startCliProcess(['demo', '--host', '127.0.0.1', '--port', '0', '--json'], { cwd: dir, env: internals.env() });
        demo.child.kill('SIGTERM');
        expect(await demo.exited).to.equal(0);
    });

    after(() => {

        rmSync(dir, { recursive: true, force: true });
    });

    it('refuses every command that would send its keys to ARCA, with one line', async () => {

        for (const argv of [['sync', '--due'], ['sync', '--all'], ['sync', '--cuit', '20-12345678-6'], ['sync', 'worker'], ['serve', '--port', '0', '--worker'], ['authority', 'probe', '--cuit', '20123456786']]) {
            const result = await runInProcess(argv, { cwd: dir, env: internals.env() });
            expect(result.code, argv.join(' ')).to.equal(1);
            expect(result.stdout, argv.join(' ')).to.equal('');
            expect(result.stderr, argv.join(' ')).to.equal(`error: ${messages.sync.simulatedDatabase}\n`);
        }

        const json = await runInProcess(['sync', '--due', '--json'], { cwd: dir, env: internals.env() });
        expect(JSON.parse(json.stderr)).to.deep.equal({ error: messages.sync.simulatedDatabase });
    });

    it('runs them against the simulated authority, and what contacts no authority', async () => {

        const status = await runInProcess(['sync', 'status', '--json'], { cwd: dir, env: internals.env() });
        expect(status.code, status.stderr).to.equal(0);
        expect(JSON.parse(status.stdout).summary.clients).to.equal(4);

        const simulated = await runInProcess(['sync', '--all', '--json'], { cwd: dir, env: internals.env({ AUTHORITY: 'simulated' }) });
        expect(simulated.code, simulated.stderr).to.equal(0);
        expect(JSON.parse(simulated.stdout)).to.include({ synced: 4, failed: 0 });
    });
});
