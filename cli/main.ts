#!/usr/bin/env node
import { Command } from 'commander';
import { registerAuthorityCommands } from './commands/authority.js';
import { registerMcpCommands } from './commands/mcp.js';
import { registerOpenApiCommand } from './commands/openapi.js';
import { registerSecretCommands } from './commands/secret.js';
import { registerServerCommands } from './commands/server.js';
import { registerStaffCommands } from './commands/staff.js';
import { registerSyncCommands } from './commands/sync.js';

// arcasync: the staff and operators' command line (DESIGN.md, CLI contract).

const program = new Command('arcasync')
    .description('Sincronización de datos fiscales de ARCA: API REST, MCP y herramientas de operación')
    // No help dump after a usage error: the contract is one line on stderr (see --help).
    .option('--json', 'imprime un objeto JSON en lugar de texto');

registerServerCommands(program);
registerStaffCommands(program);
registerSyncCommands(program);
registerMcpCommands(program);
registerOpenApiCommand(program);
registerAuthorityCommands(program);
registerSecretCommands(program);

await program.parseAsync(process.argv);
