import type { Command } from 'commander';
import { createTag } from '../../../core/use-cases/staff/create-tag.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

export const addTagCreate = (tag: Command, io: CliIo): void => {

    tag.command('create')
        .description('crea una etiqueta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--name <name>', 'nombre')
        .requiredOption('--color <color>', 'color #RRGGBB')
        .action(async (options: { account: string; name: string; color: string }, command: Command) => {

            const result = await withApp(io, (app) => createTag(app.ports, {
                accountId: parseId(options.account),
                name: options.name,
                color: options.color
            }));
            outputFor(command, io).print(`Etiqueta creada: ${visible(result.nombre)}`, result);
        });
};
