import type { Knex } from 'knex';

// The claim's fair order across accounts (job-queue.ts, accountClaims) counts each account's
// jobs claimed in the last minutes: sync_jobs by started_at reads only those, not the queue.

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.index(['started_at', 'client_id'], 'sync_jobs_started');
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.dropIndex(['started_at', 'client_id'], 'sync_jobs_started');
    });
};
