import type { Knex } from 'knex';
import type { SubscriptionState } from '../../../core/domain/access.js';
import type { AccountListing, AccountRecord, AccountRepository } from '../../../core/ports/index.js';
import { countOf, toBoolean, toNumber } from '../column-values.js';

const internals = {
    toRecord: (row: Record<string, unknown>): AccountRecord => ({
        id: toNumber(row.id),
        name: String(row.name),
        writingEnabled: toBoolean(row.writing_enabled),
        subscription: row.subscription as SubscriptionState,
        createdAt: toNumber(row.created_at)
    })
};

export const accountRepository = (knex: Knex): AccountRepository => ({

    async list() {

        const rows = await knex('accounts as a')
            .select('a.id', 'a.name', 'a.writing_enabled', 'a.subscription', 'a.created_at')
            .select(knex('clients').count('*').where('clients.account_id', knex.ref('a.id')).as('cuit_count'))
            .select(knex('users').count('*').where('users.account_id', knex.ref('a.id')).as('user_count'))
            .orderBy('a.id');
        return rows.map((row: Record<string, unknown>): AccountListing => ({
            ...internals.toRecord(row),
            cuitCount: toNumber(row.cuit_count),
            userCount: toNumber(row.user_count)
        }));
    },

    async create(input) {

        const [id] = await knex('accounts').insert({
            name: input.name,
            writing_enabled: input.writingEnabled,
            subscription: input.subscription,
            created_at: input.createdAt
        });
        return Number(id);
    },

    async update(id, changes) {

        const row: Record<string, unknown> = {};
        if (changes.writingEnabled !== undefined) {
            row.writing_enabled = changes.writingEnabled;
        }

        if (changes.subscription !== undefined) {
            row.subscription = changes.subscription;
        }

        return (await knex('accounts').where({ id }).update(row)) > 0;
    },

    async findById(id) {

        const row = await knex('accounts').where({ id }).first();
        return row ? internals.toRecord(row) : null;
    },

    async countClients(id) {

        return countOf(await knex('clients').where({ account_id: id }).count({ count: '*' }).first());
    }
});
