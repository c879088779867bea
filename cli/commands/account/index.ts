import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addAccountCreate } from './create.js';
import { addAccountList } from './list.js';
import { addAccountShow } from './show.js';
import { addAccountUpdate } from './update.js';

// `arcasync account …`: the accounts (client portfolios) staff keep (README.md, The command line).
export const registerAccountCommands = (program: Command, io: CliIo): void => {

    const account = program.command('account').description('cuentas (carteras) de clientes');
    for (const add of [addAccountCreate, addAccountUpdate, addAccountShow, addAccountList]) {
        add(account, io);
    }
};
