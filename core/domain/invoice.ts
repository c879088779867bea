// SPEC §2.4. Issued and received invoices share one shape; only the counterpart differs.

export type InvoiceKind = 'issued' | 'received';

export interface InvoiceAmounts {
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

// SPEC §2.4: importe is importeOriginal converted with tipoCambio, rounded to cents.
export const pesosAmount = (importeOriginal: number, tipoCambio: number): number => {

    return Math.round(importeOriginal * tipoCambio * 100) / 100;
};
