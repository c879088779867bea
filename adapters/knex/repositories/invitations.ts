import type { Knex } from 'knex';
import type { InvitationRepository } from '../../../core/ports/index.js';
import { toNullableNumber, toNumber } from '../column-values.js';

export const invitationRepository = (knex: Knex): InvitationRepository => ({

    async create(input) {

        await knex.transaction(async (trx) => {

            await trx('invitations').where({ user_id: input.userId }).delete();
            await trx('invitations').insert({
                user_id: input.userId,
                token_hash: input.tokenHash,
                created_at: input.createdAt,
                expires_at: input.expiresAt
            });
        });
    },

    async find(tokenHash) {

        const row = await knex('invitations').select('id', 'user_id', 'expires_at', 'used_at').where({ token_hash: tokenHash }).first();
        return row ? { id: toNumber(row.id), userId: toNumber(row.user_id), expiresAt: toNumber(row.expires_at), usedAt: toNullableNumber(row.used_at) } : null;
    },

    async use(id, at) {

        return await knex('invitations').where({ id }).whereNull('used_at').update({ used_at: at }) === 1;
    }
});
