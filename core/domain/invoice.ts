// docs/api.md, Resources. Issued and received invoices share one shape; only the counterpart differs.

export type InvoiceKind = 'issued' | 'received';

interface InvoiceAmounts {
    impNetoGravado: number | null;
    impNetoNoGravado: number | null;
    impOpExentas: number | null;
    otrosTributos: number | null;
    iva: number | null;
    tipoCambio: number;
    importeOriginal: number;
    monedaOriginal: string;
    importe: number;
}

// What synchronization stores and the read side returns: one row of either kind.
export interface InvoiceRecord extends InvoiceAmounts {
    fecha: string;                      // YYYY-MM-DD
    puntoVenta: string;
    numeroDesde: string;
    numeroHasta: string;
    tipo: string;
    codigoAutorizacion: string | null;
    counterpart: {
        tipoDocumento: string | null;
        numeroDocumento: string | null;
        nombre: string | null;
    };
}

interface InvoiceViewBase extends InvoiceAmounts {
    fecha: string;
    puntoVenta: string;
    numeroDesde: string;
    numeroHasta: string;
    tipo: string;
}

export interface IssuedInvoiceView extends InvoiceViewBase {
    receptor: { tipoDocumento: string | null; numeroDocumento: string | null; nombre: string | null };
}

export interface ReceivedInvoiceView extends InvoiceViewBase {
    emisor: { nombre: string; cuit: string };
}

// ARCA's document type 99 ("sin identificar", number 0): a sale to a consumidor final, who has
// neither a name nor a document on the invoice.
export const isFinalConsumer = (counterpart: { tipoDocumento: string | null }): boolean => Number(counterpart.tipoDocumento) === 99;

// docs/api.md, Resources: importe is importeOriginal converted with tipoCambio, rounded to cents.
export const pesosAmount = (importeOriginal: number, tipoCambio: number): number => {

    return Math.round(importeOriginal * tipoCambio * 100) / 100;
};

// docs/api.md, Resources: an invoice as stored: importe is importeOriginal in pesos, and tipoCambio is 1
// for pesos whatever the authority wrote beside them.
const pesoCurrencies: ReadonlySet<string> = new Set(['PES', '$', 'ARS']);

export const normalizeInvoice = (invoice: InvoiceRecord): InvoiceRecord => {

    const tipoCambio = pesoCurrencies.has(invoice.monedaOriginal.trim().toUpperCase()) ? 1 : invoice.tipoCambio;
    return { ...invoice, tipoCambio, importe: pesosAmount(invoice.importeOriginal, tipoCambio) };
};

// ARCA's voucher-type codes of credit notes (A, B, C, E, M, the tique ones and the FCE MiPyME
// ones): they take back what an invoice charged, so a period's totals subtract them.
const creditNoteTypes: ReadonlySet<number> = new Set([3, 8, 13, 21, 53, 110, 112, 113, 114, 203, 208, 213]);

const isCreditNote = (tipo: string): boolean => creditNoteTypes.has(Number(tipo));

// A period's invoices added up per currency and voucher type, as the database groups them.
export interface InvoiceTotals {
    moneda: string;
    tipo: string;
    cantidad: number;
    importe: number;
    importeOriginal: number;
    impNetoGravado: number;
    impNetoNoGravado: number;
    impOpExentas: number;
    otrosTributos: number;
    iva: number;
}

export interface CurrencySummary {
    moneda: string;
    cantidad: number;
    notasDeCredito: number;
    importe: number;             // in pesos
    importeOriginal: number;     // in the currency
    impNetoGravado: number;
    impNetoNoGravado: number;
    impOpExentas: number;
    otrosTributos: number;
    iva: number;
}

const internals = {
    amounts: ['importe', 'importeOriginal', 'impNetoGravado', 'impNetoNoGravado', 'impOpExentas', 'otrosTributos', 'iva'] as const,
    cents: (value: number): number => Math.round(value * 100) / 100 || 0
};

// What an accountant asks of a period ("¿cuánto facturó en octubre?"): per currency, how many
// vouchers and their amounts, credit notes subtracted; currencies in code order.
export const totalsByCurrency = (totals: readonly InvoiceTotals[]): CurrencySummary[] => {

    const byCurrency = new Map<string, CurrencySummary>();
    for (const row of totals) {
        const summary = byCurrency.get(row.moneda) ?? {
            moneda: row.moneda,
            cantidad: 0,
            notasDeCredito: 0,
            importe: 0,
            importeOriginal: 0,
            impNetoGravado: 0,
            impNetoNoGravado: 0,
            impOpExentas: 0,
            otrosTributos: 0,
            iva: 0
        };
        const sign = isCreditNote(row.tipo) ? -1 : 1;
        summary.cantidad += row.cantidad;
        summary.notasDeCredito += sign < 0 ? row.cantidad : 0;
        for (const amount of internals.amounts) {
            summary[amount] += sign * row[amount];
        }

        byCurrency.set(row.moneda, summary);
    }

    return [...byCurrency.values()]
        .sort((a, b) => a.moneda.localeCompare(b.moneda))
        .map((summary) => {

            for (const amount of internals.amounts) {
                summary[amount] = internals.cents(summary[amount]);
            }

            return summary;
        });
};
