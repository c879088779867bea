import type { Categoria } from './client.js';
import { categories } from './client.js';
import { invalid } from './errors.js';
import { addMonths, firstDayOf, monthOf, monthsBetween } from './months.js';
import type { CategoryTable } from './monotributo-tables.js';
import { isCalendarDate } from './time.js';

// The monotributo control (docs/answers.md): a monotributista's billing of the last 12 complete
// months against the caps of the table in force, the regime's own cap (K) for billing and for
// purchases, the next recategorization and when the cap would be passed. Pure functions over
// the months' totals, so REST, MCP, webhooks and the panel show one answer.

export type { CategoryTable } from './monotributo-tables.js';

// ARCA's voucher-type codes. Billing: class C invoices, debit notes and receipts, plain and FCE,
// minus their credit notes. Purchases: received A, B and C invoices, debit notes and receipts
// (plain and FCE) minus their credit notes.
export const billingTypes = {
    adds: ['11', '12', '15', '211', '212'],
    subtracts: ['13', '213']
} as const;

export const purchaseTypes = {
    adds: ['1', '2', '4', '6', '7', '9', '11', '12', '15', '201', '202', '206', '207', '211', '212'],
    subtracts: ['3', '8', '13', '203', '208', '213']
} as const;

export interface TypeRule {
    readonly adds: readonly string[];
    readonly subtracts: readonly string[];
}

// +1, -1 or 0 (not counted) for an invoice of type `tipo` under `rule`.
export const signOf = (rule: TypeRule, tipo: string): 1 | -1 | 0 => {

    const code = String(Number(tipo));
    return rule.adds.includes(code) ? 1 : rule.subtracts.includes(code) ? -1 : 0;
};

// One month of a CUIT, in pesos, credit notes already subtracted.
export interface MonotributoMonth {
    mes: string;
    facturado: number;
    compras: number;
}

// An invoice as the rules read it: its month, kind, type and amount in pesos (`importe`).
export interface InvoiceAmountRow {
    mes: string;
    kind: 'issued' | 'received';
    tipo: string;
    importe: number;
}

export const riesgos = ['tope_cerca', 'tope_superado', 'exclusion'] as const;

// The levels of a monotributista's billing against its caps whose rise `monotributo.tope`
// announces (docs/api.md, Webhooks), by number: 1 from 80 % of its category's cap (the
// portfolio's tope_cerca), 2 past it, 3 past K's (out of the regime); 0 below 80 % or with its
// category unknown. Worked out after a save of issued invoices (capStanding, capCrossing;
// checkCap in core/use-cases/sync/system-writes.ts writes the level and its event together).
const capLevels = {
    nearShare: 0.8,
    umbral: { 1: 'tope_cerca', 2: 'tope_superado', 3: 'fuera_del_regimen' }
} as const;
export type CapLevel = 0 | 1 | 2 | 3;
export type Riesgo = typeof riesgos[number];

export interface TableChoice {
    vigenciaDesde: string;
    fuente: string;
    // The date asked for is past the newest table's semester: the newest is used all the same.
    desactualizada: boolean;
    aviso: string | null;
}

export interface MonotributoControl {
    aplica: true;
    ventana: { desde: string; hasta: string };
    tabla: TableChoice;
    categoria: Categoria | null;
    tope: number | null;
    facturado: number;
    usoTope: number | null;
    categoriaSegunFacturacion: Categoria | null;
    fueraDelRegimen: boolean;
    topeMaximo: number;
    usoTopeMaximo: number;
    compras: {
        total: number;
        usoTopeMaximo: number;
        umbralBienes: number;
        umbralServicios: number;
        superaUmbralBienes: boolean;
        superaUmbralServicios: boolean;
    };
    meses: MonotributoMonth[];
    recategorizacion: Recategorization;
    proyeccion: { ritmoMensual: number; mesSuperaTope: string | null };
    riesgos: Riesgo[];
}

export interface MonotributoNotApplicable {
    aplica: false;
    motivo: string;
}

export interface Recategorization {
    desde: string;
    hasta: string;
    enCurso: boolean;
    // The 12 months it evaluates.
    evaluaDesde: string;
    evaluaHasta: string;
}

