// docs/api.md, Resources: the monotributo / autónomos current account.

export interface CcmaBalances {
    saldoDeudor: number | null;     // null: not reported by the authority, unlike zero
    saldoAcreedor: number | null;
}

export interface CcmaMovement {
    orden: number;
    periodo: string;                // MM/YYYY
    impuesto: string;
    concepto: string;
    subconcepto: string;
    descripcion: string;
    fechaMovimiento: string;        // date-time
    debe: number | null;
    haber: number | null;
    saldo: number;
}

// Periods are shown as MM/YYYY but ordered as YYYYMM.
export const periodKey = (periodo: string): string => `${periodo.slice(3, 7)}${periodo.slice(0, 2)}`;
export const periodFromKey = (key: string): string => `${key.slice(4, 6)}/${key.slice(0, 4)}`;
