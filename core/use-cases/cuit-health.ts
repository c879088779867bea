import type { Principal } from '../domain/access.js';
import type { Cuit } from '../domain/cuit.js';
import { formatCuit } from '../domain/cuit.js';
import { arcaDay } from '../domain/arca-day.js';
import type { CuitHealth, HealthState, KeyDay, KeyHealthView, SystemHealthView, SystemRecord } from '../domain/health.js';
import { cuitHealth, healthStates, healthText, isKeyFailureState, keyHealth, needsAttention, systemNames, toKeyHealthView, toSystemHealthView, worstState } from '../domain/health.js';
import type { SyncSystem } from '../domain/sync-system.js';
import type { Pagination } from '../domain/pagination.js';
import type { ReadRequest } from '../domain/read-parameters.js';
import { parseReadRequest } from '../domain/read-parameters.js';
import { toIso } from '../domain/time.js';
import { sameKey } from '../domain/key-identity.js';
import type { HealthClientRow, Ports } from '../ports/index.js';
import { findVisibleClient } from './find-visible-client.js';
import { systemsFor } from './sync/sync-policy.js';

// The health of CUITs (an addition to the first contract): GET /v1/cuits/{cuit}/estado, the portfolio's
// GET /v1/estados, the MCP tools' sentences and `arcasync sync status`. Never cached: a failed
// attempt changes no data version, and it is what this answer is for.

export interface CuitHealthView {
    cuit: string;
    displayCuit: string;
    nombre: string;
    estado: HealthState;
    desde: string | null;
    mensaje: string;
    accion: string;
    requiereAtencion: boolean;
    // The clave fiscal that logs in for this CUIT (its own or its representative's).
    clave: KeyHealthView;
    sistemas: SystemHealthView[];
}

export interface PortfolioHealthResult {
    data: CuitHealthView[];
    pagination: Pagination;
    filters: { estado: HealthState[] | null; requiere_atencion: boolean | null };
}

export const cuitHealthParameters = ['cuit'] as const;
export const portfolioHealthParameters = ['limit', 'offset', 'estado', 'requiere_atencion'] as const;

const internals = {
    records: (row: HealthClientRow): SystemRecord[] => row.systems.map((state) => ({ ...state, failingSince: state.failingSince ?? null })),

    // Each client's health: its systems, and the key that logs in for it (a legal entity's is
    // its representative's), whose state comes from every CUIT the key reaches.
    derive(rows: readonly HealthClientRow[], days: ReadonlyMap<string, KeyDay>): Map<number, CuitHealth> {

        const byId = new Map(rows.map((row) => [row.id, row]));
        const reached = new Map<number, HealthClientRow[]>();
        for (const row of rows) {
            const login = row.tipo === 'persona-fisica' ? row.id : row.representativeId;
            if (login !== null) {
                reached.set(login, [...reached.get(login) ?? [], row]);
            }
        }

        const keys = new Map<number, ReturnType<typeof keyHealth>>();
        const keyOf = (loginId: number | null) => {

            const login = loginId === null ? undefined : byId.get(loginId);
            if (!login) {
                return keyHealth({ loginCuit: null, hasKey: false, fingerprint: null, storedAt: null, refused: null, today: null, reach: [] });
            }

            let key = keys.get(login.id);
            if (!key) {
                const refused = login.keyFailure && sameKey(login.keyFailure.fingerprint, login.keyFingerprint) ? login.keyFailure : null;
                key = keyHealth({
                    loginCuit: login.cuit,
                    hasKey: login.keyFingerprint !== null,
                    fingerprint: login.keyFingerprint,
                    storedAt: login.keyStoredAt,
                    refused,
                    today: login.keyFingerprint === null ? null : days.get(login.keyFingerprint) ?? null,
                    reach: (reached.get(login.id) ?? []).flatMap(internals.records)
                });
                keys.set(login.id, key);
            }

            return key;
        };

        return new Map(
            rows.map(
                (row) => [
                    row.id,
                    cuitHealth(systemsFor(row.tipo), internals.records(row), keyOf(row.tipo === 'persona-fisica' ? row.id : row.representativeId))
                ]
            )
        );
    },

    view(row: HealthClientRow, health: CuitHealth): CuitHealthView {

        return {
            cuit: row.cuit,
            displayCuit: formatCuit(row.cuit),
            nombre: row.displayName,
            estado: health.state,
            desde: toIso(health.since),
            ...healthText(health.state),
            requiereAtencion: needsAttention(health.state),
            clave: toKeyHealthView(health.key!),
            sistemas: health.systems.map(toSystemHealthView)
        };
    }
};

