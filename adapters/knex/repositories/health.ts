import type { Knex } from 'knex';
import type { ClientType } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import type { KeyDay, KeyRecord } from '../../../core/domain/health.js';
import { sameKey } from '../../../core/domain/key-identity.js';
import type { KeyDayEntry } from '../../../core/ports/fleet.js';
import type { Principal } from '../../../core/domain/access.js';
import type { HealthClientRow, HealthRepository, SyncState } from '../../../core/ports/index.js';
import { assignedToMember } from '../client-rows.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import { pageByState, portfolioRanking } from '../health-states.js';
import { loginLedger } from '../login-ledger.js';
import { syncStateOf } from '../sync-state-rows.js';
import { healthClientsSql, healthFailuresSql, healthStatesSql } from '../fast/health-reads.js';
import { statements } from '../fast/statements.js';

// A key's logins of the day (login-ledger.ts) as its health reads them.
const keyDayOf = (entry: KeyDayEntry): KeyDay => ({ passwordPosts: entry.passwordPosts, loggedIn: entry.loggedIn, ended: entry.ended });

const internals = {
    chunk: 500,

    // `values` in IN lists of `chunk` at most.
    async inChunks<T>(values: readonly T[], read: (part: T[]) => Promise<Record<string, unknown>[]>): Promise<Record<string, unknown>[]> {

        const rows: Record<string, unknown>[] = [];
        for (let i = 0; i < values.length; i += internals.chunk) {
            rows.push(...await read(values.slice(i, i + internals.chunk)));
        }

        return rows;
    },

    // The principal's clients (an owner's every one, a member's assigned ones), alias c.
    visible(knex: Knex, principal: Pick<Principal, 'accountId' | 'userId' | 'role'>): Knex.QueryBuilder {

        const query = knex('clients as c').where('c.account_id', principal.accountId);
        return principal.role === 'owner' ? query : query.whereRaw(assignedToMember('?'), [principal.userId]);
    }
};

// What the health of CUITs is derived from, for the CUITs asked for only: the clients (with
// their keys' digests, never the keys), the clients whose keys log in for them and every
// client those keys reach (a key's state is shared by every CUIT it reaches, whoever manages
// them), their systems' sync states, their refused keys and the login ledger's rows of the day
// for their keys. What a request reads grows with the CUITs it answers for, not the account.
export const healthRepository = (knex: Knex, sql = statements(knex)): HealthRepository => ({

    async visibleIds(principal, page) {

        const query = internals.visible(knex, principal).select('c.id').orderBy([{ column: 'c.sort_name' }, { column: 'c.id' }]).limit(page.limit).offset(page.offset);
        return (await query as Record<string, unknown>[]).map((row) => toNumber(row.id));
    },

    async countVisible(principal) {

        const row = await internals.visible(knex, principal).count({ count: '*' }).first() as { count: unknown } | undefined;
        return toNumber(row?.count ?? 0);
    },

    pageByState: (principal, states, day, page) => pageByState(knex, principal, states, day, page),

    portfolio: (principal, query, day) => portfolioRanking(knex, principal, query, day),

    async rows(accountId, wanted, day) {

        // Fixed SQL (fast/health-reads.ts): a client's page and GET …/estado read it every time.
        const byCuit = !wanted.ids;
        const rows = await internals.inChunks<number | string>(
            wanted.ids ?? wanted.cuits ?? [],
            (part) => sql.all(healthClientsSql(byCuit ? 1 : 0, part.length), [accountId, ...part, accountId, ...part, accountId, accountId, ...part])
        );
        const targets = rows.filter((row) => Number(row.target) === 1);
        const logins = [...new Set(targets.map((row) => (row.tipo === 'persona-fisica' ? toNumber(row.id) : toNullableNumber(row.representative_id)))
            .filter((id): id is number => id !== null))];
        const clients = new Map(rows.map((row) => [toNumber(row.id), row]));
        const ids = [...clients.keys()];

        // Today's logins of the keys that log in, by identity: this account's keys only.
        // Read beside the systems' states and the refused keys, all three known from the clients.
        const keyIds = [...new Set(logins.map((id) => clients.get(id)?.key_digest).filter((digest): digest is string => typeof digest === 'string'))];
        const [states, failures, ledger] = await Promise.all([
            internals.inChunks(ids, (part) => sql.all(healthStatesSql(part.length), part)),
            internals.inChunks(logins, (part) => sql.all(healthFailuresSql(part.length), part)),
            loginLedger(knex).keyDays(day, keyIds)
        ]);

        const systems = new Map<number, SyncState[]>();
        for (const row of states) {
            const id = toNumber(row.client_id);
            const list = systems.get(id) ?? [];
            list.push(syncStateOf(row));
            systems.set(id, list);
        }

        const refused = new Map(failures.map((row) => [toNumber(row.client_id), {
            fingerprint: String(row.key_fingerprint),
            kind: String(row.kind),
            at: toNumber(row.failed_at)
        }]));
        return {
            clients: [...clients.values()].map((row): HealthClientRow => {

                const id = toNumber(row.id);
                return {
                    id,
                    cuit: String(row.cuit) as Cuit,
                    tipo: row.tipo as ClientType,
                    displayName: String(row.display_name),
                    representativeId: toNullableNumber(row.representative_id),
                    keyFingerprint: (row.key_digest ?? null) as string | null,
                    keyStoredAt: toNullableNumber(row.key_stored_at ?? null),
                    keyFailure: refused.get(id) ?? null,
                    systems: systems.get(id) ?? []
                };
            }),
            days: new Map(ledger.map((entry) => [entry.keyId, keyDayOf(entry)]))
        };
    }
});

