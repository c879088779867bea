import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addTagAssign } from './assign.js';
import { addTagDelete, addTagUnassign, addTagUpdate } from './change.js';
import { addTagCreate } from './create.js';

// `arcasync tag …`: an account's tags and the CUITs they mark.
export const registerTagCommands = (program: Command, io: CliIo): void => {

    const tag = program.command('tag').description('etiquetas de una cuenta');
    for (const add of [addTagCreate, addTagAssign, addTagUnassign, addTagUpdate, addTagDelete]) {
        add(tag, io);
    }
};
