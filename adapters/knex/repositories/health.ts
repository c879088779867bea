import type { Knex } from 'knex';
import type { ClientType } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { keyFingerprint } from '../../../core/domain/sealed-key.js';
import type { SyncSystem } from '../../../core/domain/sync-system.js';
import type { HealthClientRow, HealthRepository, SyncState } from '../../../core/ports/index.js';
import { assignedToMember } from '../client-rows.js';
import { toNullableNumber, toNumber } from '../column-values.js';

// What the health of an account's CUITs is derived from, in three reads: the clients (with
// their keys' digests, never the keys), their systems' sync states and their refused keys. A
// key's state is shared by every CUIT it reaches, whoever manages them, so the whole account is
// read and the principal's visible ones named apart.
export const healthRepository = (knex: Knex): HealthRepository => ({

    async portfolio(principal) {

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
            visible: visible ? new Set((visible as Record<string, unknown>[]).map((row) => toNumber(row.id))) : null
        };
    }
});