// The health of the account's clients `wanted`, in the order asked for (those of another
// account, or gone, left out).
const healthOf = async (
    deps: Pick<Ports, 'health' | 'clock'>,
    accountId: number,
    wanted: { ids: readonly number[] } | { cuits: readonly string[] }
): Promise<CuitHealthView[]> => {

    const { clients, days } = await deps.health.rows(accountId, wanted, arcaDay(deps.clock.now().getTime()));
    const healths = internals.derive(clients, days);
    const byKey = new Map(clients.map((row) => ['ids' in wanted ? String(row.id) : row.cuit, row]));
    const asked = 'ids' in wanted ? wanted.ids.map(String) : wanted.cuits;
    return asked.map((key) => byKey.get(key))
        .filter((row): row is HealthClientRow => row !== undefined)
        .map((row) => internals.view(row, healths.get(row.id)!));
};

// The health of some CUITs the principal manages (a page of the CUIT list, for MCP).
export const healthOfCuits = (
    deps: Pick<Ports, 'health' | 'clock'>,
    principal: Principal,
    cuits: readonly string[]
): Promise<CuitHealthView[]> => healthOf(deps, principal.accountId, { cuits });

// The health of clients the principal manages, by internal id (a page the panel picked).
export const healthOfClients = (
    deps: Pick<Ports, 'health' | 'clock'>,
    principal: Principal,
    ids: readonly number[]
): Promise<CuitHealthView[]> => healthOf(deps, principal.accountId, { ids });

// One CUIT's health: the same 404 as every endpoint for a CUIT the principal does not manage.
export const healthOfCuit = async (deps: Pick<Ports, 'health' | 'clock' | 'clients'>, principal: Principal, cuit: Cuit): Promise<CuitHealthView> => {

    const client = await findVisibleClient(deps, principal, cuit);
    return (await healthOf(deps, principal.accountId, { ids: [client.id] }))[0]!;
};

// Staff (`arcasync sync status --cuit`): a client's health in its account, whoever manages it.
export const healthOfClient = async (
    deps: Pick<Ports, 'health' | 'clock'>,
    accountId: number,
    clientId: number
): Promise<CuitHealthView | null> => (await healthOf(deps, accountId, { ids: [clientId] }))[0] ?? null;

export const getCuitHealth = async (
    deps: Pick<Ports, 'health' | 'clock' | 'clients'>,
    principal: Principal,
    request: ReadRequest
): Promise<{ data: CuitHealthView }> => {

    const { cuit } = parseReadRequest(request, cuitHealthParameters);
    return { data: await healthOfCuit(deps, principal, cuit) };
};

// "Which of my CUITs need attention?": the portfolio, paged, filtered by state (several: OR)
// and by whether a person must act, both together with AND. Either way only the page's CUITs
// are derived; filtered, the database picks the page and counts it by the state it computes
// from the same records (HealthRepository.pageByState), for the states the filters admit.
export const listPortfolioHealth = async (
    deps: Pick<Ports, 'health' | 'clock'>,
    principal: Principal,
    request: ReadRequest
): Promise<PortfolioHealthResult> => {

    const input = parseReadRequest(request, portfolioHealthParameters);
    const states = input.estado?.length ? [...new Set(input.estado)] : null;
    const attention = input.requiere_atencion ?? null;
    const filters = { estado: states, requiere_atencion: attention };
    const page = { limit: input.limit, offset: input.offset };
    if (!states && attention === null) {
        const [total, ids] = await Promise.all([deps.health.countVisible(principal), deps.health.visibleIds(principal, page)]);
        return { data: await healthOf(deps, principal.accountId, { ids }), pagination: { ...page, total }, filters };
    }

    const admitted = healthStates.filter((state) => (!states || states.includes(state)) && (attention === null || needsAttention(state) === attention));
    const { ids, total } = await deps.health.pageByState(principal, admitted, arcaDay(deps.clock.now().getTime()), page);
    return { data: await healthOf(deps, principal.accountId, { ids }), pagination: { ...page, total }, filters };
};

// What a read of some systems of a CUIT says about them (MCP): the key's failure when the key
// fails, otherwise the state of those systems that most needs attention.
export interface ReadHealthView {
    estado: HealthState;
    desde: string | null;
    syncedAt: string | null;
    mensaje: string;
    accion: string;
    requiereAtencion: boolean;
    clave: KeyHealthView;
    sistemas: SystemHealthView[];
}

export const healthOfRead = (health: CuitHealthView, systems: readonly SyncSystem[]): ReadHealthView => {

    const names = new Set(systems.map((system) => systemNames[system]));
    const sistemas = health.sistemas.filter((entry) => names.has(entry.sistema));
    const keyFails = isKeyFailureState(health.clave.estado);
    const estado = keyFails ? health.clave.estado as HealthState : worstState(sistemas.map((entry) => entry.estado));
    const same = sistemas.filter((entry) => entry.estado === estado);
    const desde = keyFails ? health.clave.desde : same.map((entry) => entry.desde).filter((at): at is string => at !== null).sort()[0] ?? null;
    const synced = sistemas.map((entry) => entry.syncedAt).filter((at): at is string => at !== null).sort();
    return { estado, desde, syncedAt: synced[0] ?? null, ...healthText(estado), requiereAtencion: needsAttention(estado), clave: health.clave, sistemas };
};