// The key that logs in for a client (its own, or its representative's) as its health is
// derived (keyHealth), read in the caller's transaction: the login client, the CUITs of the
// account it reaches, their systems' states, its refusal and its own logins of `day`.
// null: no key can log in for it (a legal entity without a representative).
export const keyOfClient = async (trx: Knex | Knex.Transaction, clientId: number, day: string): Promise<{
    loginClientId: number;
    accountId: number;
    cuits: string[];
    key: KeyRecord;
} | null> => {

    const client = await trx('clients').select('id', 'tipo', 'representative_id').where({ id: clientId }).first() as Record<string, unknown> | undefined;
    const loginId = !client ? null : client.tipo === 'persona-fisica' ? toNumber(client.id) : toNullableNumber(client.representative_id);
    const login = loginId === null
        ? undefined
        : await trx('clients').select('id', 'account_id', 'cuit', 'key_digest', 'key_stored_at').where({ id: loginId }).first() as Record<string, unknown> | undefined;
    if (!login) {
        return null;
    }

    const digest = (login.key_digest ?? null) as string | null;
    const [reach, failure, attempts] = await Promise.all([
        trx('clients').select('id', 'cuit').where({ account_id: login.account_id }).andWhere(
            (query) => query.where({ id: login.id }).orWhere({ representative_id: login.id })
        ).orderBy('cuit') as Promise<Record<string, unknown>[]>,
        trx('sync_key_failures').where({ client_id: login.id }).first() as Promise<Record<string, unknown> | undefined>,
        digest === null
            ? Promise.resolve([])
            : trx('sync_login_attempts').select('posted_at', 'started_at', 'outcome', 'ends_day').where({ day, key_id: digest }).orderBy('id') as Promise<Record<string, unknown>[]>
    ]);
    const states = await trx('sync_states').whereIn('client_id', reach.map((row) => toNumber(row.id))) as Record<string, unknown>[];
    let today: KeyDay | null = null;
    for (const row of attempts) {
        today ??= { passwordPosts: 0, loggedIn: false, ended: null };
        today.passwordPosts += row.posted_at === null ? 0 : 1;
        today.loggedIn ||= row.outcome === 'ok';
        if (Number(row.ends_day) && row.outcome !== null) {
            today.ended = { kind: String(row.outcome), at: toNumber(row.posted_at ?? row.started_at) };
        }
    }

    return {
        loginClientId: toNumber(login.id),
        accountId: toNumber(login.account_id),
        cuits: reach.map((row) => String(row.cuit)),
        key: {
            loginCuit: String(login.cuit),
            hasKey: digest !== null,
            fingerprint: digest,
            storedAt: toNullableNumber(login.key_stored_at ?? null),
            refused: failure && sameKey(String(failure.key_fingerprint), digest) ? { kind: String(failure.kind), at: toNumber(failure.failed_at) } : null,
            today,
            reach: states.map(syncStateOf)
        }
    };
};
