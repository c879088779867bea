import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { runBuiltCli, runInProcess } from '../support/cli.js';
import { operatorMessages } from '../../app/messages.js';

// Only `migrate` and the demo create a database. Every other command, started anywhere (a
// desktop MCP client starts `mcp` in a directory of its own), fails with one Spanish line
// naming the file it looked for, and leaves nothing behind: no ./data, no secret.key.

const internals = {
    // The environment of a process started without DATABASE_URL (the embedded default).
    env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {

        const env: NodeJS.ProcessEnv = { ...process.env };
        delete env.DATABASE_URL;
        delete env.TEST_MYSQL_URL;
        delete env.ARCASYNC_SECRET_KEY;
        return { ...env, ...extra };
    }
};

describe('CLI without a database', function () {

    this.timeout(120_000);
    let dir: string;

    beforeEach(() => {

        dir = mkdtempSync(join(tmpdir(), 'arcasync-cwd-'));
    });

    afterEach(() => {

        rmSync(dir, { recursive: true, force: true });
    });

    it('mcp started from another directory names the file it looked for and creates nothing', async () => {

        const result = await runBuiltCli(['mcp'], { cwd: dir, env: internals.env({ ARCASYNC_TOKEN: 'asy_cualquiera' }), input: '' });
        expect(result.code).to.equal(1);
        expect(result.stdout).to.equal('');
        expect(result.stderr).to.equal(`Error: ${operatorMessages.noDatabase(join(dir, 'data/arcasync.sqlite'))}\n`);
        expect(readdirSync(dir)).to.deep.equal([]);
    });

    it('no command but migrate creates one; after migrate they work on it', async () => {

        const expected = `Error: ${operatorMessages.noDatabase(join(dir, 'data/arcasync.sqlite'))}\n`;
        for (const argv of [
            ['account', 'show', '1'],
            ['sync', '--due'],
            ['sync', 'status'],
            ['secret', 'rotate'],
            ['secret', 'status'],
            ['serve', '--port', '0'],
            ['user', 'set-password', '--user', '1', '--password', 'una clave larga']
        ]) {
            const result = await runInProcess(argv, { cwd: dir, env: internals.env() });
            expect(result.code, argv.join(' ')).to.equal(1);
            expect(result.stderr, argv.join(' ')).to.equal(expected);
            expect(readdirSync(dir), argv.join(' ')).to.deep.equal([]);
        }

        const relative = await runInProcess(['account', 'show', '1'], { cwd: dir, env: internals.env({ DATABASE_URL: 'sqlite:otra/base.sqlite' }) });
        expect(relative.stderr).to.include(join(dir, 'otra/base.sqlite'));

        const migrated = await runInProcess(['migrate', '--json'], { cwd: dir, env: internals.env() });
        expect(migrated.code).to.equal(0);
        expect(migrated.stderr).to.equal('');
        const shown = await runInProcess(['account', 'show', '1'], { cwd: dir, env: internals.env() });
        expect(shown.stderr).to.equal(`Error: ${messages.admin.accountNotFound(1)}\n`);
    });
});
