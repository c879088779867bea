import type { Categoria } from '../../../core/domain/client.js';
import { categories } from '../../../core/domain/client.js';
import type { CcmaBalances, CcmaMovement } from '../../../core/domain/ccma.js';
import type { InvoiceKind, InvoiceRecord } from '../../../core/domain/invoice.js';
import { pesosAmount } from '../../../core/domain/invoice.js';
import type { DateRange } from '../../../core/domain/period.js';
import type { SctData } from '../../../core/domain/sct.js';
import { dateToIso } from '../../../core/domain/time.js';
import type { AuthorityNotification } from '../../../core/ports/authority-client.js';
import type { RegistryClassification } from '../../../core/ports/repositories.js';
import { publishedTables } from '../../../core/domain/monotributo-tables.js';
import { billingTypes, billingWindow, signOf, tableInForce } from '../../../core/domain/monotributo.js';
import { addDays, firstDayOf, lastDayOf } from '../../../core/domain/months.js';
import { seededRandom, seedOf } from './random.js';

// What the simulated authority holds for a CUIT, in the domain's own terms: a pure function of
// the CUIT's digits and the reference day, so every run (and every test) sees the same data.
// The server renders it in the authority's formats; `expected()` hands it to tests as is.

export interface SimulatedTaxpayer {
    cuit: string;
    entity: boolean;                   // legal entity (CUIT 30/33/34): logs in only through a representative
    registry: RegistryClassification;
    issued: InvoiceRecord[];           // by date, then number
    received: InvoiceRecord[];
    sct: SctData & { establishments: boolean };   // establishments: the exports carry that column
    ccma: { balances: CcmaBalances; movements: CcmaMovement[] };
    notifications: AuthorityNotification[];       // as listed before anyone opened them
}

export interface DataOptions {
    today: string;                     // YYYY-MM-DD: the last day with data
    months: number;                    // invoices cover this many months back from today
    issuedPerMonth: [number, number];  // inclusive bounds
    receivedPerMonth: [number, number];
}

export const defaultDataOptions = (today: string): DataOptions => ({ today, months: 14, issuedPerMonth: [4, 12], receivedPerMonth: [3, 9] });

type Random = () => number;

// CUITs made for the answers (issue 41, docs/answers.md), the same on every run: monotributistas
// whose issued invoices of the last 12 complete months come to a share of their category's cap
// in the table in force on `today` (near it, past it, past K's), and a Responsable Inscripto
// whose vouchers both ways include A, B, M and A credit notes. Every other CUIT's data is as before.
export const answerTaxpayers = {
    near: { cuit: '20410000017', categoria: 'H', share: 0.87 },
    atCap: { cuit: '20410000025', categoria: 'D', share: 1 },
    over: { cuit: '27410000038', categoria: 'C', share: 1.2 },
    beyondK: { cuit: '20410000041', categoria: 'K', share: 1.1 },
    ri: { cuit: '30710000057' }
} as const;

const monotributoProfiles = new Map<string, { categoria: Categoria; share: number }>(
    [answerTaxpayers.near, answerTaxpayers.atCap, answerTaxpayers.over, answerTaxpayers.beyondK].map((profile) => [profile.cuit, profile])
);

