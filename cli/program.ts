import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { databaseLabel, loadConfig } from '../app/config.js';
import { addCommands } from './commands/index.js';
import type { CliIo } from './io.js';
import { lazy } from './lazy.js';
import { exitCodes } from './run.js';
import { speakSpanish, usageMessage } from './spanish.js';
import { cliMessages } from './messages.js';
import { jsonLine, visible } from './terminal-text.js';

// arcasync: the staff and operators' command line (README.md, The command line), as a function:
// runCli(argv, io) runs one command line against the given environment and streams and
// resolves with its exit code. Nothing here ends the process; cli/main.ts does, with that code.
// One file per command under commands/, a folder per group (docs/development.md); only the
// command named is loaded (commands/index.ts), and what is heavy waits until it runs (lazy.ts).
// The classes a failure is recognized by are imported the way the commands are, through
// import(): where runCli runs in-process under tsx (the tests), a file imported both statically
// and through import() is two modules, and instanceof would miss.

const internals = {
    // The one prefix of every failure's line (usage errors included).
    errorPrefix: 'Error: ',

    async program(io: CliIo, argv: readonly string[]): Promise<Command> {

        // Settings given before the subcommands are added are inherited by them.
        const program = speakSpanish(new Command('arcasync'))
            .description('Sincronización de datos fiscales de ARCA: API REST, MCP y herramientas de operación')
            .version(internals.version(), '-V, --version', 'muestra la versión')
            .option('--json', 'imprime un objeto JSON en lugar de texto (y los errores, en stderr)')
            .exitOverride()
            .configureOutput({
                writeOut: (text) => io.stdout.write(text),
                writeErr: (text) => io.stderr.write(text),
                // Commander's own errors (usage) are thrown (exitOverride) and reported by runCli
                // like every other failure: one line with the one prefix, Spanish, JSON under --json.
                outputError: () => undefined
            });

        await addCommands(program, io, argv);
        return program;
    },

    // package.json's, found from here (cli/ when run by tsx, dist/cli/ when built).
    version(): string {

        for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
            try {
                const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
                if (pkg.name === 'arcasync' && pkg.version) {
                    return pkg.version;
                }
            }
            catch {
                // not here: one level up
            }
        }

        return '0.0.0';
    },

    async message(err: unknown, io: CliIo): Promise<string> {

        if (err instanceof CommanderError) {
            return usageMessage(err);
        }

        // A database that cannot be used: which one, and why, in one line (not the driver's stack).
        const { databaseFailureCause } = await lazy.database();
        const cause = databaseFailureCause(err) ?? internals.refusal(err);
        if (cause) {
            let label = 'DATABASE_URL';
            try {
                label = databaseLabel(loadConfig(io.env, io.cwd).databaseUrl);
            }
            catch {
                // the configuration itself is wrong: its own error came first
            }

            return cliMessages.databaseFailure(label, cause);
        }

        const { code, address, port } = err as { code?: unknown; address?: unknown; port?: unknown };
        if (code === 'EADDRINUSE') {
            return cliMessages.addressInUse(String(address), String(port));
        }

        // A rule's message is whole, whatever it quotes (report shows a quoted line break as \n);
        // any other error is said by its first line (not a stack, not a driver's dump).
        const { isDomainError } = await import('../core/domain/errors.js');
        if (isDomainError(err)) {
            return err.message;
        }

        return (err instanceof Error ? err.message : String(err)).replace(/^error: /i, '').split('\n')[0]!;
    },

    // Any other error of the database's driver, said without its English text: a table of the
    // same name that arcasync did not create (a database that is not arcasync's), or the code.
    refusal(err: unknown): string | null {

        const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
        if (typeof code !== 'string' || !/^(ER_|SQLITE_)/.test(code)) {
            return null;
        }

        const table = /table [`'"]?(\w+)[`'"]? already exists/i.exec(String(message))?.[1];
        return table ? cliMessages.foreignTable(table) : cliMessages.databaseRefused(code);
    },

    // `help account create`: commander's help command takes one name and shows that command's
    // help (account's). Asked as `account create --help` instead, every level is reached; a
    // name that is no command is left for commander to refuse, as when typed without help.
    helpFor(program: Command, argv: readonly string[]): string[] {

        if (argv[0] !== 'help') {
            return [...argv];
        }

        const names = argv.slice(1).filter((arg) => !arg.startsWith('-'));
        let command = program;
        for (const [index, name] of names.entries()) {
            const sub = command.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
            if (!sub) {
                return names.slice(0, index + 1);
            }

            command = sub;
        }

        return [...names, '--help'];
    },

    // What a --json error object carries beside its line: the accounts to choose from when a
    // CUIT needs --account.
    async details(err: unknown): Promise<object> {

        const { CuitInSeveralAccounts } = await import('../core/use-cases/sync/find-sync-targets.js');
        return err instanceof CuitInSeveralAccounts ? { cuit: err.cuit, accounts: err.accounts } : {};
    },

    // The one line on stderr of a failed command, always with the same prefix; with --json, a
    // JSON object.
    async report(io: CliIo, argv: readonly string[], err: unknown): Promise<number> {

        const message = await internals.message(err, io);
        const json = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length).includes('--json');
        const details = await internals.details(err);
        // The line may echo what was typed or stored (a name, an event type, ARCA's text).
        io.stderr.write(json ? `${jsonLine({ error: message, ...details })}\n` : `${internals.errorPrefix}${visible(message)}\n`);
        const code = (err as { exitCode?: unknown }).exitCode;
        return typeof code === 'number' && code !== 0 ? code : exitCodes.error;
    }
};

export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {

    const program = await internals.program(io, argv);
    try {
        await program.parseAsync(internals.helpFor(program, argv), { from: 'user' });
        return exitCodes.ok;
    }
    catch (err) {
        if (err instanceof CommanderError && (err.exitCode === 0 || err.code === 'commander.help' || err.code === 'commander.helpDisplayed')) {
            // Help asked for (or shown for a bare command group): already printed.
            return err.exitCode;
        }

        return await internals.report(io, argv, err);
    }
};
