import type { Knex } from 'knex';

// The job queue's invariants, held by the database rather than by the workers:
// - sync_jobs.active_client_id is the client's id while the job runs and NULL otherwise; its
//   unique index makes two running jobs of one client impossible, whichever worker, machine
//   or race.
// - sync_key_failures remembers a key the authority refused (rejected, blocked, expired) by a
//   fingerprint of its sealed value, so it is not tried again until it changes.

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.integer('active_client_id').unsigned().nullable();
        table.bigInteger('started_at').nullable();
    });

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.unique(['active_client_id'], { indexName: 'sync_jobs_one_running_per_client' });
        // Expired leases are found by status and expiry.
        table.index(['status', 'lease_expires_at'], 'sync_jobs_leases');
        table.index(['client_id', 'created_at'], 'sync_jobs_client_created');
    });

    await knex.schema.createTable('sync_key_failures', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_unicode_ci');
        }

        table.integer('client_id').unsigned().notNullable().primary().references('clients.id').onDelete('CASCADE');
        table.string('key_fingerprint', 64).notNullable();
        table.string('kind', 24).notNullable();
        table.bigInteger('failed_at').notNullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTableIfExists('sync_key_failures');
    await knex.schema.alterTable('sync_jobs', (table) => {

        table.dropIndex(['client_id', 'created_at'], 'sync_jobs_client_created');
        table.dropIndex(['status', 'lease_expires_at'], 'sync_jobs_leases');
        table.dropUnique(['active_client_id'], 'sync_jobs_one_running_per_client');
    });

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.dropColumn('started_at');
        table.dropColumn('active_client_id');
    });
};
