import type { SctData, SctDebt, SctDueDate, SctReturn } from '../../../core/domain/sct.js';
import { dateToIso } from '../../../core/domain/time.js';
import type { AuthorityCredentials } from '../../../core/ports/authority-client.js';
import { logicalUrl } from '../hosts.js';
import { headerKey, parseCsv } from './csv.js';
import { failure } from './failures.js';
import type { HttpSession } from './http.js';
import { openService, requireTaxpayerChoice } from './services.js';
import { parseDate, parsePeriod, requireAmount, requireDate } from './values.js';

// Sistema de Cuentas Tributarias: three exportable blocks (debts, future due dates, sworn
// returns) as comma-separated CSV with dot thousands and comma decimals, concept and
// subconcept joined with " / ", and "No se encontraron datos" for an empty block. The export
// address (exportar.do?bloque=…&formato=csv) and the due-dates and returns columns are
// assumed; the debt columns are the documented ones.

type Block = 'deudas' | 'vencimientos' | 'ddjj';

interface Table {
    cell(row: string[], ...names: string[]): string;
    has(name: string): boolean;
    rows: string[][];
}

const internals = {
    empty: /no se encontraron datos/i,

    table(text: string, block: Block): Table {

        if (internals.empty.test(text)) {
            return { cell: () => '', has: () => false, rows: [] };
        }

        const rows = parseCsv(text, ',');
        const headerIndex = rows.findIndex((row) => row.some((cell) => headerKey(cell) === 'impuesto'));
        if (headerIndex < 0) {
            throw failure('unexpected_page', `SCT ${block}: encabezado desconocido`);
        }

        const keys = rows[headerIndex]!.map(headerKey);
        const find = (names: string[]): number => {

            for (const name of names) {
                const index = keys.indexOf(name);
                if (index >= 0) {
                    return index;
                }
            }

            return -1;
        };

        return {
            rows: rows.slice(headerIndex + 1),
            has: (name) => keys.includes(name),
            cell(row, ...names) {

                const index = find(names);
                if (index < 0) {
                    throw failure('unexpected_page', `SCT ${block}: falta la columna ${names[0]}`);
                }

                return (row[index] ?? '').trim();
            }
        };
    },

    concept(joined: string): { concepto: string; subconcepto: string } {

        const index = joined.indexOf(' / ');
        return index < 0 ? { concepto: joined.trim(), subconcepto: '' } : { concepto: joined.slice(0, index).trim(), subconcepto: joined.slice(index + 3).trim() };
    },

    common(table: Table, row: string[]) {

        return {
            impuesto: table.cell(row, 'impuesto'),
            ...internals.concept(table.cell(row, 'concepto / subconcepto', 'concepto')),
            periodo: parsePeriod(table.cell(row, 'periodo fiscal', 'periodo')),
            antCuota: table.cell(row, 'ant / cuota', 'anticipo / cuota')
        };
    }
};

export const parseSctDebts = (text: string): SctDebt[] => {

    const table = internals.table(text, 'deudas');
    return table.rows.map((row) => {

        const vencimiento = parseDate(table.cell(row, 'fecha de vencimiento', 'vencimiento'), 'vencimiento');
        return {
            establecimiento: table.has('establecimiento') ? table.cell(row, 'establecimiento') : '',
            ...internals.common(table, row),
            vencimiento: vencimiento === null ? null : dateToIso(vencimiento),
            saldo: requireAmount(table.cell(row, 'saldo'), 'saldo', true),
            intResarcitorios: requireAmount(table.cell(row, 'int resarcitorios') || '0', 'int. resarcitorios', true),
            intPunitorios: requireAmount(table.cell(row, 'int punitorios') || '0', 'int. punitorios', true)
        };
    });
};

export const parseSctDueDates = (text: string): SctDueDate[] => {

    const table = internals.table(text, 'vencimientos');
    return table.rows.map((row) => ({
        ...internals.common(table, row),
        vencimiento: dateToIso(requireDate(table.cell(row, 'fecha de vencimiento', 'vencimiento'), 'vencimiento')),
        detalle: table.has('detalle') ? table.cell(row, 'detalle') : ''
    }));
};

export const parseSctReturns = (text: string): SctReturn[] => {

    const table = internals.table(text, 'ddjj');
    return table.rows.map((row) => ({
        establecimiento: table.has('establecimiento') ? table.cell(row, 'establecimiento') : '',
        ...internals.common(table, row),
        vencimiento: dateToIso(requireDate(table.cell(row, 'fecha de vencimiento', 'vencimiento'), 'vencimiento'))
    }));
};

export const createSct = (http: HttpSession, credentials: AuthorityCredentials) => {

    const exportBlock = (block: Block): Promise<string> => {

        const url = logicalUrl('sct', `/sct/exportar.do?cuit=${credentials.representedCuit}&bloque=${block}&formato=csv`);
        return http.request({ url, accept: 'text/csv, */*' }, (response) => {

            if (response.status !== 200) {
                throw failure('unexpected_page', `SCT ${block}: HTTP ${response.status}`);
            }

            const text = response.text();
            internals.table(text, block);                 // unreadable exports are retried
            return text;
        });
    };

    return {
        async sct(): Promise<SctData> {

            const landing = await openService(http, credentials, 'sct');
            requireTaxpayerChoice(landing, credentials, 'sct');
            const [deudas, vencimientos, ddjj] = await Promise.all([exportBlock('deudas'), exportBlock('vencimientos'), exportBlock('ddjj')]);
            return { deuda: parseSctDebts(deudas), vencimientos: parseSctDueDates(vencimientos), ddjj: parseSctReturns(ddjj) };
        }
    };
};
