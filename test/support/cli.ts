import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The real CLI in a child process (`node --import tsx cli/main.ts ...`), on a test database.

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    // Test databases are not the embedded default, where `serve` requires a key.
    serveKey: randomBytes(32).toString('base64'),

    env(databaseUrl: string, extra: Record<string, string>): NodeJS.ProcessEnv {

        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, ...extra };
        delete env.TEST_MYSQL_URL;
        return env;
    }
};

export interface CliResult {
    code: number | null;
    stdout: string;
    stderr: string;
}

// A Node process run to its end: its exit code and what it printed; `input` goes to its stdin.
export const runProcess = (args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<CliResult> => {

    return new Promise((resolve, reject) => {

        const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (chunk: Buffer) => {

            stdout += chunk.toString();
        });
        child.stderr!.on('data', (chunk: Buffer) => {

            stderr += chunk.toString();
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        if (options.input !== undefined) {
            child.stdin!.end(options.input);
        }
    });
};

export const runCli = (databaseUrl: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> => {

    return runProcess(['--import', 'tsx', 'cli/main.ts', ...args], { cwd: internals.root, env: internals.env(databaseUrl, env), ...(input === undefined ? {} : { input }) });
};

export interface ServeProcess {
    url: string;
    child: ChildProcess;
    stop(): Promise<void>;
}

// `arcasync serve --port 0 --json` in its own process; resolves once it prints where it listens.
export const startServeProcess = (databaseUrl: string, env: Record<string, string> = {}): Promise<ServeProcess> => {

    return new Promise((resolve, reject) => {

        const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'serve', '--host', '127.0.0.1', '--port', '0', '--json'], { cwd: internals.root, env: internals.env(databaseUrl, { ARCASYNC_SECRET_KEY: internals.serveKey, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        child.stderr.on('data', (chunk: Buffer) => {

            stderr += chunk.toString();
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
        child.stdout.on('data', (chunk: Buffer) => {

            stdout += chunk.toString();
            const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
            if (line) {
                resolve({
                    url: (JSON.parse(line) as { url: string }).url,
                    child,
                    async stop() {

                        if (child.exitCode === null) {
                            child.kill('SIGTERM');
                            await exited;
                        }
                    }
                });
            }
        });
    });
};
