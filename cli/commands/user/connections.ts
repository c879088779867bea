import type { Command } from 'commander';
import { listOAuthConnections } from '../../../core/use-cases/staff/oauth-connections.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

// The MCP clients a user authorized, as the panel's /panel/conexiones lists them (the same use
// case), with the id `user revoke-oauth --connection` takes. A client's name is what it
// registered itself as, a stranger's text: shown with its control characters escaped.
export const addUserConnections = (user: Command, io: CliIo): void => {

    user.command('connections')
        .description('las conexiones OAuth del usuario (clientes MCP que autorizó): id, cliente, cuándo y alcance')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const connections = await withApp(io, (app) => listOAuthConnections(app.ports, { userId: parseId(options.user) }));
            const lines = connections.map((item) => [
                `  ${item.id}  ${item.clientName === null ? '(sin nombre)' : visible(item.clientName)}`,
                item.grantedAt ? `autorizada ${item.grantedAt}` : null,
                item.scopes.length ? `alcance ${item.scopes.map(visible).join(' ')}` : null
            ].filter(Boolean).join(' · '));
            outputFor(command, io).print(lines.join('\n') || '  (sin conexiones)', { connections });
        });
};