const internals = {
    dayMs: 86_400_000,

    random: (seed: number): Random => seededRandom(seed).next,

    int(random: Random, min: number, max: number): number {

        return min + Math.floor(random() * (max - min + 1));
    },

    pick<T>(random: Random, list: readonly T[]): T {

        return list[Math.floor(random() * list.length)]!;
    },

    cents(value: number): number {

        return Math.round(value * 100) / 100;
    },

    checkDigit(first10: string): string {

        const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
        const sum = weights.reduce((total, weight, index) => total + weight * Number(first10[index]), 0);
        const digit = 11 - (sum % 11);
        return String(digit === 11 ? 0 : digit === 10 ? 9 : digit);
    },

    cuit(random: Random, prefix: string): string {

        const body = `${prefix}${String(internals.int(random, 10_000_000, 99_999_999))}`;
        return `${body}${internals.checkDigit(body)}`;
    },

    date(ms: number): string {

        return new Date(ms).toISOString().slice(0, 10);
    },

    suppliers: [
        'DISTRIBUIDORA NORTE SA',
        'TELECOM ARGENTINA SA',
        'EDENOR SA',
        'LIBRERIA EL ATENEO SRL',
        'ESTACION DE SERVICIO RUTA 8 SA',
        'CONSULTORA PAMPA SRL',
        'MAYORISTA DEL SUR SA',
        'GOMEZ HNOS SH',
        'FARMACIA CENTRAL SCS',
        'SOFTWARE ANDINO SAS'
    ],
    customers: [
        'ALVAREZ, JUAN CARLOS',
        'ESTUDIO CONTABLE RIVAS',
        'MUNICIPALIDAD DE TANDIL',
        'PÉREZ Y ASOCIADOS SRL',
        'ÑANDÚ EVENTOS SA',
        'COOPERATIVA AGRICOLA LIMITADA',
        'BERTOLINI, MARÍA LAURA'
    ],
    subjects: [
        'Comunicación de vencimientos',
        'Intimación de pago',
        'Recategorización de oficio',
        'Inconsistencias en declaraciones juradas',
        'Novedades del domicilio fiscal electrónico',
        'Requerimiento de información'
    ],
    monthlyFee: {
        A: 26_927,
        B: 30_133,
        C: 34_261,
        D: 41_049,
        E: 50_066,
        F: 57_876,
        G: 65_587,
        H: 100_860,
        I: 132_483,
        J: 154_709,
        K: 211_209
    } as Record<string, number>,

    registry(random: Random, entity: boolean): RegistryClassification {

        if (entity) {
            return { monotributista: false, autonomo: false, categoria: null };
        }

        const draw = random();
        if (draw < 0.55) {
            return { monotributista: true, autonomo: false, categoria: internals.pick(random, categories) };
        }

        return draw < 0.85 ? { monotributista: false, autonomo: true, categoria: null } : { monotributista: false, autonomo: false, categoria: null };
    },

    invoices(random: Random, kind: InvoiceKind, registry: RegistryClassification, options: DataOptions): InvoiceRecord[] {

        const end = Date.parse(`${options.today}T00:00:00Z`);
        const today = new Date(end);
        const parties = (kind === 'received' ? internals.suppliers : internals.customers).map((name, index) => ({
            tipoDocumento: kind === 'issued' && index === 0 ? '96' : '80',
            numeroDocumento: kind === 'issued' && index === 0 ? String(internals.int(random, 20_000_000, 45_000_000)) : internals.cuit(
                random,
                kind === 'received' ? '30' : internals.pick(random, ['20', '27', '30'])
            ),
            nombre: name
        }));
        const finalConsumer = { tipoDocumento: '99', numeroDocumento: '0', nombre: null };
        const [min, max] = kind === 'issued' ? options.issuedPerMonth : options.receivedPerMonth;
        const puntoVenta = String(internals.int(random, 1, 12));
        const records: InvoiceRecord[] = [];
        let number = internals.int(random, 1, 900);
        for (let back = options.months - 1; back >= 0; --back) {
            const year = today.getUTCFullYear();
            const month = today.getUTCMonth() - back;
            const first = Date.UTC(year, month, 1);
            const last = Math.min(end, Date.UTC(year, month + 1, 0));
            const count = internals.int(random, min, max);
            const days = Array.from({ length: count }, () => internals.int(random, 0, Math.round((last - first) / internals.dayMs))).sort((a, b) => a - b);
            for (const day of days) {
                const fecha = internals.date(first + day * internals.dayMs);
                const issuerIsMonotributo = kind === 'issued' ? registry.monotributista === true : random() < 0.2;
                const creditNote = random() < 0.06;
                const letter = issuerIsMonotributo ? 'C' : kind === 'issued' ? (random() < 0.5 ? 'A' : 'B') : (random() < 0.7 ? 'A' : 'B');
                const tipo = { A: creditNote ? '3' : '1', B: creditNote ? '8' : '6', C: creditNote ? '13' : '11' }[letter];
                const dollars = random() < 0.08;
                const tipoCambio = dollars ? internals.cents(900 + (options.months - back) * 20 + random() * 50) : 1;
                const total = dollars ? internals.cents(50 + random() * 4_000) : internals.cents(800 + random() * 450_000);
                let amounts = {
                    impNetoGravado: null as number | null,
                    impNetoNoGravado: null as number | null,
                    impOpExentas: null as number | null,
                    otrosTributos: null as number | null,
                    iva: null as number | null
                };
                let importeOriginal = total;
                if (letter === 'A') {
                    const net = internals.cents(total / 1.21);
                    const iva = internals.cents(net * 0.21);
                    const otros = random() < 0.2 ? internals.cents(net * 0.03) : 0;
                    importeOriginal = internals.cents(net + iva + otros);
                    amounts = { impNetoGravado: net, impNetoNoGravado: 0, impOpExentas: 0, otrosTributos: otros, iva };
                }

                const counterpart = kind === 'issued' && letter !== 'A' && random() < 0.4 ? finalConsumer : internals.pick(random, parties);
                number += 1;
                records.push({
                    fecha,
                    tipo: tipo!,
                    puntoVenta: kind === 'issued' ? puntoVenta : String(internals.int(random, 1, 30)),
                    numeroDesde: String(number),
                    numeroHasta: String(number),
                    codigoAutorizacion: String(internals.int(random, 10_000_000, 99_999_999)) + String(internals.int(random, 100_000, 999_999)),
                    counterpart: { ...counterpart },
                    ...amounts,
                    tipoCambio,
                    importeOriginal,
                    monedaOriginal: dollars ? 'DOL' : 'PES',
                    importe: pesosAmount(importeOriginal, tipoCambio)
                });
            }
        }

        return records;
    },

    sct(random: Random, registry: RegistryClassification, entity: boolean, options: DataOptions): SimulatedTaxpayer['sct'] {

        const today = Date.parse(`${options.today}T00:00:00Z`);
        const taxes = entity
            ? ['30 - IVA', '11 - GANANCIAS SOCIEDADES', '301 - EMPLEADOR-APORTES SEG. SOCIAL']
            : registry.monotributista ? ['20 - MONOTRIBUTO IMPOSITIVO', '21 - MONOTRIBUTO PREVISIONAL'] : [
                '30 - IVA',
                '10 - GANANCIAS PERSONAS HUMANAS',
                '308 - APORTES SEG.SOCIAL AUTONOMOS'
            ];
        const establishments = entity && random() < 0.5;
        const establishment = () => (establishments ? internals.pick(random, ['0 - CASA CENTRAL', '1 - SUCURSAL ROSARIO']) : '');
        const period = (monthsBack: number) => {

            const date = new Date(today);
            date.setUTCDate(1);
            date.setUTCMonth(date.getUTCMonth() - monthsBack);
            return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
        };

        const deuda = Array.from({ length: internals.int(random, 0, 4) }, (_, index) => {

            const monthsBack = internals.int(random, 2, 18);
            const noDueDate = random() < 0.15;
            return {
                establecimiento: establishment(),
                impuesto: internals.pick(random, taxes),
                concepto: 'Obligación mensual/anual',
                subconcepto: index % 2 ? 'Intereses resarcitorios' : 'Capital',
                periodo: period(monthsBack),
                antCuota: String(internals.int(random, 0, 12)),
                vencimiento: noDueDate ? null : dateToIso(internals.date(today - (monthsBack * 30 - 12) * internals.dayMs)),
                saldo: internals.cents(500 + random() * 250_000),
                intResarcitorios: internals.cents(random() * 20_000),
                intPunitorios: random() < 0.3 ? internals.cents(random() * 5_000) : 0
            };
        });
        // Due dates name the tax by its description only (descImpuesto); missing returns by
        // code and description (impuesto 30, descImpuesto IVA), read back as "30 - IVA".
        const vencimientos = Array.from({ length: internals.int(random, 1, 5) }, (_, index) => ({
            impuesto: internals.pick(random, taxes).split(' - ')[1]!,
            concepto: 'Obligación mensual/anual',
            subconcepto: '',
            periodo: period(-index),
            antCuota: '0',
            vencimiento: dateToIso(internals.date(today + internals.int(random, 3, 20) * internals.dayMs + index * 30 * internals.dayMs)),
            detalle: internals.pick(random, ['Presentación de declaración jurada', 'Pago', 'Presentación y pago'])
        }));
        const year = new Date(today).getUTCFullYear();
        const ddjj = Array.from({ length: internals.int(random, 2, 6) }, (_, index) => ({
            establecimiento: establishment(),
            impuesto: internals.pick(random, taxes),
            concepto: '984 - Declaración jurada anual',
            subconcepto: '',
            periodo: `${year - 1 - index}00`,
            antCuota: '',
            vencimiento: dateToIso(internals.date(today - (index * 30 + 10) * internals.dayMs))
        }));
        return { deuda, vencimientos, ddjj, establishments };
    },

    ccma(random: Random, registry: RegistryClassification, options: DataOptions): SimulatedTaxpayer['ccma'] {

        if (!registry.monotributista && !registry.autonomo) {
            return { balances: { saldoDeudor: null, saldoAcreedor: null }, movements: [] };
        }

        const today = new Date(Date.parse(`${options.today}T00:00:00Z`));
        const fee = registry.monotributista ? internals.monthlyFee[registry.categoria ?? 'A']! : 38_000;
        // The sábana shows the tax and the concept as codes (período, código, subcódigo, …).
        const impuesto = registry.monotributista ? '020' : '308';
        const movements: CcmaMovement[] = [];
        let saldo = 0;
        const periods = internals.int(random, 6, 12);
        for (let back = periods; back >= 1; --back) {
            const year = today.getUTCFullYear();
            const month = today.getUTCMonth() - back;
            const periodDate = new Date(Date.UTC(year, month, 1));
            const periodo = `${String(periodDate.getUTCMonth() + 1).padStart(2, '0')}/${periodDate.getUTCFullYear()}`;
            const dueMs = Date.UTC(year, month + 1, 20);
            const entries: { descripcion: string; concepto: string; subconcepto: string; at: number; debe: number | null; haber: number | null }[] = [
                {
                    concepto: 'Obligación mensual',
                    subconcepto: '019',
                    descripcion: 'Determinación de la obligación mensual',
                    at: Date.UTC(year, month + 1, 1),
                    debe: fee,
                    haber: null
                }
            ];
            if (random() < 0.8) {
                entries.push({
                    concepto: 'Pago',
                    subconcepto: '019',
                    descripcion: internals.pick(random, ['Pago VEP', 'Débito automático', 'Pago Mis Facilidades']),
                    at: dueMs - internals.int(random, 0, 10) * internals.dayMs,
                    debe: null,
                    haber: random() < 0.1 ? internals.cents(fee * 1.5) : fee
                });
            }
            else {
                entries.push({
                    concepto: 'Intereses',
                    subconcepto: '051',
                    descripcion: 'Intereses resarcitorios devengados',
                    at: dueMs + 15 * internals.dayMs,
                    debe: internals.cents(fee * 0.04),
                    haber: null
                });
            }

            for (const entry of entries) {
                saldo = internals.cents(saldo + (entry.haber ?? 0) - (entry.debe ?? 0));
                movements.push({
                    orden: movements.length + 1,
                    periodo,
                    impuesto,
                    concepto: entry.concepto,
                    subconcepto: entry.subconcepto,
                    descripcion: entry.descripcion,
                    fechaMovimiento: dateToIso(internals.date(Math.min(entry.at, today.getTime()))),
                    debe: entry.debe,
                    haber: entry.haber,
                    saldo
                });
            }
        }

        return { balances: { saldoDeudor: saldo < 0 ? -saldo : 0, saldoAcreedor: saldo > 0 ? saldo : 0 }, movements };
    },

    notifications(random: Random, cuit: string, options: DataOptions): AuthorityNotification[] {

        const today = Date.parse(`${options.today}T00:00:00Z`);
        const count = internals.int(random, 3, 12);
        const base = seedOf(cuit) % 9_000_000 * 100;
        const list = Array.from({ length: count }, (_, index) => {

            const published = today - internals.int(random, 0, 360) * internals.dayMs + internals.int(random, 8, 18) * 3_600_000;
            const notified = random() < 0.8 ? published + internals.int(random, 0, 5) * internals.dayMs : null;
            return {
                arcaId: String(base + index + 1),
                tipo: internals.pick(random, ['Comunicación', 'Intimación', 'Notificación']),
                asunto: internals.pick(random, internals.subjects),
                organismo: internals.pick(random, ['ARCA', 'DGI', 'DGA']),
                fechaRecepcion: new Date(published).toISOString(),
                fechaNotificacion: notified === null ? null : new Date(notified).toISOString(),
                readAtAuthority: random() < 0.55
            };
        });
        return list.sort((a, b) => b.fechaRecepcion.localeCompare(a.fechaRecepcion));
    },

    // Every issued invoice scaled so that the window's billing is `share` of the category's cap
    // (credit notes keep subtracting); the last cent of rounding lands on the window's last one.
    // The window's days before a first sync's backfill (the 12 months up to today) hold none, so
    // that what the sync stores is the whole window's billing.
    scaledToCap(all: InvoiceRecord[], profile: { categoria: Categoria; share: number }, today: string): InvoiceRecord[] {

        const window = billingWindow(today);
        const backfillFrom = addDays(`${Number(today.slice(0, 4)) - 1}${today.slice(4)}`, 1);
        const issued = all.filter((invoice) => invoice.fecha < firstDayOf(window.desde) || invoice.fecha >= backfillFrom);
        const inWindow = (invoice: InvoiceRecord) => invoice.fecha >= firstDayOf(window.desde) && invoice.fecha <= lastDayOf(window.hasta);
        const billed = (list: readonly InvoiceRecord[]) => list.filter(inWindow)
            .reduce((sum, invoice) => sum + signOf(billingTypes, invoice.tipo) * invoice.importe, 0);
        const target = internals.cents(tableInForce(publishedTables, today).table.topes[profile.categoria] * profile.share);
        const factor = target / billed(issued);
        const scaled = issued.map((invoice) => {

            const importeOriginal = internals.cents(invoice.importeOriginal * factor);
            return { ...invoice, importeOriginal, importe: pesosAmount(importeOriginal, invoice.tipoCambio) };
        });
        const last = scaled.filter((invoice) => inWindow(invoice) && invoice.tipo === '11' && invoice.monedaOriginal === 'PES').at(-1)!;
        const rest = internals.cents(target - billed(scaled));
        last.importeOriginal = internals.cents(last.importeOriginal + rest);
        last.importe = last.importeOriginal;
        return scaled;
    },

    // A Responsable Inscripto's A vouchers, some of them made M (51) and A credit notes (3),
    // deterministically: every fifth A from the third an M, from the fifth a credit note.
    withMAndCreditNotes: (invoices: InvoiceRecord[]): InvoiceRecord[] => {

        let seen = 0;
        return invoices.map((invoice) => {

            if (invoice.tipo !== '1') {
                return invoice;
            }

            seen++;
            return seen % 5 === 3 ? { ...invoice, tipo: '51' } : seen % 5 === 0 ? { ...invoice, tipo: '3' } : invoice;
        });
    }
};

