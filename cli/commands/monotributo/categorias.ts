import type { Command } from 'commander';
import { listCategoryTables } from '../../../core/use-cases/monotributo.js';
import type { CliIo } from '../../io.js';
import { outputFor, withApp } from '../../run.js';
import { tableText } from './table-text.js';

export const addMonotributoCategorias = (monotributo: Command, io: CliIo): void => {

    monotributo.command('categorias')
        .description('las tablas de categorías cargadas, de la más antigua a la más nueva')
        .action(async (_options: object, command: Command) => {

            const tables = await withApp(io, (app) => listCategoryTables(app.ports));
            outputFor(command, io).print(tables.map(tableText).join('\n\n') || '  (sin tablas)', { tablas: tables });
        });
};
