import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadCategoryTable } from '../../../core/use-cases/monotributo.js';
import type { CliIo } from '../../io.js';
import { failure, outputFor, withApp } from '../../run.js';
import { visible } from '../../terminal-text.js';
import { tableText } from './table-text.js';

const internals = {
    async readJson(path: string): Promise<unknown> {

        let text: string;
        try {
            text = await readFile(path, 'utf8');
        }
        catch {
            throw failure(`No se pudo leer el archivo ${visible(path)}.`);
        }

        try {
            return JSON.parse(text) as unknown;
        }
        catch {
            throw failure(`El archivo ${visible(path)} no es JSON válido.`);
        }
    }
};

export const addMonotributoCargar = (monotributo: Command, io: CliIo): void => {

    monotributo.command('cargar <archivo>')
        .description('carga una tabla desde un archivo JSON: {"vigenciaDesde": "AAAA-MM-DD", "fuente": "…", "topes": {"A": …, …, "K": …}}; reemplaza la de la misma fecha')
        .action(async (path: string, _options: object, command: Command) => {

            const input = await internals.readJson(path);
            const result = await withApp(io, (app) => loadCategoryTable(app.ports, input));
            const verb = result.outcome === 'created' ? 'cargada' : 'reemplazada';
            outputFor(command, io).print(`Tabla ${verb}.\n${tableText(result.table)}`, { ...result.table, resultado: verb });
        });
};