export const isEntityCuit = (cuit: string): boolean => /^3[034]/.test(cuit);

export const generateTaxpayer = (cuit: string, options: DataOptions): SimulatedTaxpayer => {

    const random = internals.random(seedOf(`${cuit}|${options.today}|${options.months}`));
    const entity = isEntityCuit(cuit);
    const drawn = internals.registry(random, entity);
    const profile = monotributoProfiles.get(cuit);
    const ri = cuit === answerTaxpayers.ri.cuit;
    const registry: RegistryClassification = profile ? { monotributista: true, autonomo: false, categoria: profile.categoria } : drawn;
    const generated = internals.invoices(internals.random(seedOf(`${cuit}|E|${options.today}`)), 'issued', registry, options);
    const issued = profile ? internals.scaledToCap(generated, profile, options.today) : ri ? internals.withMAndCreditNotes(generated) : generated;
    const bought = internals.invoices(internals.random(seedOf(`${cuit}|R|${options.today}`)), 'received', registry, options);
    const received = ri ? internals.withMAndCreditNotes(bought) : bought;
    return {
        cuit,
        entity,
        registry,
        issued,
        received,
        sct: internals.sct(random, registry, entity, options),
        ccma: internals.ccma(random, registry, options),
        notifications: internals.notifications(random, cuit, options)
    };
};

export const invoicesIn = (invoices: readonly InvoiceRecord[], range: DateRange): InvoiceRecord[] => {

    return invoices.filter((invoice) => invoice.fecha >= range.fromDate && invoice.fecha <= range.toDate);
};
