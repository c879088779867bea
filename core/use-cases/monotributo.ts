import type { Principal } from '../domain/access.js';
import { arcaDay } from '../domain/arca-day.js';
import { formatCuit } from '../domain/cuit.js';
import type { Cuit } from '../domain/cuit.js';
import type { CategoryTable, MonotributoControl, MonotributoNotApplicable, Riesgo, TableChoice } from '../domain/monotributo.js';
import { billingWindow, controlOn, monotributoControl, monotributoDay, notApplicable, parseCategoryTable } from '../domain/monotributo.js';
import type { Pagination } from '../domain/pagination.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import { toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';

// The monotributo control (docs/answers.md): one CUIT's (GET /v1/cuits/{cuit}/monotributo) and
// the portfolio's, riskiest first (GET /v1/monotributo); the category tables staff load
// (`arcasync monotributo`). The rules are core/domain/monotributo.ts's; here only what to read.

interface Identity {
    cuit: string;
    displayCuit: string;
    nombre: string;
}

type MonotributoView = Identity & (MonotributoControl | MonotributoNotApplicable);

export interface MonotributoResult {
    data: MonotributoView;
    // When the issued invoices were last synchronized: the billing is as of then.
    syncedAt: string | null;
}

// A row of the portfolio: the control without its months and windows (the same for every row).
export interface MonotributoSummary extends Identity {
    categoria: string | null;
    tope: number | null;
    facturado: number;
    usoTope: number | null;
    categoriaSegunFacturacion: string | null;
    fueraDelRegimen: boolean;
    usoTopeMaximo: number;
    compras: number;
    comprasUsoTopeMaximo: number;
    mesSuperaTope: string | null;
    riesgos: Riesgo[];
}

export interface MonotributoPortfolioResult {
    data: MonotributoSummary[];
    pagination: Pagination;
    filters: { riesgo: Riesgo[] | null };
    ventana: { desde: string; hasta: string };
    tabla: TableChoice;
}

export const monotributoParameters = ['cuit'] as const;
export const monotributoPortfolioParameters = ['limit', 'offset', 'riesgo'] as const;

const internals = {
    identity: (client: { cuit: string; displayName: string }): Identity => ({
        cuit: client.cuit,
        displayCuit: formatCuit(client.cuit as Cuit),
        nombre: client.displayName
    }),

    summary: (identity: Identity, control: MonotributoControl): MonotributoSummary => ({
        ...identity,
        categoria: control.categoria,
        tope: control.tope,
        facturado: control.facturado,
        usoTope: control.usoTope,
        categoriaSegunFacturacion: control.categoriaSegunFacturacion,
        fueraDelRegimen: control.fueraDelRegimen,
        usoTopeMaximo: control.usoTopeMaximo,
        compras: control.compras.total,
        comprasUsoTopeMaximo: control.compras.usoTopeMaximo,
        mesSuperaTope: control.proyeccion.mesSuperaTope,
        riesgos: control.riesgos
    }),

    // usoTope descending; a CUIT without a known category (no cap) after every one with it;
    // ties keep the list's order (nombre, then internal id): a total order for paging.
    byUse: (a: MonotributoSummary, b: MonotributoSummary): number => (b.usoTope ?? -1) - (a.usoTope ?? -1)
};

// The control of one CUIT the principal manages; `data` says when it does not apply.
export const getMonotributoControl = async (
    deps: Pick<Ports, 'clients' | 'answers' | 'syncStates' | 'readCache' | 'clock'>,
    principal: Principal,
    request: ReadRequest
): Promise<MonotributoResult> => {

    const { cuit } = parseReadRequest(request, monotributoParameters);
    const client = await findVisibleClient(deps, principal, cuit);
    const identity = internals.identity(client);
    const syncedAt = toIso(await clientSyncedAt(deps, client, 'issued_invoices'));
    const refusal = notApplicable(client.monotributista);
    if (refusal) {
        return { data: { ...identity, ...refusal }, syncedAt };
    }

    const today = arcaDay(deps.clock.now().getTime());
    const [tables, rows] = await Promise.all([deps.answers.categoryTables(), deps.answers.monotributoMonths(principal, billingWindow(today), client.id)]);
    const control = monotributoControl({ today, categoria: client.categoria, tables, months: rows[0]?.months ?? [] });
    return { data: { ...identity, ...control }, syncedAt };
};

// "Who is near the cap?": every monotributista of the principal from one aggregate (sums by
// client and month), riskiest first, filtered by risk (several: OR), paged. Not kept between
// requests: an invoice sync raises only its client's data version, not the account's.
export const listMonotributoPortfolio = async (
    deps: Pick<Ports, 'answers' | 'clock'>,
    principal: Principal,
    request: ReadRequest
): Promise<MonotributoPortfolioResult> => {

    const input = parseReadRequest(request, monotributoPortfolioParameters);
    const wanted = input.riesgo?.length ? [...new Set(input.riesgo)] : null;
    const page = { limit: input.limit, offset: input.offset };
    const day = monotributoDay(arcaDay(deps.clock.now().getTime()), await deps.answers.categoryTables());
    const rows = await deps.answers.monotributoMonths(principal, day.ventana);
    const all = rows.map(({ client, months }) => internals.summary(internals.identity(client), controlOn(day, client.categoria, months))).sort(internals.byUse);

    const matching = wanted ? all.filter((row) => row.riesgos.some((risk) => wanted.includes(risk))) : all;
    return {
        data: matching.slice(page.offset, page.offset + page.limit),
        pagination: { ...page, total: matching.length },
        filters: { riesgo: wanted },
        ventana: day.ventana,
        tabla: day.choice
    };
};

// Staff: the tables loaded, by vigenciaDesde.
export const listCategoryTables = (deps: Pick<Ports, 'answers'>): Promise<CategoryTable[]> => deps.answers.categoryTables();

// Staff: a table ARCA published, validated (parseCategoryTable's Spanish refusals), then stored;
// one for a vigenciaDesde already loaded replaces it.
export const loadCategoryTable = async (deps: Pick<Ports, 'answers' | 'clock'>, input: unknown): Promise<{ table: CategoryTable; outcome: 'created' | 'replaced' }> => {

    const table = parseCategoryTable(input);
    const outcome = await deps.answers.saveCategoryTable(table, deps.clock.now().getTime());
    return { table, outcome };
};

// The controls of some CUITs of the principal (a page of `listar_cuits`), by CUIT: only the
// monotributistas among them appear. One aggregate, the portfolio's, then the page's rows.
export const monotributoSummariesOf = async (
    deps: Pick<Ports, 'answers' | 'clock'>,
    principal: Principal,
    cuits: readonly string[]
): Promise<MonotributoSummary[]> => {

    if (!cuits.length) {
        return [];
    }

    const day = monotributoDay(arcaDay(deps.clock.now().getTime()), await deps.answers.categoryTables());
    const rows = await deps.answers.monotributoMonths(principal, day.ventana);
    return rows
        .filter(({ client }) => cuits.includes(client.cuit))
        .map(({ client, months }) => internals.summary(internals.identity(client), controlOn(day, client.categoria, months)));
};
