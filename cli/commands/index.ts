import type { Command } from 'commander';
import type { CliIo } from '../io.js';

// The command line's top-level commands, in the order --help lists them, each with the module
// that adds it (a group's index.ts adds the group and its commands). A command line that names
// one loads only that module, `--version` none; any other (help, a typo, none) loads them all. Imported together,
// every command's use cases cost each start about 50 ms of CPU (+40% on --version): this table
// is the one place that pays for (docs/development.md).

type Register = (program: Command, io: CliIo) => void;

const internals = {
    groups: [
        { names: ['migrate'], load: async (): Promise<Register> => (await import('./migrate.js')).registerMigrateCommand },
        { names: ['serve'], load: async (): Promise<Register> => (await import('./serve.js')).registerServeCommand },
        { names: ['demo'], load: async (): Promise<Register> => (await import('./demo.js')).registerDemoCommand },
        { names: ['account'], load: async (): Promise<Register> => (await import('./account/index.js')).registerAccountCommands },
        { names: ['user'], load: async (): Promise<Register> => (await import('./user/index.js')).registerUserCommands },
        { names: ['token'], load: async (): Promise<Register> => (await import('./token/index.js')).registerTokenCommands },
        { names: ['tag'], load: async (): Promise<Register> => (await import('./tag/index.js')).registerTagCommands },
        { names: ['sync', 'resync'], load: async (): Promise<Register> => (await import('./sync/index.js')).registerSyncCommands },
        { names: ['webhook'], load: async (): Promise<Register> => (await import('./webhook/index.js')).registerWebhookCommands },
        { names: ['monotributo'], load: async (): Promise<Register> => (await import('./monotributo/index.js')).registerMonotributoCommands },
        { names: ['calendario'], load: async (): Promise<Register> => (await import('./calendario/index.js')).registerCalendarioCommands },
        { names: ['mcp'], load: async (): Promise<Register> => (await import('./mcp.js')).registerMcpCommand },
        { names: ['openapi'], load: async (): Promise<Register> => (await import('./openapi.js')).registerOpenApiCommand },
        { names: ['authority'], load: async (): Promise<Register> => (await import('./authority/index.js')).registerAuthorityCommands },
        { names: ['secret'], load: async (): Promise<Register> => (await import('./secret/index.js')).registerSecretCommands }
    ]
};

// The program's options take no value, so the first word that is not an option names the command.
export const addCommands = async (program: Command, io: CliIo, argv: readonly string[]): Promise<void> => {

    const word = argv.find((arg) => !arg.startsWith('-'));
    const named = internals.groups.find((group) => word !== undefined && group.names.includes(word));
    if (!word && argv.some((arg) => arg === '-V' || arg === '--version') && !argv.some((arg) => arg === '-h' || arg === '--help')) {
        return;                        // the version alone: no command is needed
    }

    const registers = await Promise.all((named ? [named] : internals.groups).map((group) => group.load()));
    for (const register of registers) {
        register(program, io);
    }
};
