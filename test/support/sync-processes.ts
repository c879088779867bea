import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { builtCli } from './build.js';

// Sync commands of the built binary as operators run them, each in a process of its own
// (`sync worker --json`, cron's `sync --all --json`): what they print as JSON lines, their
// exit, their output. For the tests of workers and fleets (sync-workers, sync-fleet) and
// bench:fleet.

interface SyncEvent {
    event: 'ready' | 'start' | 'end' | 'stopped';
    jobId?: number;
    clientId?: number;
    at?: number;
    disposition?: string;
    outcome?: string;
}

export interface SyncProcess {
    child: ChildProcess;
    // The JSON lines printed so far with an `event` (a worker's); a run's summary is in output().
    events: SyncEvent[];
    exited: Promise<number | null>;
    // Everything printed so far, stdout and stderr.
    output(): string;
    stderr(): string;
}

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url))
};

// A process's environment against a database and the simulated authority at authorityUrl,
// logging nothing; never the test run's TEST_MYSQL_URL.
export const syncEnv = (
    databaseUrl: string,
    secretKey: string,
    authorityUrl: string,
    extra: Record<string, string> = {}
): NodeJS.ProcessEnv => {

    const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        ARCASYNC_SECRET_KEY: secretKey,
        AUTHORITY: 'simulated',
        AUTHORITY_URL: authorityUrl,
        LOG_LEVEL: 'silent',
        ...extra
    };
    delete env.TEST_MYSQL_URL;
    return env;
};

// `arcasync ARGS` in a process of its own.
export const spawnSyncProcess = (args: string[], env: NodeJS.ProcessEnv): SyncProcess => {

    const child = spawn(process.execPath, [builtCli(), ...args], { cwd: internals.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const events: SyncEvent[] = [];
    let buffer = '';
    let all = '';
    let errors = '';
    child.stdout!.on('data', (chunk: Buffer) => {

        all += chunk.toString();
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines.filter(Boolean)) {
            try {
                const parsed = JSON.parse(line) as Partial<SyncEvent>;
                if (parsed.event) {
                    events.push(parsed as SyncEvent);
                }
            }
            catch {
                // a summary line
            }
        }
    });
    child.stderr!.on('data', (chunk: Buffer) => {

        all += chunk.toString();
        errors += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, events, exited, output: () => all, stderr: () => errors };
};

// Waits until check() holds, asking every 20 ms; fails naming `what` after timeoutMs.
export const until = async (check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> => {

    const deadline = Date.now() + timeoutMs;
    while (!await check()) {
        if (Date.now() > deadline) {
            throw new Error(`timed out waiting for ${what}`);
        }

        await sleep(20);
    }
};
