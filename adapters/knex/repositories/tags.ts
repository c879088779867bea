import type { Knex } from 'knex';
import { sortKey } from '../../../core/domain/client.js';
import type { TagRepository } from '../../../core/ports/index.js';
import { dialectOf } from '../connection.js';
import { touchAccount } from '../data-versions.js';
import { isUniqueViolation } from '../errors.js';
import { listQueries } from '../fast/list-queries.js';
import { countOf, toNumber } from '../column-values.js';
import { statements } from '../fast/statements.js';

const internals = {
    // Rows per statement when a selection is large (bound parameters stay well under either
    // database's limit).
    chunk: 500,

    // One tag's assignments changed for many clients in one transaction, with the account's data
    // version (the API's lists show it at once): all of them or, without the tag, none.
    changeTag(
        knex: Knex,
        input: { accountId: number; clientIds: readonly number[]; name: string },
        change: (trx: Knex.Transaction, tagId: number, clientIds: readonly number[]) => Promise<unknown>
    ): Promise<boolean> {

        return knex.transaction(async (trx) => {

            const tag = await trx('tags').select('id').where({ account_id: input.accountId, sort_name: sortKey(input.name) }).first();
            if (!tag) {
                return false;
            }

            await touchAccount(trx, input.accountId);
            for (let at = 0; at < input.clientIds.length; at += internals.chunk) {
                await change(trx, toNumber(tag.id), input.clientIds.slice(at, at + internals.chunk));
            }

            return true;
        });
    }
};

export const tagRepository = (knex: Knex, sql = statements(knex), queries = listQueries(dialectOf(knex)).tags): TagRepository => ({

    async create(input) {

        try {
            return await knex.transaction(async (trx) => {

                await touchAccount(trx, input.accountId);
                const [id] = await trx('tags').insert({ account_id: input.accountId, name: input.name, sort_name: sortKey(input.name), color: input.color });
                return Number(id);
            });
        }
        catch (err) {
            if (isUniqueViolation(err)) {
                return null;
            }

            throw err;
        }
    },

    assign(input) {

        return internals.changeTag(knex, input, async (trx, tagId, clientIds) => {

            // Only clients still in the account: one deleted meanwhile is left out, not an error.
            const present = (await trx('clients').pluck('id').whereIn('id', clientIds).where({ account_id: input.accountId })).map(toNumber);
            if (present.length) {
                await trx('client_tags').insert(present.map((clientId) => ({ client_id: clientId, tag_id: tagId }))).onConflict(['client_id', 'tag_id']).ignore();
            }
        });
    },

    unassign(input) {

        return internals.changeTag(knex, input, (trx, tagId, clientIds) => trx('client_tags').where({ tag_id: tagId }).whereIn('client_id', clientIds).delete());
    },

    async update(input) {

        try {
            return await knex.transaction(async (trx) => {

                await touchAccount(trx, input.accountId);
                const changed = await trx('tags').where({ account_id: input.accountId, sort_name: sortKey(input.name) })
                    .update({ name: input.newName, sort_name: sortKey(input.newName), color: input.color });
                return changed > 0 ? 'updated' : 'missing';
            });
        }
        catch (err) {
            if (isUniqueViolation(err)) {
                return 'taken';
            }

            throw err;
        }
    },

    async remove(input) {

        return knex.transaction(async (trx) => {

            await touchAccount(trx, input.accountId);
            const tag = await trx('tags').select('id').where({ account_id: input.accountId, sort_name: sortKey(input.name) }).first();
            if (!tag) {
                return false;
            }

            await trx('client_tags').where({ tag_id: toNumber(tag.id) }).delete();
            await trx('tags').where({ id: toNumber(tag.id) }).delete();
            return true;
        });
    },

    async list(accountId, page) {

        const [countRow, rows] = await Promise.all([
            sql.first(queries.count, [accountId]),
            sql.all(queries.page, [accountId, page.limit, page.offset])
        ]);

        return {
            items: rows.map((row: Record<string, unknown>) => ({ nombre: String(row.name), color: String(row.color) })),
            total: countOf(countRow)
        };
    }
});
