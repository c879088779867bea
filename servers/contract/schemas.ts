import { agendaKinds } from '../../core/domain/agenda.js';
import { categories } from '../../core/domain/client.js';
import { healthStates, keyStates } from '../../core/domain/health.js';
import { riesgos } from '../../core/domain/monotributo.js';
import { clientPatchSchemas, newClientSchemas } from '../../core/contract/client-body.js';
import { jsonSchemaOf } from './json-schema.js';

// Response schemas (docs/api.md, Resources), written once: the OpenAPI document publishes them, the MCP
// tools give them as output schemas, and the contract tests validate every response against
// them. Objects are closed and every field required, so a field added, renamed or dropped by
// a handler is caught.

type Schema = Record<string, unknown>;

const internals = {
    nullable: (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] }),
    object: (properties: Record<string, Schema>, description?: string): Schema => ({
        type: 'object',
        ...(description ? { description } : {}),
        properties,
        required: Object.keys(properties),
        additionalProperties: false
    }),
    ref: (name: string): Schema => ({ $ref: `#/components/schemas/${name}` }),
    string: { type: 'string' } as Schema,
    number: { type: 'number' } as Schema,
    dateTime: { type: 'string', format: 'date-time' } as Schema,
    date: { type: 'string', format: 'date' } as Schema,
    // A realistic instance, shown by /docs and generated clients.
    example: (schema: Schema, instance: Record<string, unknown>): Schema => ({ ...schema, examples: [instance] }),

    // A CUIT as the examples show it: the list item adds its tags and registry fields to it.
    cuitExample: {
        id: '3f0c2d4e-8a51-4a8e-9d0b-6c1f2a7b9e10',
        cuit: '20123456786',
        displayCuit: '20-12345678-6',
        tipo: 'persona-fisica',
        nombre: 'González, María',
        email: 'maria@example.com',
        telefono: null
    }
};

const { nullable, object, ref, string, number, dateTime, date } = internals;

const cuitFields = {
    id: { type: 'string', description: 'identificador público del cliente' },
    cuit: { type: 'string', pattern: '^\\d{11}$', description: '11 dígitos, sin guiones' },
    displayCuit: { type: 'string', pattern: '^\\d{2}-\\d{8}-\\d$', description: 'NN-NNNNNNNN-N' },
    tipo: { type: 'string', description: '`persona-fisica` o `persona-juridica`' },
    nombre: { type: 'string', description: 'persona física: `<apellido>, <nombre>`; persona jurídica: la razón social' },
    email: nullable(string),
    telefono: nullable(string)
};

const invoiceFields = {
    fecha: dateTime,
    puntoVenta: string,
    numeroDesde: string,
    numeroHasta: string,
    tipo: { type: 'string', description: 'código de tipo de comprobante de la autoridad, sin traducir' },
    impNetoGravado: nullable(number),
    impNetoNoGravado: nullable(number),
    impOpExentas: nullable(number),
    otrosTributos: nullable(number),
    iva: nullable(number),
    tipoCambio: { type: 'number', description: 'tipo de cambio; 1 para comprobantes en pesos' },
    importeOriginal: { type: 'number', description: 'importe expresado en el comprobante' },
    monedaOriginal: string,
    importe: { type: 'number', description: 'importe en pesos: importeOriginal × tipoCambio' }
};

const sctCommon = {
    impuesto: string,
    concepto: string,
    subconcepto: string,
    periodo: { type: 'string', pattern: '^\\d{6}$', description: 'AAAAMM' },
    antCuota: string
};

const healthFields = {
    desde: { ...nullable(dateTime), description: 'desde cuándo está en este estado (null si nunca se intentó)' },
    mensaje: { type: 'string', description: 'qué pasa, en castellano' },
    accion: { type: 'string', description: 'qué tiene que hacer el contador, en castellano' }
};

const systemHealth = object({
    sistema: { type: 'string', enum: ['registro', 'comprobantes_emitidos', 'comprobantes_recibidos', 'sct', 'ccma', 'dfe'] },
    estado: { type: 'string', enum: [...healthStates] },
    ...healthFields,
    syncedAt: { ...nullable(dateTime), description: 'última sincronización exitosa' },
    ultimoIntento: nullable(dateTime)
});

