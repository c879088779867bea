import type { Knex } from 'knex';

// The OAuth 2.1 authorization server of the MCP endpoint: every client, grant, code, token,
// session and interaction as the authorization server's own JSON payload, by kind and id,
// with the lookups it needs (by grant for revocation, by uid for sessions).

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('oauth_entries', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_bin');
        }

        table.string('kind', 40).notNullable();
        table.string('id', 190).notNullable();
        table.text('payload', 'mediumtext').notNullable();
        table.string('grant_id', 190).nullable();
        table.string('user_code', 190).nullable();
        table.string('uid', 190).nullable();
        table.bigInteger('expires_at').nullable();
        table.bigInteger('consumed_at').nullable();
        table.primary(['kind', 'id']);
        table.index(['grant_id'], 'oauth_entries_grant');
        table.index(['kind', 'uid'], 'oauth_entries_uid');
        table.index(['kind', 'user_code'], 'oauth_entries_user_code');
        table.index(['expires_at'], 'oauth_entries_expiry');
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTableIfExists('oauth_entries');
};