const monotributoMessages = {
    notMonotributista: 'No corresponde: según el sistema registral de ARCA el CUIT no es monotributista.',
    registryPending: 'No corresponde todavía: el sistema registral de ARCA aún no se sincronizó para este CUIT.',
    outdated: (newest: string, asked: string): string => `No hay una tabla de categorías cargada para ${asked}: se usa la más reciente, vigente desde ${newest}. Cargá la nueva cuando ARCA la publique.`,
    beforeOldest: (oldest: string): string => `La fecha es anterior a la primera tabla cargada: se usa la vigente desde ${oldest}.`,
    noTables: 'No hay tablas de categorías de monotributo cargadas.',
    table: {
        notObject: 'La tabla debe ser un objeto JSON con vigenciaDesde, fuente y topes.',
        vigenciaDesde: "El campo 'vigenciaDesde' debe ser una fecha válida con formato AAAA-MM-DD.",
        fuente: "El campo 'fuente' debe ser un texto de 1 a 500 caracteres que diga de dónde salen los montos.",
        topes: "El campo 'topes' debe tener exactamente las 11 categorías, de la A a la K.",
        positive: (letter: string): string => `El tope de la categoría ${letter} debe ser un importe positivo.`,
        increasing: (letter: string, previous: string): string => `El tope de la categoría ${letter} debe ser mayor que el de la ${previous}.`,
        unknownField: (name: string): string => `El campo '${name}' no está permitido.`
    }
} as const;

const internals = {
    // A table is ARCA's for one semester: past six months from the newest, it is stale.
    semesterMonths: 6,
    goodsShare: 0.8,
    servicesShare: 0.4,
    nearShare: capLevels.nearShare,
    cents: (value: number): number => Math.round(value * 100) / 100 || 0,
    ratio: (value: number, of: number): number => Math.round((value / of) * 10_000) / 10_000 || 0,
    maxFuente: 500
};

// What staff load (`arcasync monotributo cargar`): 11 categories A–K, positive caps, each above
// the one before. Every failure is named, in Spanish, in one message.
export const parseCategoryTable = (input: unknown): CategoryTable => {

    if (!input || typeof input !== 'object' || Array.isArray(input)) {
        throw invalid([monotributoMessages.table.notObject]);
    }

    const { vigenciaDesde, fuente, topes, ...rest } = input as Record<string, unknown>;
    const failures = Object.keys(rest).map(monotributoMessages.table.unknownField);
    if (typeof vigenciaDesde !== 'string' || !isCalendarDate(vigenciaDesde)) {
        failures.push(monotributoMessages.table.vigenciaDesde);
    }

    if (typeof fuente !== 'string' || !fuente.trim() || fuente.length > internals.maxFuente) {
        failures.push(monotributoMessages.table.fuente);
    }

    const caps = topes && typeof topes === 'object' && !Array.isArray(topes) ? topes as Record<string, unknown> : null;
    if (!caps || Object.keys(caps).length !== categories.length || !categories.every((letter) => Object.hasOwn(caps, letter))) {
        failures.push(monotributoMessages.table.topes);
    }
    else {
        categories.forEach((letter, index) => {

            const value = caps[letter];
            if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
                failures.push(monotributoMessages.table.positive(letter));
                return;
            }

            const previous = index ? caps[categories[index - 1]!] : undefined;
            if (typeof previous === 'number' && previous > 0 && value <= previous) {
                failures.push(monotributoMessages.table.increasing(letter, categories[index - 1]!));
            }
        });
    }

    if (failures.length) {
        throw invalid(failures);
    }

    return {
        vigenciaDesde: vigenciaDesde as string,
        fuente: (fuente as string).trim(),
        topes: Object.fromEntries(categories.map((letter) => [letter, caps![letter] as number])) as Record<Categoria, number>
    };
};

// The table in force on `day`: the newest whose vigenciaDesde is not after it. Past the newest
// table's semester the newest is used and the answer says so; before the oldest, the oldest.
export const tableInForce = (tables: readonly CategoryTable[], day: string): { table: CategoryTable; choice: TableChoice } => {

    const sorted = [...tables].sort((a, b) => a.vigenciaDesde.localeCompare(b.vigenciaDesde));
    if (!sorted.length) {
        throw new Error(monotributoMessages.noTables);
    }

    const table = sorted.filter((candidate) => candidate.vigenciaDesde <= day).at(-1);
    if (!table) {
        const oldest = sorted[0]!;
        const aviso = monotributoMessages.beforeOldest(oldest.vigenciaDesde);
        return { table: oldest, choice: { vigenciaDesde: oldest.vigenciaDesde, fuente: oldest.fuente, desactualizada: false, aviso } };
    }

    const newest = table === sorted.at(-1);
    const staleFrom = firstDayOf(addMonths(monthOf(table.vigenciaDesde), internals.semesterMonths));
    const desactualizada = newest && day >= staleFrom;
    return {
        table,
        choice: {
            vigenciaDesde: table.vigenciaDesde,
            fuente: table.fuente,
            desactualizada,
            aviso: desactualizada ? monotributoMessages.outdated(table.vigenciaDesde, day) : null
        }
    };
};