export const componentSchemas: Record<string, Schema> = {
    Error: object({ error: { type: 'string', description: 'mensaje en castellano, apto para mostrar' } }),
    Pagination: object({
        limit: { type: 'integer' },
        offset: { type: 'integer' },
        total: { type: 'integer', description: 'cantidad total de registros que cumplen la consulta' }
    }),
    Cuit: internals.example(object(cuitFields), internals.cuitExample),
    CuitListItem: internals.example(object({
        ...cuitFields,
        etiquetas: { type: 'array', items: string },
        monotributista: nullable({ type: 'boolean' }),
        autonomo: nullable({ type: 'boolean' }),
        categoria: nullable(string),
        sistemaRegistralSyncedAt: nullable(dateTime)
    }), {
        ...internals.cuitExample,
        etiquetas: ['Monotributo'],
        monotributista: true,
        autonomo: false,
        categoria: 'D',
        sistemaRegistralSyncedAt: '2026-10-31T03:12:44.000Z'
    }),
    CuitFilters: object({
        etiquetas: { type: ['array', 'null'], items: string },
        monotributista: nullable({ type: 'boolean' }),
        autonomo: nullable({ type: 'boolean' }),
        categoria: nullable(string)
    }),
    Tag: internals.example(object({ nombre: string, color: string }), { nombre: 'Monotributo', color: '#2e7d32' }),
    InvoiceFilters: object({ fromDate: date, toDate: date }, 'período consultado'),
    IssuedInvoice: internals.example(object({
        ...invoiceFields,
        receptor: object({ tipoDocumento: nullable(string), numeroDocumento: nullable(string), nombre: nullable(string) })
    // As Mis Comprobantes gives them: point of sale and numbers without leading zeros, the
    // authority's type code ('11' is Factura C), amounts in the invoice's currency ('PES').
    }), {
        fecha: '2026-10-05T00:00:00.000Z',
        puntoVenta: '3',
        numeroDesde: '502',
        numeroHasta: '502',
        tipo: '11',
        impNetoGravado: 0,
        impNetoNoGravado: 0,
        impOpExentas: 0,
        otrosTributos: 0,
        iva: 0,
        tipoCambio: 1,
        importeOriginal: 82000.5,
        monedaOriginal: 'PES',
        importe: 82000.5,
        receptor: { tipoDocumento: '80', numeroDocumento: '30712345671', nombre: 'Panadería La Espiga SRL' }
    }),
    ReceivedInvoice: internals.example(object({
        ...invoiceFields,
        emisor: object({ nombre: string, cuit: string })
    }), {
        fecha: '2026-10-01T00:00:00.000Z',
        puntoVenta: '4',
        numeroDesde: '120',
        numeroHasta: '120',
        tipo: '1',
        impNetoGravado: 10492.9,
        impNetoNoGravado: 0,
        impOpExentas: 0,
        otrosTributos: 150.25,
        iva: 2153.41,
        tipoCambio: 1,
        importeOriginal: 12796.56,
        monedaOriginal: 'PES',
        importe: 12796.56,
        emisor: { nombre: 'Distribuidora del Sur SA', cuit: '30710000007' }
    }),
    SctData: object({
        deuda: {
            type: 'array',
            items: object({
                establecimiento: string,
                ...sctCommon,
                vencimiento: nullable(dateTime),
                saldo: number,
                intResarcitorios: number,
                intPunitorios: number
            })
        },
        vencimientos: { type: 'array', items: object({ ...sctCommon, vencimiento: dateTime, detalle: string }) },
        ddjj: { type: 'array', items: object({ establecimiento: string, ...sctCommon, vencimiento: dateTime }) }
    }),
    CcmaBalances: object({
        saldoDeudor: nullable(number),
        saldoAcreedor: nullable(number)
    }),
    CcmaMovement: object({
        orden: { type: 'integer' },
        periodo: { type: 'string', pattern: '^\\d{2}/\\d{4}$', description: 'MM/AAAA' },
        impuesto: string,
        concepto: string,
        subconcepto: string,
        descripcion: string,
        fechaMovimiento: dateTime,
        debe: nullable(number),
        haber: nullable(number),
        saldo: { type: 'number', description: 'saldo luego del movimiento; negativo es deudor' }
    }),
    Notification: internals.example(object({
        arcaId: nullable(string),
        tipo: nullable(string),
        asunto: string,
        organismo: nullable(string),
        fechaRecepcion: dateTime,
        fechaNotificacion: nullable(dateTime),
        leidaAt: nullable(dateTime)
    }), {
        arcaId: '684512397',
        tipo: 'Comunicación',
        asunto: 'Vencimiento de la declaración jurada de IVA',
        organismo: 'ARCA',
        fechaRecepcion: '2026-10-14T13:05:00.000Z',
        fechaNotificacion: '2026-10-14T00:00:00.000Z',
        leidaAt: null
    }),
    CuitHealth: internals.example(object({
        cuit: cuitFields.cuit,
        displayCuit: cuitFields.displayCuit,
        nombre: cuitFields.nombre,
        estado: {
            type: 'string',
            enum: [...healthStates],
            description: 'el de la clave fiscal si falla (frena todos los sistemas); si no, el de sus sistemas que más necesita atención'
        },
        ...healthFields,
        requiereAtencion: {
            type: 'boolean',
            description: 'alguien tiene que hacer algo (cargar o cambiar la clave, adherir un servicio, delegar); lo demás se reintenta solo'
        },
        clave: object({
            cuit: { ...nullable(string), description: 'CUIT cuya clave fiscal ingresa (el propio o el del representante)' },
            estado: { type: 'string', enum: [...keyStates] },
            ...healthFields
        }, 'la clave fiscal con que se ingresa, compartida por todos los CUIT que alcanza'),
        sistemas: { type: 'array', items: systemHealth }
    }), {
        cuit: '20123456786', displayCuit: '20-12345678-6', nombre: 'González, María', estado: 'clave_vencida', desde: '2026-11-03T03:10:12.000Z',
        mensaje: 'ARCA exige cambiar la clave fiscal.', accion: 'Pedile al cliente que cambie su clave fiscal en ARCA y cargala de nuevo.', requiereAtencion: true,
        clave: {
            cuit: '20123456786',
            estado: 'clave_vencida',
            desde: '2026-11-03T03:10:12.000Z',
            mensaje: 'ARCA exige cambiar la clave fiscal.',
            accion: 'Pedile al cliente que cambie su clave fiscal en ARCA y cargala de nuevo.'
        },
        sistemas: [{
            sistema: 'sct',
            estado: 'clave_vencida',
            desde: '2026-11-03T03:10:12.000Z',
            mensaje: 'ARCA exige cambiar la clave fiscal.',
            accion: 'Pedile al cliente que cambie su clave fiscal en ARCA y cargala de nuevo.',
            syncedAt: '2026-11-02T03:08:40.000Z',
            ultimoIntento: '2026-11-12T03:09:55.000Z'
        }]
    }),
    HealthFilters: object({
        estado: { type: ['array', 'null'], items: { type: 'string', enum: [...healthStates] } },
        requiere_atencion: nullable({ type: 'boolean' })
    })
};


