import type { Command } from 'commander';
import { revokeOAuth } from '../../../core/use-cases/staff/revoke-oauth.js';
import type { CliIo } from '../../io.js';
import { counted } from '../../messages.js';
import { outputFor, parseId, withApp } from '../../run.js';

// Ends the user's MCP clients' authorizations; the API's tokens stay.
export const addUserRevokeOAuth = (user: Command, io: CliIo): void => {

    user.command('revoke-oauth')
        .description('revoca todas las autorizaciones OAuth del usuario (clientes MCP): permisos, tokens y sesiones; los tokens de la API no cambian')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const result = await withApp(io, (app) => revokeOAuth(app.ports, { userId: parseId(options.user) }));
            outputFor(command, io).print(`Autorizaciones OAuth del usuario ${result.id} revocadas (${counted(result.revoked, 'registro', 'registros')})`, result);
        });
};