// The 12 complete calendar months before the month of `today` (a Buenos Aires day).
export const billingWindow = (today: string): { desde: string; hasta: string } => {

    const hasta = addMonths(monthOf(today), -1);
    return { desde: addMonths(hasta, -11), hasta };
};

// The lowest category whose cap covers `amount`; null above K (out of the regime).
const impliedCategory = (table: CategoryTable, amount: number): Categoria | null => categories.find((letter) => amount <= table.topes[letter]) ?? null;

// The semester's window (RG 5637/2025: from the 15th of January and July to the 5th of
// February and August) that ends on or after `today`, and the 12 months it evaluates.
export const nextRecategorization = (today: string): Recategorization => {

    const year = Number(today.slice(0, 4));
    const windows = [year, year + 1].flatMap((y) => [
        { desde: `${y}-01-15`, hasta: `${y}-02-05`, evaluaDesde: `${y - 1}-01`, evaluaHasta: `${y - 1}-12` },
        { desde: `${y}-07-15`, hasta: `${y}-08-05`, evaluaDesde: `${y - 1}-07`, evaluaHasta: `${y}-06` }
    ]);
    const window = windows.find((candidate) => candidate.hasta >= today)!;
    return { ...window, enCurso: window.desde <= today };
};

// Adds invoices up by month (credit notes subtracting): the rule the SQL aggregate applies too
// (adapters/knex/repositories/answers.ts builds its CASE from billingTypes and purchaseTypes).
export const monthlyTotals = (rows: readonly InvoiceAmountRow[]): MonotributoMonth[] => {

    const byMonth = new Map<string, MonotributoMonth>();
    for (const row of rows) {
        const month = byMonth.get(row.mes) ?? { mes: row.mes, facturado: 0, compras: 0 };
        if (row.kind === 'issued') {
            month.facturado += signOf(billingTypes, row.tipo) * row.importe;
        }
        else {
            month.compras += signOf(purchaseTypes, row.tipo) * row.importe;
        }

        byMonth.set(row.mes, month);
    }

    return [...byMonth.values()].sort((a, b) => a.mes.localeCompare(b.mes));
};

// The month the 12-month billing would first pass `cap`, billing from now on at `pace` a
// month: each month ahead drops the oldest month of the window and adds one at that pace.
// null when it would not within a year, or when it is already past.
const projectedMonth = (months: readonly MonotributoMonth[], cap: number | null, pace: number): string | null => {

    const total = months.reduce((sum, month) => sum + month.facturado, 0);
    if (cap === null || pace <= 0 || total > cap) {
        return null;
    }

    for (let ahead = 1; ahead <= months.length; ahead++) {
        const kept = months.slice(ahead).reduce((sum, month) => sum + month.facturado, 0);
        if (kept + pace * ahead > cap) {
            return addMonths(months.at(-1)!.mes, ahead);
        }
    }

    return null;
};

// The risks the portfolio filters by: near the category's cap (80 % or more, not past it),
// past it, or at risk of exclusion (billing above K, or purchases reaching the services'
// threshold, the lower one: the activity is not known).
const risksOf = (control: Omit<MonotributoControl, 'riesgos'>): Riesgo[] => {

    const risks: Riesgo[] = [];
    if (control.usoTope !== null && control.usoTope >= internals.nearShare && control.usoTope <= 1) {
        risks.push('tope_cerca');
    }

    if (control.usoTope !== null && control.usoTope > 1) {
        risks.push('tope_superado');
    }

    if (control.fueraDelRegimen || control.compras.superaUmbralServicios) {
        risks.push('exclusion');
    }

    return risks;
};

export interface MonotributoInput {
    // Today in Buenos Aires (YYYY-MM-DD).
    today: string;
    categoria: string | null;
    tables: readonly CategoryTable[];
    // The window's months that had invoices (others count as 0).
    months: readonly MonotributoMonth[];
}

// What every CUIT's control shares on a day: worked out once for a portfolio.
export interface MonotributoDay {
    today: string;
    ventana: { desde: string; hasta: string };
    months: string[];
    table: CategoryTable;
    choice: TableChoice;
    recategorizacion: Recategorization;
}

export const monotributoDay = (today: string, tables: readonly CategoryTable[]): MonotributoDay => {

    const ventana = billingWindow(today);
    const { table, choice } = tableInForce(tables, today);
    return { today, ventana, months: monthsBetween(ventana.desde, ventana.hasta), table, choice, recategorizacion: nextRecategorization(today) };
};

