import type { Command } from 'commander';
import type { App, ComposeOptions } from '../app/compose.js';
import type { Config } from '../app/config.js';
import type { CliIo } from './io.js';
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

export const workerConcurrency = async (raw: string | undefined): Promise<number> => {

    if (raw === undefined) {
        return defaultWorkerConcurrency;
    }

    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1 || value > 200) {
        const { invalid } = await import('../core/domain/errors.js');
        throw invalid([cliMessages.invalidConcurrency]);
    }

    return value;
};

export const configOf = async (io: CliIo, env: NodeJS.ProcessEnv = io.env): Promise<Config> => {

    const { loadConfig } = await import('../app/config.js');
    return loadConfig(env, io.cwd);
};

// The app of a command: nothing heavier than commander is loaded before a command runs. Only
// `migrate` and the demo create a database (create: true).
export const openApp = async (io: CliIo, options: ComposeOptions & { config?: Config } = {}): Promise<App> => {

    const { composeApp } = await import('../app/compose.js');
    const { config, ...compose } = options;
    return composeApp(config ?? await configOf(io), { create: false, ...compose });
};

export const assertDatabaseExists = async (config: Config): Promise<void> => {

    (await import('../app/compose.js')).assertDatabaseExists(config);
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
