import type { Knex } from 'knex';

// Fair delivery and retention of the outbox (README: States and webhooks).
// - webhook_endpoints.consecutive_failures, open_until: the endpoint's circuit breaker, shared
//   by the fleet. A run of failed calls sets the endpoint aside until open_until, so a receiver
//   that never answers cannot hold the slots every other endpoint needs; a 2xx clears both.
// - webhook_endpoints.last_claimed_at: when a worker last took one of its deliveries. Workers
//   take endpoints in that order (the longest waiting first): endpoints in turn, fleet-wide.
// - webhook_events_created: the workers' pruning reads the outbox by age.

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('webhook_endpoints', (table) => {

        table.integer('consecutive_failures').notNullable().defaultTo(0);
        table.bigInteger('open_until').nullable();
        table.bigInteger('last_claimed_at').nullable();
    });

    await knex.schema.alterTable('webhook_events', (table) => {

        table.index(['created_at', 'id'], 'webhook_events_created');
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('webhook_events', (table) => {

        table.dropIndex(['created_at', 'id'], 'webhook_events_created');
    });

    await knex.schema.alterTable('webhook_endpoints', (table) => {

        table.dropColumn('last_claimed_at');
        table.dropColumn('open_until');
        table.dropColumn('consecutive_failures');
    });
};
