import type { Principal } from '../domain/access.js';
import { arcaDay } from '../domain/arca-day.js';
import type { ClientFilters, ClientListItem, ClientQuery, ClientSearch } from '../domain/client.js';
import { sortKey, toClientListItem } from '../domain/client.js';
import { invalid } from '../domain/errors.js';
import type { HealthState } from '../domain/health.js';
import { healthStates, needsAttention } from '../domain/health.js';
import type { Pagination } from '../domain/pagination.js';
import type { ReadRequest } from '../domain/read-parameters.js';
import { parseReadRequest } from '../domain/read-parameters.js';
import type { PortfolioEntry, Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import type { CuitHealthView } from './cuit-health.js';
import { healthOfClients } from './cuit-health.js';
import { listCuitsParameters } from './list-cuits.js';

// The panel's portfolio (servers/panel, docs/panel.md): the CUIT list's filters and the health
// list's (GET /v1/cuits, GET /v1/estados, with their parameters and messages), plus a search
// by name or CUIT that only the panel offers; a page of CUITs with their health, and counts
// over the whole filtered portfolio: synchronized ("Clientes") or not yet ("Otros"), and by
// semáforo light.
//
// Which CUITs a filter admits and the counts come from one query over the account that
// computes each CUIT's state in the database (HealthRepository.portfolio). That answer, and
// each page read from it (rows and health), is kept in the read cache for the data version
// and at most `freshMs`: a failed sync attempt changes a state without changing the data
// version, so the portfolio may show a state that old (a client's own page reads it live).
// Any data change shows on the next request. So turning pages and filtering the same
// portfolio costs what a cached GET /v1/cuits does.

export type Semaphore = 'ok' | 'waiting' | 'attention';

export interface PortfolioCounts {
    total: number;
    synced: number;
    others: number;
    lights: Record<Semaphore, number>;
}

export interface PortfolioRow {
    item: ClientListItem;
    health: CuitHealthView | null;
}

export interface PortfolioPage {
    data: PortfolioRow[];
    pagination: Pagination;
    counts: PortfolioCounts;
}

export const portfolioParameters = [...listCuitsParameters, 'estado', 'requiere_atencion'] as const;

export const portfolioLimits = { searchLength: 100, freshMs: 15_000 };

// A CUIT's light: green when all is well, red when a person must act, amber while waiting.
export const semaphoreOf = (state: HealthState): Semaphore => (state === 'ok' ? 'ok' : needsAttention(state) ? 'attention' : 'waiting');

const internals = {
    // What a search finds: its words as names are kept (no case, no accents), and its digits,
    // when it has any and nothing else but a CUIT's punctuation, anywhere in the CUIT.
    search(raw: string | undefined): ClientSearch | null {

        const text = (raw ?? '').trim().replace(/\s+/g, ' ');
        if (!text) {
            return null;
        }

        if ([...text].length > portfolioLimits.searchLength) {
            throw invalid([`La búsqueda admite hasta ${portfolioLimits.searchLength} caracteres.`]);
        }

        const digits = /^[\d\s.-]+$/.test(text) ? text.replace(/\D/g, '') : '';
        return { name: sortKey(text), digits: digits || null };
    },

    count(entries: readonly PortfolioEntry[]): PortfolioCounts {

        const lights: Record<Semaphore, number> = { ok: 0, waiting: 0, attention: 0 };
        let synced = 0;
        for (const entry of entries) {
            lights[semaphoreOf(entry.state)] += 1;
            synced += entry.registrySynced ? 1 : 0;
        }

        return { total: entries.length, synced, others: entries.length - synced, lights };
    }
};

export const listPortfolio = async (
    deps: Pick<Ports, 'clients' | 'health' | 'clock' | 'readCache'>,
    principal: Principal,
    request: ReadRequest,
    options: { search?: string | undefined } = {}
): Promise<PortfolioPage> => {

    const input = parseReadRequest(request, portfolioParameters);
    const search = internals.search(options.search);
    const filters: ClientFilters = {
        etiquetas: input.etiquetas?.length ? [...new Set(input.etiquetas)] : null,
        monotributista: input.monotributista ?? null,
        autonomo: input.autonomo ?? null,
        categoria: input.categoria ?? null
    };
    const states = input.estado?.length ? new Set(input.estado) : null;
    const attention = input.requiere_atencion ?? null;
    const admitted = new Set(healthStates.filter((state) => (!states || states.has(state)) && (attention === null || needsAttention(state) === attention)));

    const now = deps.clock.now().getTime();
    const query: ClientQuery = { ...filters, search };
    const viewer = principal.role === 'owner' ? 'owner' : `user-${principal.userId}`;
    const window = `${principal.accountId}:${viewer}:${Math.floor(now / portfolioLimits.freshMs)}`;
    const rankingKey = `portfolio:${window}:${JSON.stringify(query)}`;
    const pageKey = `portfolio-page:${window}:${JSON.stringify([query, [...admitted], input.limit, input.offset])}`;
    return cachedRead(deps.readCache, pageKey, principal.dataVersion, async () => {

        const entries = await cachedRead(deps.readCache, rankingKey, principal.dataVersion, () => deps.health.portfolio(principal, query, arcaDay(now)));
        const kept = entries.filter((entry) => admitted.has(entry.state));
        const ids = kept.slice(input.offset, input.offset + input.limit).map((entry) => entry.id);
        // The rows as they are now, in the ranking's order (one gone meanwhile is left out).
        const [rows, healths] = ids.length ? await Promise.all([
            deps.clients.listVisible(principal, { ...filters, ids }, { limit: ids.length, offset: 0 }),
            healthOfClients(deps, principal, ids)
        ]) : [{ items: [], total: 0 }, []];
        const byId = new Map(rows.items.map((row) => [row.id, row]));
        const health = new Map(healths.map((view) => [view.cuit, view]));
        const items = ids.map((id) => byId.get(id)).filter((row) => row !== undefined).map(toClientListItem);
        return {
            data: items.map((item) => ({ item, health: health.get(item.cuit) ?? null })),
            pagination: { limit: input.limit, offset: input.offset, total: kept.length },
            counts: internals.count(kept)
        };
    });
};
