import type { Knex } from 'knex';

// When each API token was last used (issue 40: the panel's token list shows it, as does
// `arcasync token list`). Written at most once per token every few minutes (core/domain/token.ts,
// tokenUseDue), never on every request; null until first used, as for every token before this.

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('tokens', (table) => {

        table.bigInteger('last_used_at').nullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('tokens', (table) => {

        table.dropColumn('last_used_at');
    });
};
