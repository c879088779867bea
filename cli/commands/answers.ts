import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { failure, outputFor, parseId, withApp } from '../run.js';
import { visible } from '../terminal-text.js';

// Staff's side of the answers (docs/answers.md): the monotributo's category tables (ARCA
// publishes one every January and July; `cargar` loads it from a JSON file, `categorias` lists
// what is loaded) and each user's private calendar address of the agenda, printed once.

const internals = {
    monotributo: () => import('../../core/use-cases/monotributo.js'),
    calendar: () => import('../../core/use-cases/calendar-feed.js'),
    amount: new Intl.NumberFormat('es-AR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),

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
    },

    table: (table: { vigenciaDesde: string; fuente: string; topes: Record<string, number> }): string => [
        `Vigente desde ${table.vigenciaDesde} (fuente: ${visible(table.fuente)})`,
        ...Object.entries(table.topes).map(([letter, cap]) => `  ${letter}  $ ${internals.amount.format(cap)}`)
    ].join('\n')
};

export const registerAnswerCommands = (program: Command, io: CliIo): void => {

    const monotributo = program.command('monotributo').description('tablas de categorías del monotributo');

    monotributo.command('categorias')
        .description('las tablas de categorías cargadas, de la más antigua a la más nueva')
        .action(async (_options: object, command: Command) => {

            const { listCategoryTables } = await internals.monotributo();
            const tables = await withApp(io, async (app) => listCategoryTables(app.ports));
            outputFor(command, io).print(tables.map(internals.table).join('\n\n') || '  (sin tablas)', { tablas: tables });
        });

    monotributo.command('cargar <archivo>')
        .description('carga una tabla desde un archivo JSON: {"vigenciaDesde": "AAAA-MM-DD", "fuente": "…", "topes": {"A": …, …, "K": …}}; reemplaza la de la misma fecha')
        .action(async (path: string, _options: object, command: Command) => {

            const input = await internals.readJson(path);
            const { loadCategoryTable } = await internals.monotributo();
            const result = await withApp(io, async (app) => loadCategoryTable(app.ports, input));
            const verb = result.outcome === 'created' ? 'cargada' : 'reemplazada';
            outputFor(command, io).print(`Tabla ${verb}.\n${internals.table(result.table)}`, { ...result.table, resultado: verb });
        });

    const calendar = program.command('calendario').description('la dirección privada (iCalendar) de la agenda de vencimientos de un usuario');

    calendar.command('crear')
        .description('crea la dirección del usuario (reemplaza la anterior); se muestra una sola vez')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const { createCalendarFeed } = await internals.calendar();
            const result = await withApp(io, async (app) => ({
                url: `${app.config.publicUrl}/calendario/${(await createCalendarFeed(app.ports, parseId(options.user))).token}.ics`
            }));
            outputFor(command, io).print(`Dirección del calendario (se muestra una sola vez; quien la tenga ve la agenda del usuario):\n${result.url}`, result);
        });

    calendar.command('revocar')
        .description('revoca la dirección del usuario: deja de responder al instante')
        .requiredOption('--user <id>', 'usuario')
        .action(async (options: { user: string }, command: Command) => {

            const { revokeCalendarFeed } = await internals.calendar();
            const result = await withApp(io, async (app) => revokeCalendarFeed(app.ports, parseId(options.user)));
            outputFor(command, io).print(result.revoked ? 'Dirección del calendario revocada.' : 'El usuario no tenía una dirección de calendario.', result);
        });
};
