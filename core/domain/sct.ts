// SPEC §2.5: the tax current account (Sistema de Cuentas Tributarias).

export interface SctDebt {
    establecimiento: string;
    impuesto: string;
    concepto: string;
    subconcepto: string;
    periodo: string;               // YYYYMM
    antCuota: string;
    vencimiento: string | null;    // date-time
    saldo: number;
    intResarcitorios: number;
    intPunitorios: number;
}

export interface SctDueDate {
    impuesto: string;
    concepto: string;
    subconcepto: string;
    periodo: string;
    antCuota: string;
    vencimiento: string;
    detalle: string;
}

export interface SctReturn {
    establecimiento: string;
    impuesto: string;
    concepto: string;
    subconcepto: string;
    periodo: string;
    antCuota: string;
    vencimiento: string;
}

export interface SctData {
    deuda: SctDebt[];
    vencimientos: SctDueDate[];
    ddjj: SctReturn[];
}
