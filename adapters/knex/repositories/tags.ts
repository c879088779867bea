import type { Knex } from 'knex';
import { sortKey } from '../../../core/domain/client.js';
import type { TagRepository } from '../../../core/ports/index.js';
import { dialectOf } from '../connection.js';
import { touchAccount } from '../data-versions.js';
import { isUniqueViolation } from '../errors.js';
import { listQueries } from '../fast/list-queries.js';
import { countOf, toNumber } from '../column-values.js';
import { statements } from '../fast/statements.js';

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

    async assign(input) {

        const tag = await knex('tags').select('id').where({ account_id: input.accountId, sort_name: sortKey(input.name) }).first();
        if (!tag) {
            return false;
        }

        await knex.transaction(async (trx) => {

            await touchAccount(trx, input.accountId);
            await trx('client_tags').insert({ client_id: input.clientId, tag_id: toNumber(tag.id) }).onConflict(['client_id', 'tag_id']).ignore();
        });
        return true;
    },

    async unassign(input) {

        const tag = await knex('tags').select('id').where({ account_id: input.accountId, sort_name: sortKey(input.name) }).first();
        if (!tag) {
            return false;
        }

        await knex.transaction(async (trx) => {

            await touchAccount(trx, input.accountId);
            await trx('client_tags').where({ client_id: input.clientId, tag_id: toNumber(tag.id) }).delete();
        });
        return true;
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
