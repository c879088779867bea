import type { Command } from 'commander';
import { revokeOAuthConnection } from '../../../core/use-cases/staff/oauth-connections.js';
import { revokeOAuth } from '../../../core/use-cases/staff/revoke-oauth.js';
import type { CliIo } from '../../io.js';
import { counted } from '../../messages.js';
import { outputFor, parseId, withApp } from '../../run.js';

// Ends the user's MCP clients' authorizations, all of them or the one `--connection` names (an
// id from `user connections`, the panel's revoke on /panel/conexiones); the API's tokens stay.
export const addUserRevokeOAuth = (user: Command, io: CliIo): void => {

    user.command('revoke-oauth')
        .description('revoca las autorizaciones OAuth del usuario (clientes MCP): permisos, tokens y sesiones; con --connection, solo esa; los tokens de la API no cambian')
        .requiredOption('--user <id>', 'usuario')
        .option('--connection <id>', "una sola conexión (su id, de 'user connections')")
        .action(async (options: { user: string; connection?: string }, command: Command) => {

            const userId = parseId(options.user);
            const { connection } = options;
            if (connection !== undefined) {
                const result = await withApp(io, (app) => revokeOAuthConnection(app.ports, { userId, id: connection }));
                outputFor(command, io).print(`Conexión ${result.id} del usuario ${userId} revocada: sus tokens dejan de funcionar; las demás siguen`, result);
                return;
            }

            const result = await withApp(io, (app) => revokeOAuth(app.ports, { userId }));
            outputFor(command, io).print(`Autorizaciones OAuth del usuario ${result.id} revocadas (${counted(result.revoked, 'registro', 'registros')})`, result);
        });
};
