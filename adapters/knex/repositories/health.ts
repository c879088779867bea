import type { Knex } from 'knex';
import type { ClientType } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import type { KeyDay, KeyRecord } from '../../../core/domain/health.js';
import { keyFingerprint } from '../../../core/domain/sealed-key.js';
import type { SyncSystem } from '../../../core/domain/sync-system.js';
import type { HealthClientRow, HealthRepository, SyncState } from '../../../core/ports/index.js';
import { assignedToMember } from '../client-rows.js';
import { toNullableNumber, toNumber } from '../column-values.js';

// A row of the login ledger (sync_key_logins) as the key's health reads it.
export const keyDayOf = (row: Record<string, unknown>): KeyDay => ({
    passwordPosts: toNumber(row.password_posts),
    ended: row.ended_kind === null || row.ended_kind === undefined
        ? null
        : { kind: String(row.ended_kind), at: toNumber(row.ended_at), fingerprint: (row.ended_fingerprint ?? null) as string | null }
});

// What the health of an account's CUITs is derived from: the clients (with their keys'
// digests, never the keys), their systems' sync states, their refused keys and the login
// ledger's rows of the day for their keys. A
// key's state is shared by every CUIT it reaches, whoever manages them, so the whole account is
// read and the principal's visible ones named apart.
export const healthRepository = (knex: Knex): HealthRepository => ({

    async portfolio(principal, day) {

        const [clients, states, failures, visible] = await Promise.all([
            knex('clients as c').select(
                'c.id',
                'c.cuit',
                'c.tipo',
                'c.display_name',
                'c.representative_id',
                'c.clave_arca'
            ).where('c.account_id', principal.accountId).orderBy([{ column: 'c.sort_name' }, { column: 'c.id' }]),
            knex('sync_states as s').join('clients as c', 'c.id', 's.client_id').select(
                's.client_id',
                's.system',
                's.synced_at',
                's.last_attempt_at',
                's.last_error',
                's.failing_since'
            ).where('c.account_id', principal.accountId),
            knex('sync_key_failures as f').join('clients as c', 'c.id', 'f.client_id').select(
                'f.client_id',
                'f.key_fingerprint',
                'f.kind',
                'f.failed_at'
            ).where('c.account_id', principal.accountId),
            principal.role === 'owner' ? null : knex('clients as c').select('c.id').where('c.account_id', principal.accountId).whereRaw(
                assignedToMember('?'),
                [principal.userId]
            )
        ]);

        // Today's ledger rows of the keys that log in (the CUITs with a key of their own), by
        // value: the ledger's CUITs are compared byte for byte (another collation than clients').
        const keyCuits = [...new Set((clients as Record<string, unknown>[]).filter((row) => row.clave_arca !== null).map((row) => String(row.cuit)))];
        const ledger: Record<string, unknown>[] = [];
        for (let i = 0; i < keyCuits.length; i += 500) {
            ledger.push(...await knex('sync_key_logins').select('key_cuit', 'password_posts', 'ended_kind', 'ended_fingerprint', 'ended_at')
                .where('day', day).whereIn('key_cuit', keyCuits.slice(i, i + 500)));
        }

        const systems = new Map<number, SyncState[]>();
        for (const row of states as Record<string, unknown>[]) {
            const id = toNumber(row.client_id);
            const list = systems.get(id) ?? [];
            list.push({
                system: row.system as SyncSystem,
                syncedAt: toNullableNumber(row.synced_at),
                lastAttemptAt: toNullableNumber(row.last_attempt_at),
                lastError: row.last_error as string | null,
                failingSince: toNullableNumber(row.failing_since)
            });
            systems.set(id, list);
        }

        const refused = new Map((failures as Record<string, unknown>[]).map((row) => [toNumber(row.client_id), {
            fingerprint: String(row.key_fingerprint),
            kind: String(row.kind),
            at: toNumber(row.failed_at)
        }]));
        return {
            clients: (clients as Record<string, unknown>[]).map((row): HealthClientRow => {

                const id = toNumber(row.id);
                const sealed = row.clave_arca as string | null;
                return {
                    id,
                    cuit: String(row.cuit) as Cuit,
                    tipo: row.tipo as ClientType,
                    displayName: String(row.display_name),
                    representativeId: toNullableNumber(row.representative_id),
                    keyFingerprint: sealed ? keyFingerprint(sealed) : null,
                    keyFailure: refused.get(id) ?? null,
                    systems: systems.get(id) ?? []
                };
            }),
            visible: visible ? new Set((visible as Record<string, unknown>[]).map((row) => toNumber(row.id))) : null,
            days: new Map(ledger.map((row) => [String(row.key_cuit), keyDayOf(row)]))
        };
    }
});

// The key that logs in for a client (its own, or its representative's) as its health is
// derived (keyHealth), read in the caller's transaction: the login client, the CUITs of the
// account it reaches, their systems' states, its refusal and the ledger's row of `day`.
// null: no key can log in for it (a legal entity without a representative).
export const keyOfClient = async (trx: Knex | Knex.Transaction, clientId: number, day: string): Promise<{
    loginClientId: number;
    accountId: number;
    cuits: string[];
    key: KeyRecord;
} | null> => {

    const client = await trx('clients').select('id', 'tipo', 'representative_id').where({ id: clientId }).first() as Record<string, unknown> | undefined;
    const loginId = !client ? null : client.tipo === 'persona-fisica' ? toNumber(client.id) : toNullableNumber(client.representative_id);
    const login = loginId === null ? undefined : await trx('clients').select('id', 'account_id', 'cuit', 'clave_arca').where({ id: loginId }).first() as Record<string, unknown> | undefined;
    if (!login) {
        return null;
    }

    const [reach, failure, ledger] = await Promise.all([
        trx('clients').select('id', 'cuit').where({ account_id: login.account_id }).andWhere(
            (query) => query.where({ id: login.id }).orWhere({ representative_id: login.id })
        ).orderBy('cuit') as Promise<Record<string, unknown>[]>,
        trx('sync_key_failures').where({ client_id: login.id }).first() as Promise<Record<string, unknown> | undefined>,
        trx('sync_key_logins').where({ key_cuit: String(login.cuit), day }).first() as Promise<Record<string, unknown> | undefined>
    ]);
    const states = await trx('sync_states').whereIn('client_id', reach.map((row) => toNumber(row.id))) as Record<string, unknown>[];
    const sealed = login.clave_arca as string | null;
    const fingerprint = sealed ? keyFingerprint(sealed) : null;
    return {
        loginClientId: toNumber(login.id),
        accountId: toNumber(login.account_id),
        cuits: reach.map((row) => String(row.cuit)),
        key: {
            loginCuit: String(login.cuit),
            hasKey: fingerprint !== null,
            fingerprint,
            refused: failure && String(failure.key_fingerprint) === fingerprint ? { kind: String(failure.kind), at: toNumber(failure.failed_at) } : null,
            today: ledger ? keyDayOf(ledger) : null,
            reach: states.map((row) => ({
                system: row.system as SyncSystem,
                syncedAt: toNullableNumber(row.synced_at),
                lastAttemptAt: toNullableNumber(row.last_attempt_at),
                lastError: row.last_error as string | null,
                failingSince: toNullableNumber(row.failing_since)
            }))
        }
    };
};
