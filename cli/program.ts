import { Command, CommanderError } from 'commander';
import { registerAuthorityCommands } from './commands/authority.js';
import { registerMcpCommands } from './commands/mcp.js';
import { registerOpenApiCommand } from './commands/openapi.js';
import { registerSecretCommands } from './commands/secret.js';
import { registerServerCommands } from './commands/server.js';
import { registerStaffCommands } from './commands/staff.js';
import { registerSyncCommands } from './commands/sync.js';
import type { CliIo } from './io.js';
import { exitCodes } from './run.js';

// arcasync: the staff and operators' command line (DESIGN.md, CLI contract), as a function:
// runCli(argv, io) runs one command line against the given environment and streams and
// resolves with its exit code. Nothing here ends the process; cli/main.ts does, with that code.
// The command modules only describe commands: what a command needs is loaded when it runs.

const internals = {
    program(io: CliIo): Command {

        // Settings given before the subcommands are added are inherited by them.
        const program = new Command('arcasync')
            .description('Sincronización de datos fiscales de ARCA: API REST, MCP y herramientas de operación')
            .option('--json', 'imprime un objeto JSON en lugar de texto')
            .exitOverride()
            .configureOutput({
                writeOut: (text) => io.stdout.write(text),
                writeErr: (text) => io.stderr.write(text),
                // Reported by runCli, one line (see report).
                outputError: () => undefined
            });

        registerServerCommands(program, io);
        registerStaffCommands(program, io);
        registerSyncCommands(program, io);
        registerMcpCommands(program, io);
        registerOpenApiCommand(program, io);
        registerAuthorityCommands(program, io);
        registerSecretCommands(program, io);
        return program;
    },

    // The one line on stderr of a failed command.
    report(io: CliIo, err: unknown): number {

        const message = (err instanceof Error ? err.message : String(err)).replace(/^error: /, '').split('\n')[0]!;
        io.stderr.write(`error: ${message}\n`);
        const code = (err as { exitCode?: unknown }).exitCode;
        return typeof code === 'number' && code !== 0 ? code : exitCodes.error;
    }
};

export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {

    const program = internals.program(io);
    try {
        await program.parseAsync([...argv], { from: 'user' });
        return exitCodes.ok;
    }
    catch (err) {
        if (err instanceof CommanderError && (err.exitCode === 0 || err.code === 'commander.help' || err.code === 'commander.helpDisplayed')) {
            // Help asked for (or shown for a bare command group): already printed.
            return err.exitCode;
        }

        return internals.report(io, err);
    }
};
