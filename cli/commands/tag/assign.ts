import type { Command } from 'commander';
import { assignTag } from '../../../core/use-cases/staff/assign-tag.js';
import type { CliIo } from '../../io.js';
import { outputFor, parseId, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';

export const addTagAssign = (tag: Command, io: CliIo): void => {

    tag.command('assign')
        .description('etiqueta un CUIT de la cuenta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--cuit <cuit>', 'CUIT')
        .requiredOption('--name <name>', 'nombre de la etiqueta')
        .action(async (options: { account: string; cuit: string; name: string }, command: Command) => {

            const result = await withApp(io, (app) => assignTag(app.ports, {
                accountId: parseId(options.account),
                cuit: options.cuit,
                name: options.name
            }));
            outputFor(command, io).print(`Etiqueta '${visible(result.etiqueta)}' asignada a ${result.cuit}`, result);
        });
};