// The answers (docs/answers.md): field by field as core/domain/monotributo.ts, agenda.ts and
// iva.ts give them.
const month = { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'AAAA-MM' };
const ratio = { type: 'number', description: 'proporción: 1 es el 100 %' };
const categoria = { type: ['string', 'null'], enum: [...categories, null] };
const identityFields = { cuit: cuitFields.cuit, displayCuit: cuitFields.displayCuit, nombre: cuitFields.nombre };
const riskList = { type: 'array', items: { type: 'string', enum: [...riesgos] }, description: '`tope_cerca` (80 % o más del tope, sin superarlo), `tope_superado`, `exclusion` (facturación sobre el tope de K, o compras del 40 % del tope de K o más)' };

const answerExamples = {
    identity: { cuit: '20123456786', displayCuit: '20-12345678-6', nombre: 'González, María' },
    tabla: { vigenciaDesde: '2026-02-01', fuente: 'RG 5637/2025, actualización semestral por IPC; elonce.com (06/02/2026), La Gaceta y la página de categorías de ARCA', desactualizada: false, aviso: null }
};

export const answerSchemas: Record<string, Schema> = {
    CategoryTableChoice: object({
        vigenciaDesde: { ...date, description: 'desde cuándo rige la tabla usada' },
        fuente: { type: 'string', description: 'de dónde salen los montos' },
        desactualizada: { type: 'boolean', description: 'la fecha consultada es posterior al semestre de la tabla más nueva cargada: se usa igual y se avisa' },
        aviso: { ...nullable(string), description: 'por qué se usó esta tabla, cuando no es la del semestre' }
    }, 'la tabla de categorías vigente hoy'),
    BillingWindow: object({ desde: month, hasta: month }, 'los 12 meses completos anteriores al mes en curso (hora de Buenos Aires)'),
    MonotributoControl: internals.example(object({
        ...identityFields,
        aplica: { type: 'boolean', const: true },
        ventana: ref('BillingWindow'),
        tabla: ref('CategoryTableChoice'),
        categoria: { ...categoria, description: 'la categoría según el sistema registral' },
        tope: { ...nullable(number), description: 'tope anual de su categoría (null si la categoría no se conoce)' },
        facturado: { type: 'number', description: 'facturas, notas de débito y recibos C (11, 12, 15, 211, 212) menos notas de crédito C (13, 213) de la ventana, en pesos' },
        usoTope: { ...nullable(number), description: 'facturado / tope (1 es el 100 %)' },
        categoriaSegunFacturacion: { ...categoria, description: 'la menor categoría cuyo tope cubre lo facturado; null si supera el de K' },
        fueraDelRegimen: { type: 'boolean', description: 'lo facturado supera el tope de K' },
        topeMaximo: { type: 'number', description: 'tope de la categoría K' },
        usoTopeMaximo: { ...ratio, description: 'facturado / tope de K' },
        compras: object({
            total: { type: 'number', description: 'comprobantes A, B y C recibidos de la ventana (notas de crédito restando), en pesos' },
            usoTopeMaximo: { ...ratio, description: 'compras / tope de K' },
            umbralBienes: { type: 'number', description: '80 % del tope de K: exclusión para venta de bienes' },
            umbralServicios: { type: 'number', description: '40 % del tope de K: exclusión para servicios' },
            superaUmbralBienes: { type: 'boolean' },
            superaUmbralServicios: { type: 'boolean' }
        }, 'compras contra los umbrales de exclusión (la actividad no se conoce: van los dos)'),
        meses: { type: 'array', items: object({ mes: month, facturado: number, compras: number }), description: 'los 12 meses de la ventana, del más antiguo al más reciente' },
        recategorizacion: object({
            desde: date,
            hasta: { ...date, description: 'último día para recategorizarse' },
            enCurso: { type: 'boolean' },
            evaluaDesde: month,
            evaluaHasta: month
        }, 'la próxima recategorización (del 15/1 al 5/2 y del 15/7 al 5/8) y los 12 meses que evalúa'),
        proyeccion: object({
            ritmoMensual: { type: 'number', description: 'promedio de lo facturado en los últimos 3 meses de la ventana' },
            mesSuperaTope: { ...nullable(month), description: 'primer mes cuyos 12 meses superarían el tope a ese ritmo (null: no dentro de un año, o ya lo supera)' }
        }),
        riesgos: riskList,
        arca: {
            oneOf: [ref('ArcaMeter'), { type: 'null' }],
            description: 'el facturómetro de ARCA (servicio de monotributo), junto a la cifra de arcasync, leído en la sincronización diaria; null si nunca se leyó'
        }
    }), {
        ...answerExamples.identity,
        aplica: true,
        ventana: { desde: '2025-03', hasta: '2026-02' },
        tabla: answerExamples.tabla,
        categoria: 'H',
        tope: 70113407.33,
        facturado: 61244000,
        usoTope: 0.8735,
        categoriaSegunFacturacion: 'H',
        fueraDelRegimen: false,
        topeMaximo: 108357084.05,
        usoTopeMaximo: 0.5652,
        compras: {
            total: 12500000, usoTopeMaximo: 0.1154, umbralBienes: 86685667.24, umbralServicios: 43342833.62,
            superaUmbralBienes: false, superaUmbralServicios: false
        },
        meses: [{ mes: '2025-03', facturado: 4800000, compras: 950000 }],
        recategorizacion: { desde: '2026-07-15', hasta: '2026-08-05', enCurso: false, evaluaDesde: '2025-07', evaluaHasta: '2026-06' },
        proyeccion: { ritmoMensual: 6100000, mesSuperaTope: '2026-05' },
        riesgos: ['tope_cerca'],
        arca: {
            facturado: 60912500.5, tope: 70113407.33, periodo: '01/03/2025 al 28/02/2026', debeRecategorizar: false,
            recategorizacion: { desde: '2026-07-15', hasta: '2026-08-05' }, leidoAt: '2026-03-14T06:12:40.000Z'
        }
    }),
    ArcaMeter: internals.example(object({
        facturado: { ...nullable(number), description: 'lo facturado que cuenta ARCA para el tope (`valor` de CalcularFacturacion), en pesos; null si ARCA respondió 0, que no es confiable' },
        tope: { ...nullable(number), description: 'el tope de la categoría según ARCA (`valorTope`)' },
        periodo: { ...nullable(string), description: 'el período que cuenta ARCA, tal como lo escribe (`fechas`)' },
        debeRecategorizar: { ...nullable({ type: 'boolean' }), description: 'ARCA avisa que debe recategorizarse (`showAlertaRecategorizacion`)' },
        recategorizacion: object({ desde: nullable(date), hasta: nullable(date) }, 'la ventana de recategorización según ARCA'),
        leidoAt: { ...dateTime, description: 'cuándo se leyó; una lectura que falla deja la anterior' }
    }, 'el facturómetro de ARCA'), {
        facturado: 60912500.5, tope: 70113407.33, periodo: '01/03/2025 al 28/02/2026', debeRecategorizar: false,
        recategorizacion: { desde: '2026-07-15', hasta: '2026-08-05' }, leidoAt: '2026-03-14T06:12:40.000Z'
    }),
    NotApplicable: internals.example(object({
        ...identityFields,
        aplica: { type: 'boolean', const: false },
        motivo: { type: 'string', description: 'por qué no corresponde, en castellano' }
    }), { ...answerExamples.identity, aplica: false, motivo: 'No corresponde: según el sistema registral de ARCA el CUIT no es monotributista.' }),
    MonotributoSummary: internals.example(object({
        ...identityFields,
        categoria,
        tope: nullable(number),
        facturado: number,
        usoTope: { ...nullable(number), description: 'facturado / tope de su categoría; null si la categoría no se conoce (van al final)' },
        categoriaSegunFacturacion: categoria,
        fueraDelRegimen: { type: 'boolean' },
        usoTopeMaximo: ratio,
        compras: number,
        comprasUsoTopeMaximo: ratio,
        mesSuperaTope: nullable(month),
        riesgos: riskList
    }), {
        ...answerExamples.identity,
        categoria: 'H', tope: 70113407.33, facturado: 61244000, usoTope: 0.8735, categoriaSegunFacturacion: 'H', fueraDelRegimen: false,
        usoTopeMaximo: 0.5652, compras: 12500000, comprasUsoTopeMaximo: 0.1154, mesSuperaTope: '2026-05', riesgos: ['tope_cerca']
    }),
    MonotributoFilters: object({ riesgo: { type: ['array', 'null'], items: { type: 'string', enum: [...riesgos] } } }),
    AgendaItem: internals.example(object({
        fecha: date,
        ...identityFields,
        tipo: { type: 'string', enum: [...agendaKinds], description: '`sct_vencimiento`, `sct_deuda` y `ddjj` vienen del SCT; `monotributo_pago` (día 20 o el hábil siguiente) y `recategorizacion` (último día de la ventana) de las reglas del monotributo' },
        descripcion: { type: 'string', description: 'qué vence, en castellano' },
        importe: { ...nullable(number), description: 'lo que el SCT informa adeudado (saldo e intereses), cuando lo informa' }
    }), { fecha: '2026-11-20', ...answerExamples.identity, tipo: 'monotributo_pago', descripcion: 'Pago mensual del monotributo, período 11/2026.', importe: null }),
    DateRangeFilters: object({ desde: date, hasta: date }, 'los días consultados, ambos inclusive'),
    MonthRangeFilters: object({ desde: month, hasta: month }, 'los meses consultados, ambos inclusive'),
    IvaPosition: internals.example(object({
        ...identityFields,
        aplica: { type: 'boolean', const: true },
        desde: month,
        hasta: month,
        meses: {
            type: 'array',
            items: object({
                mes: month,
                debitoFiscal: { type: 'number', description: 'IVA de facturas y notas de débito A, B y M emitidas, menos sus notas de crédito, en pesos' },
                creditoFiscal: { type: 'number', description: 'IVA de facturas y notas de débito A y M recibidas, menos sus notas de crédito, en pesos (B y C no dan crédito)' },
                saldoTecnico: { type: 'number', description: 'débito fiscal − crédito fiscal' },
                comprobantesEmitidos: { type: 'integer', description: 'comprobantes emitidos contados' },
                comprobantesRecibidos: { type: 'integer', description: 'comprobantes recibidos contados' }
            })
        },
        totales: object({ debitoFiscal: number, creditoFiscal: number, saldoTecnico: number }),
        excluye: { type: 'array', items: string, description: 'lo que la posición no incluye' }
    }), {
        ...answerExamples.identity,
        aplica: true,
        desde: '2026-10',
        hasta: '2026-10',
        meses: [{ mes: '2026-10', debitoFiscal: 26460, creditoFiscal: 8925, saldoTecnico: 17535, comprobantesEmitidos: 5, comprobantesRecibidos: 4 }],
        totales: { debitoFiscal: 26460, creditoFiscal: 8925, saldoTecnico: 17535 },
        excluye: ['Percepciones y retenciones de IVA sufridas: Mis Comprobantes las mezcla en "Otros tributos" y no se pueden separar.']
    })
};

