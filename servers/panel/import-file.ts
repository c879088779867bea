import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import type { ImportColumn, ImportRow } from '../../core/use-cases/import-rows.js';
import { importColumns, importLimits } from '../../core/use-cases/import-rows.js';
import { importTexts } from './import-texts.js';

// The import's file as rows (core/use-cases/import-rows.ts): a CSV in UTF-8 (with or without
// the BOM Excel writes, `;` as Argentine Excel separates or `,`), or an Excel workbook (.xlsx,
// its first sheet). The first row names the columns with the API's field names; every later
// row that is not blank is one client, numbered as the sheet numbers it. Cells are kept as
// written (the contract trims what it trims; a key may hold spaces). What cannot be read is a
// FileRefusal, with the Spanish reason the page shows. And the templates, in both formats.

export class FileRefusal extends Error {}

const internals = {
    t: importTexts,
    // An .xlsx is a zip: what its parts may add up to once inflated, so a small file cannot
    // make the server inflate gigabytes (a 5,000-row sheet is a few MB).
    maxInflatedBytes: 64 * 1024 * 1024,

    refuse: (message: string): never => {

        throw new FileRefusal(message);
    },

    isZip: (data: Buffer): boolean => data.length >= 4 && data.readUInt32BE(0) === 0x504b0304,
    // Excel 97-2003 (.xls) and other OLE documents.
    isOle: (data: Buffer): boolean => data.length >= 8 && data.readUInt32BE(0) === 0xd0cf11e0 && data.readUInt32BE(4) === 0xa1b11ae1,

    // Rows of cells (first = titles) into the import's rows; `numbers` are the sheet's row numbers.
    rowsOf(table: { number: number; cells: string[] }[]): ImportRow[] {

        const filled = table.filter((row) => row.cells.some((cell) => cell.trim() !== ''));
        const [titles, ...rows] = filled;
        if (!titles) {
            return [];
        }

        const columns = titles.cells.map((title) => title.replace(/^\uFEFF/, '').trim().toLowerCase());
        const known = new Set<string>(importColumns);
        const unknown = columns.filter((column) => column !== '' && !known.has(column));
        if (!columns.some((column) => known.has(column))) {
            internals.refuse(internals.t.noTitles);
        }

        if (unknown.length) {
            internals.refuse(internals.t.unknownColumns(unknown));
        }

        const repeated = columns.filter((column, i) => column !== '' && columns.indexOf(column) !== i);
        if (repeated.length) {
            internals.refuse(internals.t.repeatedColumns([...new Set(repeated)]));
        }

        return rows.slice(0, importLimits.maxRows + 1).map((row) => {

            const cells: ImportRow['cells'] = {};
            row.cells.forEach((cell, i) => {

                if (cell.trim() === '') {
                    return;
                }

                const column = columns[i];
                if (!column) {
                    internals.refuse(internals.t.untitledColumn(row.number, i + 1));
                }

                cells[column as ImportColumn] = cell;
            });
            return { row: row.number, cells };
        });
    },

    // RFC 4180 as spreadsheets write it: quoted fields (with "" for a quote, and line breaks),
    // CRLF, LF or CR between records. The separator is the titles' own: `;` or `,`.
    csvTable(text: string): { number: number; cells: string[] }[] {

        const firstLine = text.slice(0, text.search(/\r|\n|$/));
        const separator = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
        const table: { number: number; cells: string[] }[] = [];
        let cells: string[] = [];
        let cell = '';
        let quoted = false;
        let i = 0;
        const endRecord = () => {

            cells.push(cell);
            table.push({ number: table.length + 1, cells });
            cells = [];
            cell = '';
        };

        while (i < text.length) {
            const char = text[i]!;
            if (quoted) {
                if (char === '"' && text[i + 1] === '"') {
                    cell += '"';
                    i += 2;
                    continue;
                }

                if (char === '"') {
                    quoted = false;
                }
                else {
                    cell += char;
                }

                ++i;
                continue;
            }

            if (char === '"' && cell === '') {
                quoted = true;
            }
            else if (char === separator) {
                cells.push(cell);
                cell = '';
            }
            else if (char === '\r' || char === '\n') {
                endRecord();
                if (char === '\r' && text[i + 1] === '\n') {
                    ++i;
                }
            }
            else {
                cell += char;
            }

            ++i;
            // Records past what an import takes are not read (titles, blanks and one more).
            if (table.length > importLimits.maxRows * 2 + 2) {
                break;
            }
        }

        if (cell !== '' || cells.length) {
            endRecord();
        }

        return table;
    },

    csvRows(data: Buffer): ImportRow[] {

        let text: string;
        try {
            text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
        }
        catch {
            return internals.refuse(internals.t.notUtf8);
        }

        if (text.includes('\u0000')) {
            internals.refuse(internals.t.wrongFormat);
        }

        return internals.rowsOf(internals.csvTable(text));
    },

    async xlsxRows(data: Buffer): Promise<ImportRow[]> {

        let inflated = 0;
        try {
            // Only the directory is read: the filter declines every entry.
            unzipSync(data, { filter: (file) => {

                inflated += file.originalSize;
                return false;
            } });
        }
        catch {
            internals.refuse(internals.t.wrongFormat);
        }

        if (inflated > internals.maxInflatedBytes) {
            internals.refuse(internals.t.tooLarge);
        }

        const workbook = new ExcelJS.Workbook();
        try {
            await workbook.xlsx.load(data as unknown as ArrayBuffer);
        }
        catch {
            internals.refuse(internals.t.wrongFormat);
        }

        const sheet = workbook.worksheets[0];
        if (!sheet) {
            return [];
        }

        const table: { number: number; cells: string[] }[] = [];
        sheet.eachRow({ includeEmpty: false }, (row, number) => {

            if (table.length > importLimits.maxRows + 1) {
                return;
            }

            const cells: string[] = [];
            row.eachCell({ includeEmpty: true }, (cell, column) => {

                cells[column - 1] = cell.text;
            });
            table.push({ number, cells: Array.from(cells, (cell) => cell ?? '') });
        });

        return internals.rowsOf(table);
    },

    examples: [
        { tipo: 'persona-fisica', cuit: '20-31234567-7', nombre: 'María', apellido: 'Ejemplo', clave_arca: 'clave-fiscal-de-ejemplo', email: 'maria.ejemplo@example.com', telefono: '+54 11 4321-5678' },
        { tipo: 'persona-juridica', cuit: '30-71888888-9', razon_social: 'Ejemplo SRL', representante: '20-31234567-7', email: 'administracion@example.com' }
    ] as Partial<Record<ImportColumn, string>>[],

    csvCell: (value: string): string => (/[;,"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)
};

export const readImportFile = async (data: Buffer): Promise<ImportRow[]> => {

    if (!data.length) {
        internals.refuse(internals.t.emptyFile);
    }

    if (internals.isOle(data)) {
        internals.refuse(internals.t.oldExcel);
    }

    return internals.isZip(data) ? internals.xlsxRows(data) : internals.csvRows(data);
};

// The template as Argentine Excel opens a CSV: UTF-8 with its BOM, `;` between fields.
export const csvTemplate = (): string => `\uFEFF${[
    importColumns.join(';'),
    ...internals.examples.map((example) => importColumns.map((column) => internals.csvCell(example[column] ?? '')).join(';'))
].join('\r\n')}\r\n`;

// The same as a workbook, every column text (so Excel keeps a CUIT's hyphens and a key's digits).
export const xlsxTemplate = async (): Promise<Buffer> => {

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet(internals.t.sheetName);
    sheet.columns = importColumns.map((column) => ({ header: column, key: column, width: Math.max(16, column.length + 4), style: { numFmt: '@' } }));
    sheet.getRow(1).font = { bold: true };
    for (const example of internals.examples) {
        sheet.addRow(example);
    }

    return Buffer.from(await workbook.xlsx.writeBuffer());
};
