import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import { pesosAmount } from '../../../core/domain/invoice.js';
import { failure } from './failures.js';
import { detectDelimiter, headerKey, parseCsv } from './csv.js';
import { blankToNull, parseAmount, parseCurrency, parseDigits, parseInvoiceType, requireAmount, requireDate } from './authority-values.js';

// Mis Comprobantes' CSV export in its three generations (docs/authority.md), chosen by the header
// row: (1) before Oct 2023, comma separated, all quoted, 16 columns, "1 - Factura A" types,
// dd/mm/yyyy dates; (2) Oct 2023-Aug 2025, ';' separated, 17 columns with one net and one VAT
// column; (3) since Sep 2025, ';' separated, one net and one VAT column per rate plus totals.
// Columns are then found by name, so their order may vary within a generation.

type CsvGeneration = 1 | 2 | 3;

interface Layout {
    generation: CsvGeneration;
    column(...names: string[]): number | null;
}

type Columns = Record<'fecha' | 'tipo' | 'puntoVenta' | 'numeroDesde' | 'docTipo' | 'docNumero' | 'tipoCambio' | 'moneda' | 'neto' | 'noGravado' | 'exentas' | 'iva' | 'total', number> & Record<'numeroHasta' | 'codigo' | 'nombre' | 'otros', number | null>;

const internals = {
    notDiscriminated: new Set(['6', '7', '8', '9', '10', '11', '12', '13', '15', '16']),

    record(row: string[], columns: Columns, cell: (row: string[], index: number | null) => string): InvoiceRecord {

        const moneda = parseCurrency(cell(row, columns.moneda));
        const importeOriginal = requireAmount(cell(row, columns.total), 'Imp. Total');
        const tipoCambio = moneda === 'PES' ? 1 : requireAmount(cell(row, columns.tipoCambio), 'Tipo Cambio');
        const numeroDesde = parseDigits(cell(row, columns.numeroDesde));
        return {
            fecha: requireDate(cell(row, columns.fecha), 'Fecha'),
            tipo: parseInvoiceType(cell(row, columns.tipo)),
            puntoVenta: parseDigits(cell(row, columns.puntoVenta)),
            numeroDesde,
            numeroHasta: parseDigits(cell(row, columns.numeroHasta)) || numeroDesde,
            codigoAutorizacion: blankToNull(cell(row, columns.codigo)),
            counterpart: {
                tipoDocumento: blankToNull(cell(row, columns.docTipo)),
                numeroDocumento: blankToNull(cell(row, columns.docNumero)),
                nombre: blankToNull(cell(row, columns.nombre))
            },
            impNetoGravado: parseAmount(cell(row, columns.neto), 'Imp. Neto Gravado'),
            impNetoNoGravado: parseAmount(cell(row, columns.noGravado), 'Imp. Neto No Gravado'),
            impOpExentas: parseAmount(cell(row, columns.exentas), 'Imp. Op. Exentas'),
            otrosTributos: parseAmount(cell(row, columns.otros), 'Otros Tributos'),
            iva: parseAmount(cell(row, columns.iva), 'IVA'),
            tipoCambio,
            importeOriginal,
            monedaOriginal: moneda,
            importe: pesosAmount(importeOriginal, tipoCambio)
        };
    },

    detect(header: string[], delimiter: string): CsvGeneration | null {

        const keys = header.map(headerKey);
        if (delimiter === ';' && keys.includes('imp neto gravado total') && keys.includes('total iva')) {
            return 3;
        }

        if (delimiter === ';' && keys.includes('fecha de emision') && keys.includes('iva')) {
            return 2;
        }

        if (delimiter === ',' && keys[0] === 'fecha' && keys.includes('iva') && keys.includes('imp total')) {
            return 1;
        }

        return null;
    },

    layout(header: string[], generation: CsvGeneration): Layout {

        const keys = header.map(headerKey);
        return {
            generation,
            column: (...names: string[]) => {

                for (const name of names) {
                    const index = keys.indexOf(name);
                    if (index >= 0) {
                        return index;
                    }
                }

                return null;
            }
        };
    }
};

export const parseInvoicesCsv = (text: string, kind: InvoiceKind): InvoiceRecord[] => {

    const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
    const delimiter = detectDelimiter(firstLine);
    const rows = parseCsv(text, delimiter);
    const header = rows[0];
    const generation = header ? internals.detect(header, delimiter) : null;
    if (!header || !generation) {
        throw failure('unexpected_page', 'encabezado desconocido en el CSV de Mis Comprobantes');
    }

    const layout = internals.layout(header, generation);
    const party = kind === 'received' ? 'emisor' : 'receptor';
    const required = (...names: string[]): number => {

        const index = layout.column(...names);
        if (index === null) {
            throw failure('unexpected_page', `falta la columna ${names[0]} en el CSV de Mis Comprobantes`);
        }

        return index;
    };

    const columns = {
        fecha: required('fecha de emision', 'fecha'),
        tipo: required('tipo de comprobante', 'tipo'),
        puntoVenta: required('punto de venta'),
        numeroDesde: required('numero desde'),
        numeroHasta: layout.column('numero hasta'),
        codigo: layout.column('cod autorizacion', 'codigo de autorizacion', 'cae'),
        docTipo: required(`tipo doc ${party}`),
        docNumero: required(`nro doc ${party}`),
        nombre: layout.column(`denominacion ${party}`),
        tipoCambio: required('tipo cambio', 'tipo de cambio'),
        moneda: required('moneda'),
        neto: required(...(generation === 3 ? ['imp neto gravado total'] : ['imp neto gravado'])),
        noGravado: required('imp neto no gravado'),
        exentas: required('imp op exentas'),
        otros: layout.column('otros tributos'),
        iva: required(...(generation === 3 ? ['total iva'] : ['iva'])),
        total: required('imp total')
    };

    const cell = (row: string[], index: number | null): string => (index === null ? '' : (row[index] ?? '').trim());
    return rows.slice(1).map((row) => {

        const record = internals.record(row, columns, cell);
        // Gen 3 writes 0,00 in every component of B and C invoices: not discriminated, not zero.
        const components = [record.impNetoGravado, record.impNetoNoGravado, record.impOpExentas, record.otrosTributos, record.iva];
        if (generation === 3 && internals.notDiscriminated.has(record.tipo) && components.every((value) => !value)) {
            return { ...record, impNetoGravado: null, impNetoNoGravado: null, impOpExentas: null, otrosTributos: null, iva: null };
        }

        return record;
    });
};
