import type { Knex } from 'knex';
import type { ClientImportRepository } from '../../../core/ports/index.js';

// Pending imports (migration 025): stored sealed, one per user (a new one replaces it), taken
// once by deleting the row; every save drops the expired ones. Two
// confirmations of one import at once both read it, and only the one whose delete removed it
// gets its rows.
export const clientImportRepository = (knex: Knex): ClientImportRepository => ({

    async save(pending) {

        await knex.transaction(async (trx) => {

            await trx('client_imports').where('expires_at', '<=', pending.createdAt).del();
            await trx('client_imports').where({ account_id: pending.accountId, user_id: pending.userId }).del();
            await trx('client_imports').insert({
                public_id: pending.publicId,
                account_id: pending.accountId,
                user_id: pending.userId,
                sealed_rows: pending.sealedRows,
                row_count: pending.rowCount,
                created_at: pending.createdAt,
                expires_at: pending.expiresAt
            });
        });
    },

    async take({ publicId, accountId, userId, now }) {

        const row = await knex('client_imports').select('id', 'sealed_rows')
            .where({ public_id: publicId, account_id: accountId, user_id: userId }).andWhere('expires_at', '>', now).first() as Record<string, unknown> | undefined;
        if (!row || Number(await knex('client_imports').where({ id: row.id }).del()) !== 1) {
            return null;
        }

        return String(row.sealed_rows);
    }
});
