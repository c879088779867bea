import type { Command } from 'commander';
import type { App, ComposeOptions } from '../app/compose.js';
import type { Config } from '../app/config.js';
import { loadConfig } from '../app/config.js';
import { invalid } from '../core/domain/errors.js';
import type { CliIo } from './io.js';
import { lazy } from './lazy.js';
import { cliMessages } from './messages.js';
import { jsonLine, terminalText } from './terminal-text.js';

// What every command shares: the app built from the command's environment, output as human
// text or one JSON object (--json), and failures thrown to runCli, which prints them as one
// line on stderr and returns a non-zero exit code (exitCodes).

// Documented in docs/guide.md (The command line: exit codes).
export const exitCodes = {
    ok: 0,
    error: 1,
    syncFailures: 3                    // `sync` finished, but some CUIT ended with an error
} as const;

export interface Output {
    json: boolean;
    print(human: string, data: object): void;
}

export const outputFor = (command: Command, io: CliIo): Output => {

    const json = Boolean(command.optsWithGlobals().json);
    return {
        json,
        print(human, data) {

            io.stdout.write(json ? `${jsonLine(data)}\n` : `${terminalText(human)}\n`);
        }
    };
};

// A failure with its exit code, for runCli to report.
export const failure = (message: string, exitCode: number = exitCodes.error): Error & { exitCode: number } => Object.assign(new Error(message), { exitCode });

// How many CUITs a worker syncs at once (`sync`, `sync worker`, `serve --worker`): 1 to 200.
export const defaultWorkerConcurrency = 8;

export const workerConcurrency = (raw: string | undefined): number => {

    if (raw === undefined) {
        return defaultWorkerConcurrency;
    }

    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > 200) {
        throw invalid([cliMessages.invalidConcurrency]);
    }

    return value;
};

// --port as typed (`serve`, `demo`): a whole number a socket can listen on (0: any free one),
// said in Spanish before the server's own English refusal.
export const parsePort = (raw: string | undefined): number | undefined => {

    if (raw === undefined) {
        return undefined;
    }

    const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
    if (!(port <= 65_535)) {
        throw failure(cliMessages.invalidPort);
    }

    return port;
};

export const configOf = (io: CliIo, env: NodeJS.ProcessEnv = io.env): Config => loadConfig(env, io.cwd);

// The app of a command: knex and the adapters are loaded when a command opens it (cli/lazy.ts).
// Only `migrate` and the demo create a database (create: true).
export const openApp = async (io: CliIo, options: ComposeOptions & { config?: Config } = {}): Promise<App> => {

    const { composeApp } = await lazy.compose();
    const { config, ...compose } = options;
    return composeApp(config ?? configOf(io), { create: false, ...compose });
};

export const assertDatabaseExists = async (config: Config): Promise<void> => {

    (await lazy.compose()).assertDatabaseExists(config);
};

export const withApp = async <T>(io: CliIo, fn: (app: App) => Promise<T>): Promise<T> => {

    const app = await openApp(io);
    let result: T;
    try {
        result = await fn(app);
    }
    catch (err) {
        await app.close().catch(() => undefined);
        throw err;
    }

    await app.close();
    return result;
};

// What was typed is never repeated back: staff paste tokens and e-mails where an id goes, and
// the error line ends up in terminals, shell history tools and tickets.
export const parseId = (value: string): number => {

    const id = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(id) || id < 1) {
        throw failure('Identificador inválido: se espera el número que muestran los listados (no un token ni un email).');
    }

    return id;
};
