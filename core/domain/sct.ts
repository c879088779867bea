// docs/api.md, Resources: the tax current account (Sistema de Cuentas Tributarias).

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

export interface SctSummary {
    // What settles every debt today: saldo plus both interests (docs/api.md, Resources).
    totalAdeudado: number;
    // The earliest obligation due today or later, if any.
    proximoVencimiento: SctDueDate | null;
}

export const summarizeSct = (data: SctData, today: string): SctSummary => {

    const total = data.deuda.reduce((sum, item) => sum + item.saldo + item.intResarcitorios + item.intPunitorios, 0);
    const upcoming = data.vencimientos
        .filter((item) => item.vencimiento.slice(0, 10) >= today)
        .sort((a, b) => a.vencimiento.localeCompare(b.vencimiento));
    return { totalAdeudado: Math.round(total * 100) / 100 || 0, proximoVencimiento: upcoming[0] ?? null };
};
