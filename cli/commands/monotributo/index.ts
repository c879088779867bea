import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addMonotributoCargar } from './cargar.js';
import { addMonotributoCategorias } from './categorias.js';

// `arcasync monotributo …`: the monotributo's category tables (docs/answers.md). ARCA publishes
// one every January and July; staff load it from a JSON file and list what is loaded.
export const registerMonotributoCommands = (program: Command, io: CliIo): void => {

    const monotributo = program.command('monotributo').description('tablas de categorías del monotributo');
    for (const add of [addMonotributoCategorias, addMonotributoCargar]) {
        add(monotributo, io);
    }
};
