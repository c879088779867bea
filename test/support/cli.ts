import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The real CLI in a child process (`node --import tsx cli/main.ts ...`), on a test database.

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    tsx: import.meta.resolve('tsx'),
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

// A long-running CLI command in its own process (any working directory); resolves with the
// first JSON line it prints on stdout, rejects if it exits before.
export const startCliProcess = (args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ child: ChildProcess; first: any; exited: Promise<number | null> }> => {

    const child = spawn(process.execPath, ['--import', internals.tsx, join(internals.root, 'cli/main.ts'), ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return new Promise((resolve, reject) => {

        let stdout = '';
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => {

            stderr += chunk.toString();
        });
        child.stdout!.on('data', (chunk: Buffer) => {

            stdout += chunk.toString();
            const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
            if (line) {
                resolve({ child, first: JSON.parse(line), exited });
            }
        });
        child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${stderr}`)));
    });
};

// `arcasync serve --port 0 --json` in its own process; resolves once it prints where it listens.
export const startServeProcess = async (databaseUrl: string, env: Record<string, string> = {}): Promise<ServeProcess> => {

    const { child, first, exited } = await startCliProcess(['serve', '--host', '127.0.0.1', '--port', '0', '--json'], {
        cwd: internals.root,
        env: internals.env(databaseUrl, { ARCASYNC_SECRET_KEY: internals.serveKey, ...env })
    });

    return {
        url: (first as { url: string }).url,
        child,
        async stop() {

            if (child.exitCode === null) {
                child.kill('SIGTERM');
                await exited;
            }
        }
    };
};
