import { addDays, addMonths, monthOf, monthsBetween, weekdayOf } from './months.js';
import { nextRecategorization } from './monotributo.js';

// The portfolio's agenda (docs/answers.md, Agenda): what falls due between two days for every
// CUIT a user may see. The SCT's own due dates, debts and sworn returns as synchronized; the
// monotributo's monthly payment on the 20th, moved to the next business day; the semester's
// recategorization deadline. Pure: the holidays come as a function (core/ports/holidays.ts).

export const agendaKinds = ['sct_vencimiento', 'sct_deuda', 'ddjj', 'monotributo_pago', 'recategorizacion'] as const;
type AgendaKind = typeof agendaKinds[number];

export interface AgendaItem {
    fecha: string;
    cuit: string;
    displayCuit: string;
    nombre: string;
    tipo: AgendaKind;
    descripcion: string;
    // What SCT says is owed (saldo and interests), where it gives one.
    importe: number | null;
}

export interface AgendaClient {
    id: number;
    cuit: string;
    displayCuit: string;
    nombre: string;
    monotributista: boolean | null;
}

// One SCT row of a client whose date (a Buenos Aires day) falls in the range.
export interface SctAgendaRow {
    clientId: number;
    kind: 'vencimiento' | 'deuda' | 'ddjj';
    fecha: string;
    impuesto: string;
    concepto: string;
    periodo: string;
    detalle: string | null;
    importe: number | null;
}

export type IsHoliday = (day: string) => boolean;

// The longest range an agenda answers, in days (both ends included).
export const maxAgendaDays = 366;

const internals = {
    paymentDay: 20,
    cents: (value: number): number => Math.round(value * 100) / 100 || 0,
    // SCT's periodo is YYYYMM; "00" months (annual taxes) read as the year alone.
    period: (periodo: string): string => (/^\d{6}$/.test(periodo) ? (periodo.endsWith('00') ? periodo.slice(0, 4) : `${periodo.slice(4)}/${periodo.slice(0, 4)}`) : periodo),
    what: (row: SctAgendaRow): string => [row.impuesto, row.concepto].map((text) => text.trim()).filter(Boolean).join(' – '),
    month: (mes: string): string => `${mes.slice(5)}/${mes.slice(0, 4)}`,
    order: new Map(agendaKinds.map((kind, index) => [kind, index])),

    describe(row: SctAgendaRow): string {

        const period = internals.period(row.periodo);
        if (row.kind === 'ddjj') {
            return `Declaración jurada de ${internals.what(row)}, período ${period}.`;
        }

        if (row.kind === 'deuda') {
            return `Vence la deuda de ${internals.what(row)}, período ${period}.`;
        }

        const detail = row.detalle?.trim();
        return `Vencimiento de ${internals.what(row)}, período ${period}${detail ? `: ${detail}` : ''}.`;
    }
};

const isBusinessDay = (day: string, isHoliday: IsHoliday): boolean => {

    const weekday = weekdayOf(day);
    return weekday !== 0 && weekday !== 6 && !isHoliday(day);
};

// The first business day on or after `day`.
const nextBusinessDay = (day: string, isHoliday: IsHoliday): string => {

    let candidate = day;
    while (!isBusinessDay(candidate, isHoliday)) {
        candidate = addDays(candidate, 1);
    }

    return candidate;
};

// The monotributo's monthly payment of `mes` (YYYY-MM): the 20th, or the next business day.
export const monotributoPaymentDay = (mes: string, isHoliday: IsHoliday): string => nextBusinessDay(`${mes}-${internals.paymentDay}`, isHoliday);

// The recategorization deadlines (the window's last day) between two days.
export const recategorizationDeadlines = (desde: string, hasta: string): { fecha: string; evaluaDesde: string; evaluaHasta: string }[] => {

    const deadlines = [];
    for (let day = desde; day <= hasta;) {
        const window = nextRecategorization(day);
        if (window.hasta > hasta) {
            break;
        }

        deadlines.push({ fecha: window.hasta, evaluaDesde: window.evaluaDesde, evaluaHasta: window.evaluaHasta });
        day = addDays(window.hasta, 1);
    }

    return deadlines;
};

// Every item between `desde` and `hasta` (both included), by date, then CUIT, then kind.
export const agendaItems = (input: {
    desde: string;
    hasta: string;
    clients: readonly AgendaClient[];
    sct: readonly SctAgendaRow[];
    isHoliday: IsHoliday;
}): AgendaItem[] => {

    const { desde, hasta } = input;
    const clients = new Map(input.clients.map((client) => [client.id, client]));
    const items: AgendaItem[] = [];
    const of = (client: AgendaClient) => ({ cuit: client.cuit, displayCuit: client.displayCuit, nombre: client.nombre });
    for (const row of input.sct) {
        const client = clients.get(row.clientId);
        if (client && row.fecha >= desde && row.fecha <= hasta) {
            const tipo: AgendaKind = row.kind === 'vencimiento' ? 'sct_vencimiento' : row.kind === 'deuda' ? 'sct_deuda' : 'ddjj';
            const importe = row.importe === null ? null : internals.cents(row.importe);
            items.push({ fecha: row.fecha, ...of(client), tipo, descripcion: internals.describe(row), importe });
        }
    }

    // A payment moved past the month's end may fall in the range from the month before.
    const payments = monthsBetween(addMonths(monthOf(desde), -1), monthOf(hasta))
        .map((mes) => ({ mes, fecha: monotributoPaymentDay(mes, input.isHoliday) }))
        .filter((payment) => payment.fecha >= desde && payment.fecha <= hasta);
    const deadlines = recategorizationDeadlines(desde, hasta);
    for (const client of input.clients) {
        if (client.monotributista !== true) {
            continue;
        }

        for (const payment of payments) {
            items.push({
                fecha: payment.fecha,
                ...of(client),
                tipo: 'monotributo_pago',
                descripcion: `Pago mensual del monotributo, período ${internals.month(payment.mes)}.`,
                importe: null
            });
        }

        for (const deadline of deadlines) {
            items.push({
                fecha: deadline.fecha,
                ...of(client),
                tipo: 'recategorizacion',
                descripcion: `Último día para recategorizarse en el monotributo (evalúa ${internals.month(deadline.evaluaDesde)} a ${internals.month(deadline.evaluaHasta)}).`,
                importe: null
            });
        }
    }

    return items.sort((a, b) => a.fecha.localeCompare(b.fecha) || a.cuit.localeCompare(b.cuit)
        || internals.order.get(a.tipo)! - internals.order.get(b.tipo)! || a.descripcion.localeCompare(b.descripcion));
};
