import type { Knex } from 'knex';
import type { TokenRecord, TokenRepository } from '../../../core/ports/index.js';
import { batched } from '../fast/batching.js';
import { dialectOf } from '../connection.js';
import type { Principal } from '../../../core/domain/access.js';
import type { ClientRecord } from '../../../core/domain/client.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { toClientRecord } from '../client-rows.js';
import { toPrincipal } from '../principal.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import { statements } from '../fast/statements.js';
import { tokenPrincipalsSql } from '../fast/token-lookup.js';

const internals = {
    // Never token_hash: nothing that reads tokens back needs it.
    columns: ['id', 'user_id', 'name', 'hint', 'created_at', 'revoked_at', 'last_used_at'],

    toRecord: (row: Record<string, unknown>): TokenRecord => ({
        id: toNumber(row.id),
        userId: toNumber(row.user_id),
        name: row.name === null ? null : String(row.name),
        hint: String(row.hint),
        createdAt: toNumber(row.created_at),
        revokedAt: toNullableNumber(row.revoked_at),
        lastUsedAt: toNullableNumber(row.last_used_at)
    }),

    // The principal and the token it was found by (its id and last use, for findTokenUser).
    toTokenPrincipal: (row: Record<string, unknown>): Principal => ({
        ...toPrincipal(row),
        apiToken: { id: toNumber(row.token_id), lastUsedAt: toNullableNumber(row.token_last_used_at) }
    })
};

export const tokenRepository = (knex: Knex, sql = statements(knex)): TokenRepository => {

    const findPrincipals = async (lookups: readonly { hash: string; cuit?: Cuit }[]) => {

        const hashes = [...new Set(lookups.map((lookup) => lookup.hash))];
        const cuits = [...new Set(lookups.flatMap((lookup) => (lookup.cuit ? [lookup.cuit] : [])))];
        const rows = await sql.all(tokenPrincipalsSql(hashes.length, cuits.length), [...cuits, ...hashes]);
        const principals = new Map<string, Principal>();
        const named = new Map<string, ClientRecord>();
        for (const row of rows) {
            principals.set(String(row.token_hash), internals.toTokenPrincipal(row));
            if (row.named_id !== null && row.named_id !== undefined) {
                named.set(`${String(row.token_hash)}:${String(row.named_cuit)}`, toClientRecord(row, 'named_'));
            }
        }

        return lookups.map(({ hash, cuit }): Principal | null => {

            const principal = principals.get(hash);
            if (!principal || !cuit) {
                return principal ?? null;
            }

            return { ...principal, named: { cuit, client: named.get(`${hash}:${cuit}`) ?? null } };
        });
    };
    // On MySQL the requests of one event-loop turn look their tokens up together (batching.ts).
    const findPrincipalsTogether = batched(findPrincipals);
    const mysql = dialectOf(knex) === 'mysql';
    // Tokens whose use is being written: the requests that come meanwhile (they read the old
    // time) add no second write of the same thing.
    const recording = new Set<number>();

    return {

        async create(input) {

            const [id] = await knex('tokens').insert({
                user_id: input.userId,
                name: input.name,
                token_hash: input.tokenHash,
                hint: input.hint,
                created_at: input.createdAt
            });
            return Number(id);
        },

        async revoke(id, at) {

            return (await knex('tokens').where({ id }).whereNull('revoked_at').update({ revoked_at: at })) > 0;
        },

        async findById(id) {

            const row = await knex('tokens').select(internals.columns).where({ id }).first();
            return row ? internals.toRecord(row) : null;
        },

        async list(filter) {

            const query = knex('tokens').select(internals.columns.map((column) => `tokens.${column}`)).orderBy('tokens.id');
            if (filter.userId !== undefined) {
                query.where('tokens.user_id', filter.userId);
            }

            if (filter.accountId !== undefined) {
                query.innerJoin('users', 'users.id', 'tokens.user_id').where('users.account_id', filter.accountId);
            }

            return (await query).map(internals.toRecord);
        },

        // On every request: one indexed lookup by digest, joined to the live account flags (fixed
        // SQL, see statements.ts).
        async findPrincipal(tokenHash, cuit) {

            const lookup = { hash: tokenHash, cuit };
            return mysql ? findPrincipalsTogether(lookup) : (await findPrincipals([lookup]))[0]!;
        },

        // Rare (findTokenUser's throttle), so through the builder. Another process may have
        // written a later time meanwhile: that one stays.
        async recordUse(id, at) {

            if (recording.has(id)) {
                return;
            }

            recording.add(id);
            try {
                await knex('tokens').where({ id }).andWhere((query) => query.whereNull('last_used_at').orWhere('last_used_at', '<', at)).update({ last_used_at: at });
            }
            finally {
                recording.delete(id);
            }
        }
    };
};
