import type { Knex } from 'knex';

// A key's change of state is announced against the last one announced to the account, read
// from the outbox by the key's client (outbox.ts, announceKeyChange): an index for that read.

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('webhook_events', (table) => {

        table.index(['client_id', 'type', 'id'], 'webhook_events_client');
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('webhook_events', (table) => {

        table.dropIndex(['client_id', 'type', 'id'], 'webhook_events_client');
    });
};
