import type { Knex } from 'knex';

// The one-time links that let an invited user set their password (issue 40, the panel's team
// page; core/domain/invitation.ts): only the token's SHA-256 digest, when the link ends and
// when it was used. A user's links go with the user.

export const up = async (knex: Knex): Promise<void> => {

    const mysql = knex.client.config.client === 'mysql2';
    await knex.schema.createTable('invitations', (table) => {

        if (mysql) {
            table.engine('InnoDB');
            table.charset('utf8mb4');
            table.collate('utf8mb4_unicode_ci');
        }

        table.increments('id').primary();
        table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE');
        table.string('token_hash', 64).notNullable().unique();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('expires_at').notNullable();
        table.bigInteger('used_at').nullable();
        table.index(['user_id']);
    });
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.dropTable('invitations');
};
