import type { Command } from 'commander';
import { listTokens } from '../../../core/use-cases/staff/list-tokens.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

export const addTokenList = (token: Command, io: CliIo): void => {

    token.command('list')
        .description('los tokens de un usuario o de una cuenta (todos si no se indica): id, nombre, prefijo, fechas y último uso; nunca el token')
        .option('--user <id>', 'usuario')
        .option('--account <id>', 'cuenta')
        .action(async (options: { user?: string; account?: string }, command: Command) => {

            const result = await withApp(io, (app) => listTokens(app.ports, {
                userId: options.user === undefined ? undefined : parseId(options.user),
                accountId: options.account === undefined ? undefined : parseId(options.account)
            }));
            const lines = result.tokens.map((item) => `  ${item.id}  ${visible(item.prefix)}…  ${item.name === null ? '(sin nombre)' : visible(item.name)}  usuario ${item.userId}  creado ${item.createdAt} · ${item.lastUsedAt ? `usado por última vez ${item.lastUsedAt}` : 'nunca usado'}${item.revokedAt ? ` · revocado ${item.revokedAt}` : ''}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin tokens)', result);
        });
};
