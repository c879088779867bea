import type { Command } from 'commander';
import { revokeToken } from '../../../core/use-cases/staff/revoke-token.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';

export const addTokenRevoke = (token: Command, io: CliIo): void => {

    token.command('revoke <id>')
        .description('revoca un token')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp(io, (app) => revokeToken(app.ports, { id: parseId(id) }));
            outputFor(command, io).print(`Token ${result.id} revocado`, result);
        });
};
