import type { Principal } from '../domain/access.js';
import { arcaDay } from '../domain/arca-day.js';
import { formatCuit } from '../domain/cuit.js';
import type { ArcaMeterReading } from '../domain/arca-meter.js';
import type { Cuit } from '../domain/cuit.js';
import type { CategoryTable, MonotributoControl, MonotributoNotApplicable, Riesgo, TableChoice } from '../domain/monotributo.js';
import { billingWindow, controlOn, monotributoControl, monotributoDay, notApplicable, parseCategoryTable } from '../domain/monotributo.js';
import type { Pagination } from '../domain/pagination.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import { toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';
import { portfolioLimits } from './portfolio.js';

// The monotributo control (docs/answers.md): one CUIT's (GET /v1/cuits/{cuit}/monotributo) and
// the portfolio's, riskiest first (GET /v1/monotributo); the category tables staff load
// (`arcasync monotributo`). The rules are core/domain/monotributo.ts's; here only what to read.

interface Identity {
    cuit: string;
    displayCuit: string;
    nombre: string;
}

// ARCA's own meter beside arcasync's figure (core/domain/arca-meter.ts), as last read by the
// daily sync; null when never read.
interface ArcaMeterView {
    facturado: number | null;
    tope: number | null;
    periodo: string | null;
    debeRecategorizar: boolean | null;
    recategorizacion: { desde: string | null; hasta: string | null };
    leidoAt: string;
}

type MonotributoView = Identity & ((MonotributoControl & { arca: ArcaMeterView | null }) | MonotributoNotApplicable);

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
    arca: (reading: ArcaMeterReading | null): ArcaMeterView | null => (reading ? {
        facturado: reading.facturado,
        tope: reading.tope,
        periodo: reading.periodo,
        debeRecategorizar: reading.debeRecategorizar,
        recategorizacion: { desde: reading.recategorizacionDesde, hasta: reading.recategorizacionHasta },
        leidoAt: new Date(reading.leidoAt).toISOString()
    } : null),

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
    const [tables, rows, meter] = await Promise.all([
        deps.answers.categoryTables(),
        deps.answers.monotributoMonths(principal, billingWindow(today), { clientId: client.id }),
        deps.answers.arcaMeter(client.id)
    ]);
    const control = monotributoControl({ today, categoria: client.categoria, tables, months: rows[0]?.months ?? [] });
    return { data: { ...identity, ...control, arca: internals.arca(meter) }, syncedAt };
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

// The portfolio view's figures for some CUITs the principal manages (a page of the panel's
// cartera): read for those CUITs only and all at once (the tables and one aggregate of their
// months), so a page costs one read, not one per row nor the whole portfolio. A CUIT that is
// not a monotributista per the registry, or that the principal does not manage, has none. Kept
// as la cartera keeps its page (portfolio.ts): under the account's data version and for at most
// 15 s, since an invoice sync raises only its client's version; turning back to a page then
// costs nothing more.
export const monotributoSummariesOf = async (
    deps: Pick<Ports, 'answers' | 'clock' | 'readCache'>,
    principal: Principal,
    cuits: readonly Cuit[]
): Promise<Map<string, MonotributoSummary>> => {

    if (cuits.length === 0) {
        return new Map();
    }

    const now = deps.clock.now().getTime();
    const viewer = principal.role === 'owner' ? 'owner' : `user-${principal.userId}`;
    const key = `monotributo-page:${principal.accountId}:${viewer}:${Math.floor(now / portfolioLimits.freshMs)}:${cuits.join(',')}`;
    const summaries = await cachedRead(deps.readCache, key, principal.dataVersion, async () => {

        const today = arcaDay(now);
        const [tables, rows] = await Promise.all([deps.answers.categoryTables(), deps.answers.monotributoMonths(principal, billingWindow(today), { cuits })]);
        const day = monotributoDay(today, tables);
        return rows.map(({ client, months }) => internals.summary(internals.identity(client), controlOn(day, client.categoria, months)));
    });
    return new Map(summaries.map((summary) => [summary.cuit, summary]));
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
