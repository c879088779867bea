import type { Knex } from 'knex';

// Tenants (docs/architecture.md, Keys, sessions and the ledger): what the fleet shares towards
// ARCA is scoped by the key that earned it, never by the CUIT alone.
// - clients.key_digest: the key's identity, a keyed hash of its login CUIT and plaintext
//   (core/domain/key-identity.ts). The same plaintext in two accounts is one identity; a
//   changed key is a new one. Filled by the service as keys are stored (and, for keys stored
//   before this migration, by digestStoredKeys when a process starts: the secret is not here);
//   key_stored_at: when the key now stored was stored (a state never reads another key's).
// - sync_jobs.active_key and sync_key_holds.key_id hold that identity instead of the login
//   CUIT: one running job and one worker's session per key, not per CUIT.
// - sync_login_attempts replaces the per-CUIT counters of sync_key_logins: one row per login
//   started, by which key and on whose behalf, and how it ended, so that the ledger's rule
//   (core/domain/login-ledger.ts) can tell a proven key's logins from an unproven one's.
// - arca_keys: what ARCA said of a key identity: that it logged in (proven) or refused it
//   (never posted again); arca_login_cuits: one row per login CUIT, locked while a login is
//   counted, and when staff last cleared its wrong-password allowance.
// - sync_states.last_state: the state a failure names, written with it (not read back from
//   the words of the message).

const internals = {
    mysql: (knex: Knex): boolean => knex.client.config.client === 'mysql2',

    table(knex: Knex, name: string, build: (table: Knex.CreateTableBuilder) => void) {

        const mysql = internals.mysql(knex);
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

    await knex.schema.alterTable('clients', (table) => {

        table.string('key_digest', 64).nullable();
        table.bigInteger('key_stored_at').nullable();
        table.index(['key_digest'], 'clients_key_digest');
    });

    // Running jobs hold key identities from now on (64 hex digits); a job running across the
    // upgrade keeps its CUIT there until it ends. Holds last minutes: they start again empty.
    if (internals.mysql(knex)) {
        await knex.raw('alter table sync_jobs modify active_key varchar(64) character set utf8mb4 collate utf8mb4_bin null');
    }

    await knex.schema.dropTable('sync_key_holds');
    await internals.table(knex, 'sync_key_holds', (table) => {

        table.string('key_id', 64).notNullable().primary();
        table.string('owner', 64).notNullable();
        table.bigInteger('expires_at').notNullable();
        table.index(['owner'], 'sync_key_holds_owner');
    });

    await internals.table(knex, 'sync_login_attempts', (table) => {

        table.bigIncrements('id');
        table.string('key_cuit', 11).notNullable();
        table.string('key_id', 64).notNullable();
        table.integer('account_id').notNullable();
        table.string('day', 10).notNullable();
        // The key had logged in before (arca_keys.proven_at) when this login started.
        table.boolean('proven').notNullable();
        table.boolean('relogin').notNullable().defaultTo(false);
        table.bigInteger('started_at').notNullable();
        table.bigInteger('posted_at').nullable();
        // 'ok', or the failure kind that ended it (null while it runs).
        table.string('outcome', 24).nullable();
        table.boolean('ends_day').notNullable().defaultTo(false);
        table.index(['key_cuit', 'day'], 'sync_login_attempts_cuit_day');
        table.index(['key_cuit', 'started_at'], 'sync_login_attempts_cuit_started');
        table.index(['day'], 'sync_login_attempts_day');
    });

    await internals.table(knex, 'arca_keys', (table) => {

        table.string('key_id', 64).notNullable().primary();
        table.string('key_cuit', 11).notNullable();
        table.bigInteger('proven_at').nullable();
        table.string('refused_kind', 24).nullable();
        table.bigInteger('refused_at').nullable();
        table.index(['key_cuit'], 'arca_keys_cuit');
    });

    await internals.table(knex, 'arca_login_cuits', (table) => {

        table.string('key_cuit', 11).notNullable().primary();
        table.bigInteger('cleared_at').notNullable().defaultTo(0);
    });

    // Today's logins, counted before the upgrade, stay counted: as proven logins of no key.
    const rows = await knex('sync_key_logins').select('key_cuit', 'day', 'logins', 'ended_kind', 'last_login_at') as Record<string, unknown>[];
    for (const row of rows) {
        const logins = Number(row.logins);
        const attempts = Array.from({ length: logins }, (_, index) => ({
            key_cuit: String(row.key_cuit),
            key_id: '',
            account_id: 0,
            day: String(row.day),
            proven: true,
            relogin: index > 0,
            started_at: Number(row.last_login_at ?? 0),
            posted_at: Number(row.last_login_at ?? 0),
            outcome: index === logins - 1 && row.ended_kind !== null ? String(row.ended_kind) : 'ok',
            ends_day: false
        }));
        if (attempts.length) {
            await knex('sync_login_attempts').insert(attempts);
        }
    }

    await knex.schema.dropTable('sync_key_logins');

    await knex.schema.alterTable('sync_states', (table) => {

        table.string('last_state', 24).nullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('sync_states', (table) => {

        table.dropColumn('last_state');
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

    for (const name of ['arca_login_cuits', 'arca_keys', 'sync_login_attempts', 'sync_key_holds']) {
        await knex.schema.dropTableIfExists(name);
    }

    await internals.table(knex, 'sync_key_holds', (table) => {

        table.string('key_cuit', 11).notNullable().primary();
        table.string('owner', 64).notNullable();
        table.bigInteger('expires_at').notNullable();
        table.index(['owner'], 'sync_key_holds_owner');
    });

    await knex('sync_jobs').whereRaw('length(active_key) > 11').update({ active_key: null });
    if (internals.mysql(knex)) {
        await knex.raw('alter table sync_jobs modify active_key varchar(11) character set utf8mb4 collate utf8mb4_bin null');
    }

    await knex.schema.alterTable('clients', (table) => {

        table.dropIndex(['key_digest'], 'clients_key_digest');
        table.dropColumn('key_digest');
        table.dropColumn('key_stored_at');
    });
};
