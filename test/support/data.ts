import type { CcmaMovement } from '../../core/domain/ccma.js';
import type { InvoiceRecord } from '../../core/domain/invoice.js';
import type { Notification } from '../../core/domain/notification.js';
import type { SctData } from '../../core/domain/sct.js';

// Synchronized records as the sync would hand them to the repositories, with overridable
// fields, so each suite states only what it asserts on.

export const invoice = (overrides: Partial<InvoiceRecord> = {}): InvoiceRecord => ({
    fecha: '2026-03-10',
    tipo: '11',
    puntoVenta: '00002',
    numeroDesde: '00000001',
    numeroHasta: '00000001',
    codigoAutorizacion: '74123456789012',
    counterpart: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: 'Cliente SA' },
    impNetoGravado: 1000,
    impNetoNoGravado: null,
    impOpExentas: null,
    otrosTributos: null,
    iva: 210,
    tipoCambio: 1,
    importeOriginal: 1210,
    monedaOriginal: 'PES',
    importe: 1210,
    ...overrides
});

export const sctData = (): SctData => ({
    deuda: [
        {
            establecimiento: '0',
            impuesto: '30 - IVA',
            concepto: '19 - Obligación mensual',
            subconcepto: '19 - Obligación mensual',
            periodo: '202601',
            antCuota: '0',
            vencimiento: '2026-02-18T00:00:00.000Z',
            saldo: 15000.5,
            intResarcitorios: 320.25,
            intPunitorios: 0
        },
        {
            establecimiento: '0',
            impuesto: '10 - Ganancias personas humanas',
            concepto: '51 - Intereses resarcitorios',
            subconcepto: '51 - Intereses resarcitorios',
            periodo: '202412',
            antCuota: '1',
            vencimiento: null,
            saldo: 800,
            intResarcitorios: 0,
            intPunitorios: 12.5
        }
    ],
    vencimientos: [{
        impuesto: '30 - IVA',
        concepto: '19 - Obligación mensual',
        subconcepto: '19 - Obligación mensual',
        periodo: '202603',
        antCuota: '0',
        vencimiento: '2026-04-20T00:00:00.000Z',
        detalle: 'Declaración jurada mensual'
    }],
    ddjj: [{
        establecimiento: '0',
        impuesto: '30 - IVA',
        concepto: '19 - Obligación mensual',
        subconcepto: '19 - Obligación mensual',
        periodo: '202602',
        antCuota: '0',
        vencimiento: '2026-03-18T00:00:00.000Z'
    }]
});

export const movement = (overrides: Partial<CcmaMovement> & Pick<CcmaMovement, 'orden' | 'periodo'>): CcmaMovement => ({
    impuesto: '20 - Monotributo',
    concepto: '19 - Obligación mensual',
    subconcepto: '19 - Obligación mensual',
    descripcion: 'Cuota mensual',
    fechaMovimiento: '2026-01-20T00:00:00.000Z',
    debe: 25000,
    haber: null,
    saldo: -25000,
    ...overrides
});

export const notification = (overrides: Partial<Notification> & Pick<Notification, 'fechaRecepcion'>): Notification => ({
    arcaId: null,
    tipo: 'Comunicación',
    asunto: 'Aviso',
    organismo: 'ARCA',
    fechaNotificacion: null,
    leidaAt: null,
    ...overrides
});

// Vouchers for the answers' fixtures (issue 41), numbered apart so the natural key never
// repeats, no IVA unless given.
export const numberedInvoices = (rows: readonly Partial<InvoiceRecord>[]): InvoiceRecord[] => rows.map((row, index) => invoice({
    numeroDesde: String(index + 1),
    numeroHasta: String(index + 1),
    iva: 0,
    ...row
}));

// A voucher in pesos: its amount and, for the IVA position, its IVA.
export const pesosInvoice = (fecha: string, tipo: string, importe: number, iva = 0): Partial<InvoiceRecord> => ({
    fecha, tipo, importeOriginal: importe, importe, iva
});
