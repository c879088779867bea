import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { spawn } from 'node:child_process';
import { composeApp } from '../../app/compose.js';
import { loadConfig } from '../../app/config.js';
import { signIn } from '../../core/use-cases/sign-in.js';
import { builtCli } from '../support/build.js';
import { runInProcess } from '../support/cli.js';

// The demo's banner says where everything is and how to sign in and stop; the database it
// creates (the first test starts it) holds made-up clients and keys: after the demo, every
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

describe('the demo (npm start) and its database', function () {

    this.timeout(120_000);
    let dir: string;

    before(() => {

        dir = mkdtempSync(join(tmpdir(), 'arcasync-demo-'));
    });

    after(() => {

        rmSync(dir, { recursive: true, force: true });
    });

    it('prints where the docs and /mcp are, how to sign in and how to stop; seeds tags', async () => {

        const child = spawn(
            process.execPath,
            [builtCli(), 'demo', '--host', '127.0.0.1', '--port', '0'],
            { cwd: dir, env: internals.env(), stdio: ['ignore', 'pipe', 'pipe'] }
        );
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        let banner = '';
        try {
            banner = await new Promise<string>((resolve, reject) => {

                let stdout = '';
                child.stdout!.on('data', (chunk: Buffer) => {

                    stdout += chunk.toString();
                    if (stdout.includes('Ctrl+C')) {
                        resolve(stdout);
                    }
                });
                child.once('exit', () => reject(new Error(`demo exited: ${stdout}`)));
            });

            const url = /escuchando en (http:\/\/\S+)/.exec(banner)![1]!;
            const password = /contraseña (demo-[0-9a-f]+)/.exec(banner)![1]!;
            const token = /asy_[A-Za-z0-9_-]+/.exec(banner)![0];
            expect(banner).to.include(`Documentación de la API: ${url}/docs`);
            expect(banner).to.include(`MCP: ${url}/mcp`);
            expect(banner).to.include('demo@arcasync.local');
            expect(banner).to.include('Para detenerlo: Ctrl+C.');
            expect((await fetch(`${url}/docs`)).status).to.equal(200);
            expect(banner).to.include(`Panel: ${url}/panel (usuario demo@arcasync.local, contraseña ${password})`);
            expect(banner.indexOf('Panel:')).to.be.lessThan(banner.indexOf('Token de acceso'));

            // The panel opens on a portfolio with every light and an "Otros" group.
            const form = await fetch(`${url}/panel/ingresar`);
            const cookies = form.headers.getSetCookie().map((line) => line.split(';')[0]!);
            const [, field, crumb] = /<input type="hidden" name="([^"]+)" value="([^"]*)">/.exec(await form.text())!;
            const signedIn = await fetch(`${url}/panel/ingresar`, {
                method: 'POST',
                redirect: 'manual',
                headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.join('; ') },
                body: new URLSearchParams({ email: 'demo@arcasync.local', password, [field!]: crumb! }).toString()
            });
            expect(signedIn.status).to.equal(303);
            const session = [...cookies, ...signedIn.headers.getSetCookie().map((line) => line.split(';')[0]!)].join('; ');
            const portfolio = await (await fetch(`${url}/panel`, { headers: { cookie: session } })).text();
            expect(portfolio).to.include('light-ok').and.include('light-waiting').and.include('light-attention');
            expect(portfolio).to.include('id="grupo-otros"').and.include('Gómez, Sofía').and.include('Ruiz, Tomás');
            const tags = await (await fetch(`${url}/v1/tags`, { headers: { authorization: `Bearer ${token}` } })).json() as { data: { nombre: string }[] };
            expect(tags.data.map((tag) => tag.nombre)).to.have.members(['Monotributo', 'Sociedades', 'Clientes nuevos']);

            child.kill('SIGTERM');
            expect(await exited).to.equal(0);
            const app = await composeApp(loadConfig(internals.env(), dir));
            try {
                expect(await signIn(app.ports, { email: 'demo@arcasync.local', password })).to.not.equal(null);
            }
            finally {
                await app.close();
            }
        }
        finally {
            child.kill('SIGTERM');
        }
    });

    it('refuses every command that would send its keys to ARCA, with one line', async () => {

        for (const argv of [
            ['sync', '--due'],
            ['sync', '--all'],
            ['sync', '--cuit', '20-12345678-6'],
            ['sync', 'worker'],
            ['serve', '--port', '0', '--worker'],
            ['authority', 'probe', '--cuit', '20123456786']
        ]) {
            const result = await runInProcess(argv, { cwd: dir, env: internals.env() });
            expect(result.code, argv.join(' ')).to.equal(1);
            expect(result.stdout, argv.join(' ')).to.equal('');
            expect(result.stderr, argv.join(' ')).to.equal(`Error: ${messages.sync.simulatedDatabase}\n`);
        }

        const json = await runInProcess(['sync', '--due', '--json'], { cwd: dir, env: internals.env() });
        expect(JSON.parse(json.stderr)).to.deep.equal({ error: messages.sync.simulatedDatabase });
    });

    it('runs them against the simulated authority, and what contacts no authority', async () => {

        const status = await runInProcess(['sync', 'status', '--json'], { cwd: dir, env: internals.env() });
        expect(status.code, status.stderr).to.equal(0);
        expect(JSON.parse(status.stdout).summary.clients).to.equal(8);

        // Two of the demo's keys are there to fail (the panel's red and amber lights).
        const simulated = await runInProcess(['sync', '--all', '--json'], { cwd: dir, env: internals.env({ AUTHORITY: 'simulated' }) });
        expect(simulated.code, simulated.stderr).to.equal(3);
        const summary = JSON.parse(simulated.stdout) as { synced: number; failed: number; failures: { cuit: string }[] };
        expect(summary).to.include({ synced: 6, failed: 2 });
        expect(summary.failures.map((failed) => failed.cuit)).to.have.members(['20456789014', '27567890126']);
    });
});
