import type { Command } from 'commander';
import type { App } from '../app/compose.js';
import { composeApp } from '../app/compose.js';
import { loadConfig } from '../app/config.js';
import { isDomainError } from '../core/domain/errors.js';

// What every command shares: the app built from the environment, output as human text or
// one JSON object (--json), and failures as one line on stderr with a non-zero exit.

export interface Output {
    json: boolean;
    print(human: string, data: object): void;
}

export const outputFor = (command: Command): Output => {

    const json = Boolean(command.optsWithGlobals().json);
    return {
        json,
        print(human, data) {

            process.stdout.write(json ? `${JSON.stringify(data)}\n` : `${human}\n`);
        }
    };
};

export const fail = (err: unknown): never => {

    const message = isDomainError(err) ? err.message : err instanceof Error ? err.message : String(err);
    process.stderr.write(`error: ${message.split('\n')[0]}\n`);
    process.exit(1);
};

export const withApp = async <T>(fn: (app: App) => Promise<T>): Promise<T> => {

    let app: App | null = null;
    try {
        app = await composeApp(loadConfig());
        return await fn(app);
    }
    catch (err) {
        await app?.close().catch(() => undefined);
        app = null;
        return fail(err);
    }
    finally {
        await app?.close();
    }
};

export const parseId = (value: string): number => {

    const id = Number(value);
    if (!Number.isInteger(id) || id < 1) {
        return fail(new Error(`identificador inválido: ${value}`));
    }

    return id;
};
