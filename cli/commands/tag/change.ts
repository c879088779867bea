import type { Command } from 'commander';
import { unassignTag } from '../../../core/use-cases/staff/assign-tag.js';
import { deleteTag, updateTag } from '../../../core/use-cases/staff/change-tag.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

// `tag update`, `tag delete` and `tag unassign`: the same use cases as the panel's tag page.

export const addTagUpdate = (tag: Command, io: CliIo): void => {

    tag.command('update')
        .description('renombra o cambia el color de una etiqueta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--name <name>', 'nombre actual')
        .requiredOption('--new-name <name>', 'nombre nuevo (el mismo para solo cambiar el color)')
        .requiredOption('--color <color>', 'color #RRGGBB')
        .action(async (options: { account: string; name: string; newName: string; color: string }, command: Command) => {

            const result = await withApp(io, (app) => updateTag(app.ports, {
                accountId: parseId(options.account), name: options.name, newName: options.newName, color: options.color
            }));
            outputFor(command, io).print(`Etiqueta actualizada: ${visible(result.nombre)} (${result.color})`, result);
        });
};

export const addTagDelete = (tag: Command, io: CliIo): void => {

    tag.command('delete')
        .description('borra una etiqueta y la quita de todos los CUIT')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--name <name>', 'nombre')
        .action(async (options: { account: string; name: string }, command: Command) => {

            const result = await withApp(io, (app) => deleteTag(app.ports, { accountId: parseId(options.account), name: options.name }));
            outputFor(command, io).print(`Etiqueta borrada: ${visible(result.etiqueta)}`, result);
        });
};

export const addTagUnassign = (tag: Command, io: CliIo): void => {

    tag.command('unassign')
        .description('quita una etiqueta de un CUIT de la cuenta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--cuit <cuit>', 'CUIT')
        .requiredOption('--name <name>', 'nombre de la etiqueta')
        .action(async (options: { account: string; cuit: string; name: string }, command: Command) => {

            const result = await withApp(io, (app) => unassignTag(app.ports, { accountId: parseId(options.account), cuit: options.cuit, name: options.name }));
            outputFor(command, io).print(`Etiqueta '${visible(result.etiqueta)}' quitada de ${result.cuit}`, result);
        });
};
