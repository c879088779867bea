import type { Knex } from 'knex';
import type { TokenRecord, TokenRepository } from '../../../core/ports/index.js';
import { batched } from '../batching.js';
import { dialectOf } from '../connection.js';
import { principalSelect, toPrincipal } from '../principal.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import { placeholders, statements } from '../statements.js';

const internals = {
    // Never token_hash: nothing that reads tokens back needs it.
    columns: ['id', 'user_id', 'name', 'hint', 'created_at', 'revoked_at'],

    toRecord: (row: Record<string, unknown>): TokenRecord => ({
        id: toNumber(row.id),
        userId: toNumber(row.user_id),
        name: row.name === null ? null : String(row.name),
        hint: String(row.hint),
        createdAt: toNumber(row.created_at),
        revokedAt: toNullableNumber(row.revoked_at)
    }),

    principals: (count: number) => `${principalSelect(['t.token_hash'])} inner join tokens t on t.user_id = u.id ` +
        `where t.token_hash in (${placeholders(count)}) and t.revoked_at is null`
};

export const tokenRepository = (knex: Knex, sql = statements(knex)): TokenRepository => {

    const findPrincipals = async (hashes: readonly string[]) => {

        const distinct = [...new Set(hashes)];
        const rows = await sql.all(internals.principals(distinct.length), distinct);
        const found = new Map(rows.map((row) => [String(row.token_hash), toPrincipal(row)]));
        return hashes.map((hash) => found.get(hash) ?? null);
    };
    // On MySQL the requests of one event-loop turn look their tokens up together (batching.ts).
    const findPrincipalsTogether = batched(findPrincipals);
    const mysql = dialectOf(knex) === 'mysql';

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
        async findPrincipal(tokenHash) {

            return mysql ? findPrincipalsTogether(tokenHash) : (await findPrincipals([tokenHash]))[0]!;
        }
    };
};
