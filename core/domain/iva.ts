import type { ClientType } from './client.js';
import { monthsBetween } from './months.js';
import type { TypeRule } from './monotributo.js';
import { signOf } from './monotributo.js';

// The IVA position of a Responsable Inscripto, month by month (docs/answers.md, IVA): débito
// fiscal from the issued A, B and M vouchers, crédito fiscal from the received A and M ones,
// credit notes subtracting on both sides, every IVA amount in pesos (iva × tipoCambio).

// Débito fiscal: issued invoices and debit notes A, B and M (plain and FCE), minus their credit notes.
const debitTypes: TypeRule = {
    adds: ['1', '2', '6', '7', '51', '52', '201', '202', '206', '207'],
    subtracts: ['3', '8', '53', '203', '208']
};

// Crédito fiscal: received A and M (plain and FCE); a received B or C shows no IVA to compute.
const creditTypes: TypeRule = {
    adds: ['1', '2', '51', '52', '201', '202'],
    subtracts: ['3', '53', '203']
};

// A month's vouchers of one kind and type, added up by the database: IVA already in pesos.
export interface IvaTypeTotal {
    mes: string;
    kind: 'issued' | 'received';
    tipo: string;
    iva: number;
    cantidad: number;
}

interface IvaMonth {
    mes: string;
    debitoFiscal: number;
    creditoFiscal: number;
    // débito − crédito: positive, IVA to pay for the month before what is left out.
    saldoTecnico: number;
    comprobantesEmitidos: number;
    comprobantesRecibidos: number;
}

export interface IvaPosition {
    aplica: true;
    desde: string;
    hasta: string;
    meses: IvaMonth[];
    totales: { debitoFiscal: number; creditoFiscal: number; saldoTecnico: number };
    excluye: string[];
}

export interface IvaNotApplicable {
    aplica: false;
    motivo: string;
}

const ivaMessages = {
    monotributista: 'No corresponde: según el sistema registral de ARCA el CUIT es monotributista, no Responsable Inscripto.',
    registryPending: 'No corresponde todavía: el sistema registral de ARCA aún no se sincronizó para este CUIT.',
    // What the position leaves out, said with every answer.
    excluye: [
        'Percepciones y retenciones de IVA sufridas: Mis Comprobantes las mezcla en "Otros tributos" y no se pueden separar.',
        'Saldos a favor de declaraciones juradas anteriores (técnicos o de libre disponibilidad).',
        'Comprobantes que no pasan por Mis Comprobantes (importaciones, tiques sin CUIT, ajustes).'
    ]
} as const;

const internals = {
    cents: (value: number): number => Math.round(value * 100) / 100 || 0
};

export const ivaNotApplicable = (client: { tipo: ClientType; monotributista: boolean | null }): IvaNotApplicable | null => {

    if (client.monotributista === true) {
        return { aplica: false, motivo: ivaMessages.monotributista };
    }

    if (client.monotributista === null && client.tipo === 'persona-fisica') {
        return { aplica: false, motivo: ivaMessages.registryPending };
    }

    return null;
};

// The months from `desde` to `hasta` (YYYY-MM), every one present, oldest first.
export const ivaPosition = (desde: string, hasta: string, rows: readonly IvaTypeTotal[]): IvaPosition => {

    const empty = (mes: string): IvaMonth => ({ mes, debitoFiscal: 0, creditoFiscal: 0, saldoTecnico: 0, comprobantesEmitidos: 0, comprobantesRecibidos: 0 });
    const months = new Map(monthsBetween(desde, hasta).map((mes) => [mes, empty(mes)]));
    for (const row of rows) {
        const month = months.get(row.mes);
        const sign = signOf(row.kind === 'issued' ? debitTypes : creditTypes, row.tipo);
        if (!month || sign === 0) {
            continue;
        }

        if (row.kind === 'issued') {
            month.debitoFiscal += sign * row.iva;
            month.comprobantesEmitidos += row.cantidad;
        }
        else {
            month.creditoFiscal += sign * row.iva;
            month.comprobantesRecibidos += row.cantidad;
        }
    }

    const meses = [...months.values()].map((month) => {

        const debitoFiscal = internals.cents(month.debitoFiscal);
        const creditoFiscal = internals.cents(month.creditoFiscal);
        return { ...month, debitoFiscal, creditoFiscal, saldoTecnico: internals.cents(debitoFiscal - creditoFiscal) };
    });
    const debitoFiscal = internals.cents(meses.reduce((sum, month) => sum + month.debitoFiscal, 0));
    const creditoFiscal = internals.cents(meses.reduce((sum, month) => sum + month.creditoFiscal, 0));
    return {
        aplica: true,
        desde,
        hasta,
        meses,
        totales: { debitoFiscal, creditoFiscal, saldoTecnico: internals.cents(debitoFiscal - creditoFiscal) },
        excluye: [...ivaMessages.excluye]
    };
};
