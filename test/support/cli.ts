import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { CliIo } from '../../cli/io.js';
import { runCli as runCommandLine } from '../../cli/program.js';
import { builtCli } from './build.js';
import type { TestServer } from './server.js';

// The CLI as staff and operators run it. The contract (output, --json, exit codes, errors) is
// tested in-process through runCli(argv, io), the same function the binary runs; a few smoke
// tests per command family run the built binary (dist/cli/main.js) in a process of its own.

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    // Test databases are not the embedded default, where `serve` requires a key.
    serveKey: randomBytes(32).toString('base64'),
    // In-process runs take turns: side by side they would be one process with several SQLite
    // connections writing at once, where a transaction that read first may find the file
    // locked (SQLITE_BUSY without waiting), a race that separate processes start too slowly
    // to meet.
    turn: Promise.resolve() as Promise<unknown>,

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

export interface CliRun {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    input?: string;
    signal?: AbortSignal;              // the stop request (SIGTERM) of long-running commands
    onStdout?: (text: string) => void;
}

// One command line through runCli in this process, its output captured.
export const runInProcess = async (argv: string[], run: CliRun = {}): Promise<CliResult> => {

    const result: CliResult = { code: null, stdout: '', stderr: '' };
    const io: CliIo = {
        env: run.env ?? internals.env('sqlite::memory:', {}),
        cwd: run.cwd ?? internals.root,
        stdin: Readable.from(run.input === undefined ? [] : [run.input]),
        stdout: {
            write(text: string) {

                result.stdout += text;
                run.onStdout?.(result.stdout);
                return true;
            }
        },
        stderr: {
            write(text: string) {

                result.stderr += text;
                return true;
            }
        },
        onStop(listener) {

            run.signal?.addEventListener('abort', listener, { once: true });
            return () => run.signal?.removeEventListener('abort', listener);
        }
    };

    result.code = await runCommandLine(argv, io);
    return result;
};

// `arcasync ARGS` on a test database, in-process, one at a time; `input` is its stdin.
export const runCli = (databaseUrl: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> => {

    const run = internals.turn.then(() => runInProcess(args, { env: internals.env(databaseUrl, env), ...(input === undefined ? {} : { input }) }));
    internals.turn = run.catch(() => undefined);
    return run;
};

// A suite's server, started before its tests and stopped after them, and `arcasync ARGS` on its
// database (runCli).
export const cliOnServer = (start: () => Promise<TestServer>): { server: TestServer; cli: (...args: string[]) => Promise<CliResult> } => {

    const suite = {} as { server: TestServer; cli: (...args: string[]) => Promise<CliResult> };
    before(async () => {

        suite.server = await start();
        suite.cli = (...args) => runCli(suite.server.app.config.databaseUrl, args);
    });

    after(async () => {

        await suite.server?.stop();
    });

    return suite;
};

// A command that succeeded with one JSON line and nothing on stderr: that JSON.
export const cliJson = (result: CliResult): any => {

    expect(result.stderr, result.stderr).to.equal('');
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines, result.stdout).to.have.length(1);
    return JSON.parse(lines[0]!);
};

// A command refused with exactly this message: one line on stderr, nothing on stdout, exit 1.
export const cliRefusal = (result: CliResult, message: string): void => {

    expect(result.code, result.stdout).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.equal(`Error: ${message}\n`);
};

export interface ProcessRun {
    cwd: string;
    env: NodeJS.ProcessEnv;
    input?: string;                    // its stdin
    onStderr?: (text: string) => void; // its stderr so far, each time more arrives
}

