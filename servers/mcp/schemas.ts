import { z } from 'zod';
import { categories } from '../../core/domain/client.js';
import { messages } from '../../core/domain/messages.js';
import { isCalendarDate } from '../../core/domain/time.js';

// The tools' input schemas are the REST query parameters (SPEC §4.2 to §4.11, §4.14) and
// their output schemas the REST response bodies (SPEC §2), so a tool's structuredContent is
// exactly what the REST endpoint answers.

const internals = {
    nullableNumber: z.number().nullable(),
    dateTime: z.string().describe('fecha y hora ISO 8601 UTC'),

    pagination: z.object({
        limit: z.number().int(),
        offset: z.number().int(),
        total: z.number().int().describe('cantidad total de registros que cumplen la consulta')
    })
};

export const inputs = {
    limit: z.number({ error: messages.field.limit }).int({ error: messages.field.limit }).min(1, { error: messages.field.limit }).max(100, { error: messages.field.limit }).optional()
        .describe('cantidad de registros por página, de 1 a 100 (50 por omisión)'),
    offset: z.number({ error: messages.field.offset }).int({ error: messages.field.offset }).min(0, { error: messages.field.offset }).optional()
        .describe('cantidad de registros a saltear (0 por omisión)'),
    cuit: z.string({ error: messages.field.cuitPath }).regex(/^\d{2}-?\d{8}-?\d$/, { error: messages.field.cuitPath })
        .describe('CUIT del cliente, 11 dígitos con o sin guiones (NN-NNNNNNNN-N)'),
    date: (name: 'from_date' | 'to_date', description: string) => z.string({ error: messages.field[name] })
        .refine(isCalendarDate, { error: messages.field[name] }).optional().describe(description),
    etiquetas: z.array(z.string({ error: messages.field.etiquetas }).min(1, { error: messages.field.etiquetas }).max(100, { error: messages.field.etiquetas }), { error: messages.field.etiquetas }).optional()
        .describe('nombres de etiquetas; varias se combinan con O'),
    monotributista: z.boolean({ error: messages.field.monotributista }).optional().describe('solo monotributistas (true) o solo no monotributistas (false)'),
    autonomo: z.boolean({ error: messages.field.autonomo }).optional().describe('solo autónomos (true) o solo no autónomos (false)'),
    categoria: z.enum(categories, { error: messages.field.categoria }).optional().describe('categoría de monotributo, de A a K')
};

const cuitListItem = z.object({
    id: z.string(),
    cuit: z.string(),
    displayCuit: z.string(),
    tipo: z.string(),
    nombre: z.string(),
    email: z.string().nullable(),
    telefono: z.string().nullable(),
    etiquetas: z.array(z.string()),
    monotributista: z.boolean().nullable(),
    autonomo: z.boolean().nullable(),
    categoria: z.string().nullable(),
    sistemaRegistralSyncedAt: internals.dateTime.nullable()
});

const invoiceBase = {
    fecha: internals.dateTime,
    puntoVenta: z.string(),
    numeroDesde: z.string(),
    numeroHasta: z.string(),
    tipo: z.string(),
    impNetoGravado: internals.nullableNumber,
    impNetoNoGravado: internals.nullableNumber,
    impOpExentas: internals.nullableNumber,
    otrosTributos: internals.nullableNumber,
    iva: internals.nullableNumber,
    tipoCambio: z.number(),
    importeOriginal: z.number(),
    monedaOriginal: z.string(),
    importe: z.number()
};

const issuedInvoice = z.object({
    ...invoiceBase,
    receptor: z.object({ tipoDocumento: z.string().nullable(), numeroDocumento: z.string().nullable(), nombre: z.string().nullable() })
});

const receivedInvoice = z.object({
    ...invoiceBase,
    emisor: z.object({ nombre: z.string(), cuit: z.string() })
});

const sctItem = {
    impuesto: z.string(),
    concepto: z.string(),
    subconcepto: z.string(),
    periodo: z.string(),
    antCuota: z.string()
};

const sctData = z.object({
    deuda: z.array(z.object({
        establecimiento: z.string(),
        ...sctItem,
        vencimiento: internals.dateTime.nullable(),
        saldo: z.number(),
        intResarcitorios: z.number(),
        intPunitorios: z.number()
    })),
    vencimientos: z.array(z.object({ ...sctItem, vencimiento: internals.dateTime, detalle: z.string() })),
    ddjj: z.array(z.object({ establecimiento: z.string(), ...sctItem, vencimiento: internals.dateTime }))
});

const ccmaBalances = z.object({ saldoDeudor: internals.nullableNumber, saldoAcreedor: internals.nullableNumber });

const ccmaMovement = z.object({
    orden: z.number().int(),
    periodo: z.string(),
    impuesto: z.string(),
    concepto: z.string(),
    subconcepto: z.string(),
    descripcion: z.string(),
    fechaMovimiento: internals.dateTime,
    debe: internals.nullableNumber,
    haber: internals.nullableNumber,
    saldo: z.number()
});

const notification = z.object({
    arcaId: z.string().nullable(),
    tipo: z.string().nullable(),
    asunto: z.string(),
    organismo: z.string().nullable(),
    fechaRecepcion: internals.dateTime,
    fechaNotificacion: internals.dateTime.nullable(),
    leidaAt: internals.dateTime.nullable()
});

const syncedAt = internals.dateTime.nullable().describe('última sincronización exitosa con ARCA; null si nunca se sincronizó');

export const outputs = {
    // SPEC §4.2
    cuits: {
        data: z.array(cuitListItem),
        pagination: internals.pagination,
        filters: z.object({
            etiquetas: z.array(z.string()).nullable(),
            monotributista: z.boolean().nullable(),
            autonomo: z.boolean().nullable(),
            categoria: z.string().nullable()
        })
    },
    // SPEC §4.6 and §4.7: emitidos carry receptor, recibidos emisor.
    invoices: {
        data: z.array(z.union([issuedInvoice, receivedInvoice])),
        pagination: internals.pagination,
        filters: z.object({ fromDate: z.string(), toDate: z.string() }),
        syncedAt
    },
    // SPEC §4.8
    sct: { data: sctData.nullable(), syncedAt },
    // SPEC §4.9 (saldos: data is the balances or null) and §4.10 (movimientos: data is the
    // list of movements, with pagination by period).
    ccma: {
        data: z.union([ccmaBalances, z.array(ccmaMovement)]).nullable(),
        pagination: internals.pagination.optional(),
        syncedAt
    },
    // SPEC §4.11
    dfe: { data: z.array(notification), pagination: internals.pagination, syncedAt }
};