// One CUIT's control on `day`, from its category and its months that had invoices.
export const controlOn = (day: MonotributoDay, categoriaRegistral: string | null, months: readonly MonotributoMonth[]): MonotributoControl => {

    const { table } = day;
    const byMonth = new Map(months.map((month) => [month.mes, month]));
    const meses = day.months.map((mes) => ({
        mes,
        facturado: internals.cents(byMonth.get(mes)?.facturado ?? 0),
        compras: internals.cents(byMonth.get(mes)?.compras ?? 0)
    }));
    const facturado = internals.cents(meses.reduce((sum, month) => sum + month.facturado, 0));
    const compras = internals.cents(meses.reduce((sum, month) => sum + month.compras, 0));
    const categoria = (categories as readonly string[]).includes(categoriaRegistral ?? '') ? categoriaRegistral as Categoria : null;
    const tope = categoria ? table.topes[categoria] : null;
    const topeMaximo = table.topes.K;
    const ritmoMensual = internals.cents(meses.slice(-3).reduce((sum, month) => sum + month.facturado, 0) / 3);
    const umbralBienes = internals.cents(topeMaximo * internals.goodsShare);
    const umbralServicios = internals.cents(topeMaximo * internals.servicesShare);
    const categoriaSegunFacturacion = impliedCategory(table, facturado);
    const control = {
        aplica: true as const,
        ventana: day.ventana,
        tabla: day.choice,
        categoria,
        tope,
        facturado,
        usoTope: tope === null ? null : internals.ratio(facturado, tope),
        categoriaSegunFacturacion,
        fueraDelRegimen: categoriaSegunFacturacion === null,
        topeMaximo,
        usoTopeMaximo: internals.ratio(facturado, topeMaximo),
        compras: {
            total: compras,
            usoTopeMaximo: internals.ratio(compras, topeMaximo),
            umbralBienes,
            umbralServicios,
            superaUmbralBienes: compras >= umbralBienes,
            superaUmbralServicios: compras >= umbralServicios
        },
        meses,
        recategorizacion: day.recategorizacion,
        proyeccion: { ritmoMensual, mesSuperaTope: projectedMonth(meses, tope, ritmoMensual) }
    };

    return { ...control, riesgos: risksOf(control) };
};

export const monotributoControl = (input: MonotributoInput): MonotributoControl => controlOn(
    monotributoDay(input.today, input.tables),
    input.categoria,
    input.months
);

// Whether the control applies to a CUIT, by the registry (docs/answers.md).
export const notApplicable = (monotributista: boolean | null): MonotributoNotApplicable | null => {

    if (monotributista === true) {
        return null;
    }

    return { aplica: false, motivo: monotributista === null ? monotributoMessages.registryPending : monotributoMessages.notMonotributista };
};

// Where a monotributista's billing of the window (`facturado`, signed as billingTypes sign it)
// stands on `today` against the caps of the table in force: its level, its category's cap
// (null: the category is not one of A–K) and K's.
export interface CapStanding {
    level: CapLevel;
    facturado: number;
    tope: number | null;
    topeMaximo: number;
    ventana: { desde: string; hasta: string };
}

export const capStanding = (tables: readonly CategoryTable[], today: string, categoria: string | null, facturado: number): CapStanding => {

    const { table } = tableInForce(tables, today);
    const billed = internals.cents(facturado);
    const tope = (categories as readonly string[]).includes(categoria ?? '') ? table.topes[categoria as Categoria] : null;
    const topeMaximo = table.topes.K;
    const level: CapLevel = billed > topeMaximo ? 3 : tope === null ? 0 : billed > tope ? 2 : billed >= capLevels.nearShare * tope ? 1 : 0;
    return { level, facturado: billed, tope, topeMaximo, ventana: billingWindow(today) };
};

// `monotributo.tope`'s data when the level rose above the one stored (`before`; 0 when none
// was), naming the highest threshold crossed; null when it stayed or fell.
export interface CapCrossing {
    umbral: typeof capLevels.umbral[1 | 2 | 3];
    categoria: string | null;
    facturado: number;
    tope: number | null;
    usoTope: number | null;
    topeMaximo: number;
    usoTopeMaximo: number;
    ventana: { desde: string; hasta: string };
    listado: string;
}

export const capCrossing = (cuit: string, categoria: string | null, standing: CapStanding, before: CapLevel): CapCrossing | null => {

    if (standing.level === 0 || standing.level <= before) {
        return null;
    }

    const { facturado, tope, topeMaximo, ventana } = standing;
    return {
        umbral: capLevels.umbral[standing.level],
        categoria,
        facturado,
        tope,
        usoTope: tope === null ? null : internals.ratio(facturado, tope),
        topeMaximo,
        usoTopeMaximo: internals.ratio(facturado, topeMaximo),
        ventana,
        listado: `/v1/cuits/${cuit}/monotributo`
    };
};
