import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { cliEnv, runCli, runInProcess, startCliProcess } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { operatorMessages } from '../../app/messages.js';

// `npm start` is everyone's reflex, pointed at whatever DATABASE_URL says: the demo writes
// nothing to a database it did not create (one holding real accounts, or one just made by
// `migrate`), and a second start never changes the credentials a running demo printed.

const internals = {
    key: randomBytes(32).toString('base64'),

    // Every row and the schema, as the database's own tool dumps them.
    dump(url: string): string {

        if (url.startsWith('sqlite:')) {
            const file = url.slice('sqlite:'.length);
            return `${execFileSync('sqlite3', [file, '.dump'], { encoding: 'utf8' })}\n${readFileSync(file).toString('base64')}`;
        }

        const parsed = new URL(url);
        return execFileSync(
            'mysqldump',
            [
                '--protocol=tcp',
                '-h',
                parsed.hostname,
                '-P',
                parsed.port || '3306',
                '-u',
                decodeURIComponent(parsed.username),
                '--skip-dump-date',
                '--skip-comments',
                parsed.pathname.slice(1)
            ],
            { encoding: 'utf8' }
        );
    },

    demoEnv(url: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {

        const env = cliEnv(url, { AUTHORITY: 'simulated', LOG_LEVEL: 'silent' });
        delete env.ARCASYNC_SECRET_KEY;
        delete env.AUTHORITY_URL;
        return { ...env, ...extra };
    }
};

for (const database of testDatabases()) {

    describe(`the demo leaves a database it did not create as it was (${database.name})`, function () {

        this.timeout(60_000);

        it('refuses a database holding an account, with or without a key, and changes no byte of it', async () => {

            const db = await database.create();
            try {
                expect((await runCli(db.url, ['migrate'])).code).to.equal(0);
                const account = await runCli(db.url, ['account', 'create', '--name', 'Estudio real', '--json'], { ARCASYNC_SECRET_KEY: internals.key });
                expect(account.code, account.stderr).to.equal(0);
                const before = internals.dump(db.url);

                const keyless = await runInProcess(['demo', '--port', '0'], { env: internals.demoEnv(db.url) });
                const keyed = await runInProcess(['demo', '--port', '0'], { env: internals.demoEnv(db.url, { ARCASYNC_SECRET_KEY: internals.key }) });
                const json = await runInProcess(['demo', '--port', '0', '--json'], { env: internals.demoEnv(db.url, { ARCASYNC_SECRET_KEY: internals.key }) });
                expect(internals.dump(db.url)).to.equal(before);

                expect(keyless.code).to.equal(1);
                expect(keyless.stderr).to.equal(`Error: ${operatorMessages.secretKeyMissing}\n`);
                expect(keyed.code).to.equal(1);
                expect(keyed.stdout).to.equal('');
                expect(keyed.stderr.trimEnd().split('\n')).to.have.length(1);
                expect(keyed.stderr).to.include('no la creó la demostración').and.include('DATABASE_URL').and.include("'arcasync serve'");
                expect(keyed.stderr).to.not.include(':@').and.not.include('password');
                expect(JSON.parse(json.stderr).error).to.include('DATABASE_URL');
            }
            finally {
                await db.release();
            }
        });

        it('refuses an empty database made by migrate: it is someone\'s production-to-be', async () => {

            const db = await database.create();
            try {
                expect((await runCli(db.url, ['migrate'])).code).to.equal(0);
                const before = internals.dump(db.url);
                const result = await runInProcess(['demo', '--port', '0'], { env: internals.demoEnv(db.url, { ARCASYNC_SECRET_KEY: internals.key }) });
                expect(result.code).to.equal(1);
                expect(result.stderr).to.include('no la creó la demostración');
                expect(internals.dump(db.url)).to.equal(before);
            }
            finally {
                await db.release();
            }
        });
    });
}

describe('a second demo start while the first runs', function () {

    this.timeout(120_000);

    it('refuses before writing: the first demo\'s token and password keep working', async () => {

        const dir = mkdtempSync(join(tmpdir(), 'arcasync-demo-twice-'));
        const env = internals.demoEnv('');
        delete env.DATABASE_URL;
        delete env.AUTHORITY;
        const first = await startCliProcess(['demo', '--host', '127.0.0.1', '--port', '0', '--json'], { cwd: dir, env });
        try {
            const { url, token, password, panel } = first.first as { url: string; token: string; password: string; panel: string };
            expect(panel).to.equal(`${url}/panel`);
            expect((await fetch(`${panel}/ingresar`)).status).to.equal(200);
            const file = join(dir, 'data/arcasync.sqlite');
            const before = execFileSync(
                'sqlite3',
                [file, 'select * from tokens order by id; select id, password_hash from users order by 1;'],
                { encoding: 'utf8' }
            );

            const busyPort = await runInProcess(['demo', '--port', new URL(url).port], { cwd: dir, env });
            expect(busyPort.code).to.equal(1);
            expect(busyPort.stderr).to.include(`El puerto ${new URL(url).port}`);

            const second = await runInProcess(['demo', '--port', '0'], { cwd: dir, env });
            expect(second.code).to.equal(1);
            expect(second.stderr).to.include('La demostración ya está en marcha').and.include(String(first.child.pid));
            expect(second.stderr.trimEnd().split('\n')).to.have.length(1);

            expect(
                execFileSync('sqlite3', [file, 'select * from tokens order by id; select id, password_hash from users order by 1;'], { encoding: 'utf8' })
            ).to.equal(before);
            expect((await fetch(`${url}/v1/cuits`, { headers: { authorization: `Bearer ${token}` } })).status).to.equal(200);
            expect(password).to.match(/^demo-/);

            first.child.kill('SIGTERM');
            expect(await first.exited).to.equal(0);
            // Stopped, it gives the database back: the next start runs.
            const third = await startCliProcess(['demo', '--host', '127.0.0.1', '--port', '0', '--json'], { cwd: dir, env });
            third.child.kill('SIGTERM');
            expect(await third.exited).to.equal(0);
        }
        finally {
            first.child.kill('SIGTERM');
            await first.exited;
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
