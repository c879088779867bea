import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addTokenCreate } from './create.js';
import { addTokenList } from './list.js';
import { addTokenRevoke } from './revoke.js';

// `arcasync token …`: the API's access tokens; a token is printed once, when created.
export const registerTokenCommands = (program: Command, io: CliIo): void => {

    const token = program.command('token').description('tokens de acceso a la API');
    for (const add of [addTokenCreate, addTokenList, addTokenRevoke]) {
        add(token, io);
    }
};