// docs/api.md, Writes: request bodies of the write side, generated from the contract's joi schemas
// (core/contract/client-body.ts), which the core applies to every body whichever front end
// sends it.
export const requestSchemas: Record<string, Schema> = {
    NewPhysicalPerson: jsonSchemaOf(newClientSchemas['persona-fisica']),
    NewLegalEntity: jsonSchemaOf(newClientSchemas['persona-juridica']),
    CuitPatch: jsonSchemaOf(clientPatchSchemas.unknown)
};

export const newCuitBody: Schema = {
    oneOf: [ref('NewPhysicalPerson'), ref('NewLegalEntity')],
    discriminator: {
        propertyName: 'tipo',
        mapping: { 'persona-fisica': '#/components/schemas/NewPhysicalPerson', 'persona-juridica': '#/components/schemas/NewLegalEntity' }
    }
};

const syncedAt = nullable(dateTime);
const page = (item: string) => ({ type: 'array', items: ref(item) });

// The 200/201 bodies, by name.
export const bodySchemas = {
    cuitList: object({ data: page('CuitListItem'), pagination: ref('Pagination'), filters: ref('CuitFilters') }),
    cuit: object({ data: ref('Cuit') }),
    issuedInvoices: object({ data: page('IssuedInvoice'), pagination: ref('Pagination'), filters: ref('InvoiceFilters'), syncedAt }),
    receivedInvoices: object({ data: page('ReceivedInvoice'), pagination: ref('Pagination'), filters: ref('InvoiceFilters'), syncedAt }),
    sct: object({ data: { oneOf: [ref('SctData'), { type: 'null' }] }, syncedAt }),
    ccma: object({ data: { oneOf: [ref('CcmaBalances'), { type: 'null' }] }, syncedAt }),
    ccmaMovements: object({ data: page('CcmaMovement'), pagination: ref('Pagination'), syncedAt }),
    notifications: object({ data: page('Notification'), pagination: ref('Pagination'), syncedAt }),
    tags: object({ data: page('Tag'), pagination: ref('Pagination') }),
    cuitHealth: object({ data: ref('CuitHealth') }),
    portfolioHealth: object({ data: page('CuitHealth'), pagination: ref('Pagination'), filters: ref('HealthFilters') }),
    monotributo: object({ data: { oneOf: [ref('MonotributoControl'), ref('NotApplicable')] }, syncedAt: { ...syncedAt, description: 'última sincronización de los comprobantes emitidos' } }),
    monotributoPortfolio: object({
        data: page('MonotributoSummary'),
        pagination: ref('Pagination'),
        filters: ref('MonotributoFilters'),
        ventana: ref('BillingWindow'),
        tabla: ref('CategoryTableChoice')
    }),
    agenda: object({ data: page('AgendaItem'), pagination: ref('Pagination'), filters: ref('DateRangeFilters') }),
    iva: object({
        data: { oneOf: [ref('IvaPosition'), ref('NotApplicable')] },
        filters: ref('MonthRangeFilters'),
        syncedAt: { ...syncedAt, description: 'la más antigua de las últimas sincronizaciones de comprobantes emitidos y recibidos' }
    })
} satisfies Record<string, Schema>;

export type BodySchemaName = keyof typeof bodySchemas;

// A schema with every `#/components/schemas/…` reference replaced by what it names, for
// readers that get one schema alone (an MCP tool's output schema has no components).
const inline = (schema: unknown): unknown => {

    if (Array.isArray(schema)) {
        return schema.map(inline);
    }

    if (!schema || typeof schema !== 'object') {
        return schema;
    }

    const ref = (schema as Schema).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
        const name = ref.slice('#/components/schemas/'.length);
        return inline(componentSchemas[name] ?? answerSchemas[name] ?? requestSchemas[name]);
    }

    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value)]));
};

export const selfContained = (schema: unknown): Schema => inline(schema) as Schema;
