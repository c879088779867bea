import type { Knex } from 'knex';

// What every worker, machine and cron run shares about the authority (docs/scaling.md):
// - sync_jobs.active_key is the login CUIT of a running job's key (the client's own, or its
//   representative's): its unique index makes two running jobs of one key impossible, as
//   active_client_id does for one client.
// - sync_key_holds: the worker that holds a key's session of the day; no other worker claims
//   that key's jobs while the hold lasts (renewed while it lives, gone with its lease).
// - sync_key_logins: the login ledger, per key (login CUIT) and ARCA day (Buenos Aires):
//   logins started, passwords posted, re-logins, and the failure that ended the day's logins.
// - authority_host_blocks: a firewall block of a host and until when it lasts.
// - fleet_slots: counted slots shared by the fleet (requests in flight per host, login starts
//   per minute); a slot is free once `until` has passed.

const internals = {
    table(knex: Knex, name: string, build: (table: Knex.CreateTableBuilder) => void) {

        const mysql = knex.client.config.client === 'mysql2';
        return knex.schema.createTable(name, (table) => {

            if (mysql) {
                table.engine('InnoDB');
                table.charset('utf8mb4');
                table.collate('utf8mb4_bin');
            }

            build(table);
        });
    }
};

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.string('active_key', 11).nullable();
    });

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.unique(['active_key'], { indexName: 'sync_jobs_one_running_per_key' });
    });

    await internals.table(knex, 'sync_key_holds', (table) => {

        table.string('key_cuit', 11).notNullable().primary();
        table.string('owner', 64).notNullable();
        table.bigInteger('expires_at').notNullable();
        table.index(['owner'], 'sync_key_holds_owner');
    });

    await internals.table(knex, 'sync_key_logins', (table) => {

        table.string('key_cuit', 11).notNullable();
        table.string('day', 10).notNullable();
        table.integer('logins').notNullable().defaultTo(0);
        table.integer('password_posts').notNullable().defaultTo(0);
        table.integer('relogins').notNullable().defaultTo(0);
        table.string('ended_kind', 24).nullable();
        table.string('ended_fingerprint', 64).nullable();
        table.bigInteger('ended_at').nullable();
        table.bigInteger('last_login_at').nullable();
        table.primary(['key_cuit', 'day']);
        table.index(['day'], 'sync_key_logins_day');
    });

    await internals.table(knex, 'authority_host_blocks', (table) => {

        table.string('host', 100).notNullable().primary();
        table.bigInteger('blocked_until').notNullable();
        table.bigInteger('blocked_at').notNullable();
        table.integer('blocks').notNullable().defaultTo(0);
    });

    await internals.table(knex, 'fleet_slots', (table) => {

        table.string('name', 120).notNullable();
        table.integer('slot').notNullable();
        table.string('holder', 100).nullable();
        table.bigInteger('until').notNullable().defaultTo(0);
        table.primary(['name', 'slot']);
    });
};

export const down = async (knex: Knex): Promise<void> => {

    for (const name of ['fleet_slots', 'authority_host_blocks', 'sync_key_logins', 'sync_key_holds']) {
        await knex.schema.dropTableIfExists(name);
    }

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.dropUnique(['active_key'], 'sync_jobs_one_running_per_key');
    });

    await knex.schema.alterTable('sync_jobs', (table) => {

        table.dropColumn('active_key');
    });
};