// A Node process run to its end: its exit code and what it printed.
export const runProcess = (args: string[], options: ProcessRun): Promise<CliResult> => {

    return new Promise((resolve, reject) => {

        const child = spawn(process.execPath, args, {
            cwd: options.cwd,
            env: options.env,
            stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']
        });
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (chunk: Buffer) => {

            stdout += chunk.toString();
        });
        child.stderr!.on('data', (chunk: Buffer) => {

            stderr += chunk.toString();
            options.onStderr?.(stderr);
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        if (options.input !== undefined) {
            child.stdin!.end(options.input);
        }
    });
};

// The knex CLI as `npm run knex` runs it (knexfile.ts) on a test database: what operators who
// know knex type, refused or allowed by the service's own rules.
export const runKnexCli = (databaseUrl: string, args: string[]): CliResult => {

    try {
        const stdout = execFileSync(process.execPath, ['--import', 'tsx', 'node_modules/knex/bin/cli.js', '--knexfile', 'knexfile.ts', ...args], {
            cwd: internals.root, env: internals.env(databaseUrl, {}), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']
        });
        return { code: 0, stdout, stderr: '' };
    }
    catch (err) {
        const { status, stdout, stderr } = err as { status: number; stdout: string; stderr: string };
        return { code: status, stdout, stderr };
    }
};

// The built binary in a process of its own (smoke tests).
export const runBuiltCli = (args: string[], options: Omit<ProcessRun, 'cwd'> & { cwd?: string }): Promise<CliResult> => {

    return runProcess([builtCli(), ...args], {
        ...options,
        cwd: options.cwd ?? internals.root
    });
};

export interface BatchCommand {
    argv: string[];
    env?: NodeJS.ProcessEnv;           // the command's own environment (default: the process's)
}

// Several command lines in one process of their own, one after the other, through runCli
// (test/support/cli-batch.ts): each one's result, and what the process itself wrote on stderr
// beside the commands' streams (a driver's console line, a log line), which should be nothing.
export const runCliBatch = async (commands: BatchCommand[], options: { env: NodeJS.ProcessEnv }): Promise<{ results: CliResult[]; stderr: string }> => {

    const batch = await runProcess(['--import', 'tsx', fileURLToPath(new URL('cli-batch.ts', import.meta.url))], {
        cwd: internals.root,
        env: options.env,
        input: JSON.stringify(commands)
    });
    if (batch.code !== 0) {
        throw new Error(`cli-batch terminó con ${batch.code}: ${batch.stderr}`);
    }

    return { results: JSON.parse(batch.stdout) as CliResult[], stderr: batch.stderr };
};

export const cliEnv = (databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => internals.env(databaseUrl, extra);

export interface ServeProcess {
    url: string;
    child: ChildProcess;
    // Everything it wrote on stderr so far: its log.
    log(): string;
    stop(): Promise<void>;
}

// A long-running command of the built binary in its own process (any working directory);
// resolves with the first JSON line it prints on stdout, rejects if it exits before;
// `stderr()` keeps growing.
export const startCliProcess = (args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{
    child: ChildProcess;
    first: any;
    exited: Promise<number | null>;
    stderr(): string;
}> => {

    const child = spawn(process.execPath, [builtCli(), ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
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
                resolve({ child, first: JSON.parse(line), exited, stderr: () => stderr });
            }
        });
        child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${stderr}`)));
    });
};

// `arcasync serve --port 0 --json` in its own process; resolves once it prints where it listens.
// The database is migrated first: serve, like every command but migrate, creates none.
export const startServeProcess = async (databaseUrl: string, env: Record<string, string> = {}): Promise<ServeProcess> => {

    const migrated = await runCli(databaseUrl, ['migrate']);
    if (migrated.code !== 0) {
        throw new Error(`migrate: ${migrated.stderr}`);
    }

    const { child, first, exited, stderr } = await startCliProcess(['serve', '--host', '127.0.0.1', '--port', '0', '--json'], {
        cwd: internals.root,
        env: internals.env(databaseUrl, { ARCASYNC_SECRET_KEY: internals.serveKey, ...env })
    });

    return {
        url: (first as { url: string }).url,
        child,
        log: stderr,
        async stop() {

            if (child.exitCode === null) {
                child.kill('SIGTERM');
                await exited;
            }
        }
    };
};
