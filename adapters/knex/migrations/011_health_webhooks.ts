import type { Knex } from 'knex';

// Health and events (docs in README: States and webhooks).
// - sync_states.failing_since: when the current run of failures of a system began, kept while
//   the failure's cause stays the same, cleared by the next success ("since when" of a state).
// - webhook_endpoints: an account's signed webhook receivers; the signing secret is sealed like
//   a clave fiscal.
// - webhook_events: the outbox. Each event is written in the same transaction as the data it
//   announces, and only while the account has an active endpoint; the workers fan it out to
//   the endpoints that want it (fanned_out) and deliver it.
// - webhook_deliveries: one per event and endpoint, with its attempts; a worker holds one under
//   a lease while it calls the endpoint, so a killed worker's deliveries are taken again.

const internals = {
    table(knex: Knex, name: string, build: (table: Knex.CreateTableBuilder) => void) {

        const mysql = knex.client.config.client === 'mysql2';
        return knex.schema.createTable(name, (table) => {

            if (mysql) {
                table.engine('InnoDB');
                table.charset('utf8mb4');
                table.collate('utf8mb4_unicode_ci');
            }

            build(table);
        });
    }
};

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_states', (table) => {

        table.bigInteger('failing_since').nullable();
    });

    await internals.table(knex, 'webhook_endpoints', (table) => {

        table.increments('id');
        table.integer('account_id').unsigned().notNullable().references('accounts.id').onDelete('CASCADE');
        table.string('url', 2048).notNullable();
        // Event types, comma-separated; '*' is every type.
        table.string('events', 500).notNullable();
        table.text('sealed_secret').notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('disabled_at').nullable();
        table.index(['account_id'], 'webhook_endpoints_account');
    });

    await internals.table(knex, 'webhook_events', (table) => {

        table.bigIncrements('id');
        table.string('public_id', 48).notNullable().unique();
        table.integer('account_id').unsigned().notNullable().references('accounts.id').onDelete('CASCADE');
        // No foreign key: an event outlives the CUIT it speaks of (a deletion after a sync).
        table.integer('client_id').unsigned().nullable();
        table.string('cuit', 11).nullable();
        table.string('type', 40).notNullable();
        table.string('sync_system', 24).nullable();
        // A health change: the recorded errors before and after (null: none), read back as
        // states by the same derivation as the API's.
        table.text('previous_error').nullable();
        table.text('error').nullable();
        table.text('data').nullable();
        table.bigInteger('created_at').notNullable();
        table.boolean('fanned_out').notNullable().defaultTo(false);
        table.index(['fanned_out', 'id'], 'webhook_events_fan_out');
    });

    await internals.table(knex, 'webhook_deliveries', (table) => {

        table.bigIncrements('id');
        table.bigInteger('event_id').unsigned().notNullable().references('webhook_events.id').onDelete('CASCADE');
        table.integer('endpoint_id').unsigned().notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
        table.string('status', 12).notNullable();
        table.integer('attempts').notNullable().defaultTo(0);
        table.bigInteger('next_attempt_at').notNullable();
        table.bigInteger('last_attempt_at').nullable();
        table.integer('last_status').nullable();
        table.string('last_error', 500).nullable();
        table.bigInteger('delivered_at').nullable();
        table.string('lease_owner', 100).nullable();
        table.bigInteger('lease_expires_at').nullable();
        table.bigInteger('created_at').notNullable();
        table.unique(['event_id', 'endpoint_id'], { indexName: 'webhook_deliveries_once' });
        table.index(['status', 'next_attempt_at'], 'webhook_deliveries_due');
        table.index(['endpoint_id', 'id'], 'webhook_deliveries_endpoint');
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTableIfExists('webhook_deliveries');
    await knex.schema.dropTableIfExists('webhook_events');
    await knex.schema.dropTableIfExists('webhook_endpoints');
    await knex.schema.alterTable('sync_states', (table) => {

        table.dropColumn('failing_since');
    });
};
