import type { Knex } from 'knex';
import { normalizeEmail } from '../../../core/domain/email.js';

// - Users' e-mails compared byte-wise on MySQL too (utf8mb4_bin), in the one form the service
//   gives them (core/domain/email.ts): utf8mb4_unicode_ci took `membér@x` or a fullwidth
//   `ｍember@x` for `member@x`, so the sign-in throttle, keyed on the address typed, counted
//   each lookalike apart while the lookup found the same user. SQLite compares byte-wise
//   already. Stored addresses are put in that form first.
// - OAuth entries name the user they were issued to (account_id, the provider's accountId),
//   so a password change or staff revoke every grant, token and session of a user at once.

const internals = {
    mysql: (knex: Knex) => knex.client.config.client === 'mysql2'
};

export const up = async (knex: Knex): Promise<void> => {

    const users = await knex('users').select('id', 'email');
    for (const user of users) {
        const email = normalizeEmail(String(user.email));
        if (email !== user.email && !await knex('users').where({ email }).first()) {
            await knex('users').where({ id: user.id }).update({ email });
        }
    }

    if (internals.mysql(knex)) {
        await knex.raw('alter table users modify email varchar(254) character set utf8mb4 collate utf8mb4_bin not null');
    }

    await knex.schema.alterTable('oauth_entries', (table) => {

        table.string('account_id', 190).nullable();
        table.index(['account_id'], 'oauth_entries_account');
    });

    const entries = await knex('oauth_entries').select('kind', 'id', 'payload');
    for (const entry of entries) {
        const accountId = (JSON.parse(String(entry.payload)) as { accountId?: unknown }).accountId;
        if (typeof accountId === 'string') {
            await knex('oauth_entries').where({ kind: entry.kind, id: entry.id }).update({ account_id: accountId });
        }
    }
};

export const down = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('oauth_entries', (table) => {

        table.dropIndex(['account_id'], 'oauth_entries_account');
        table.dropColumn('account_id');
    });

    if (internals.mysql(knex)) {
        await knex.raw('alter table users modify email varchar(254) character set utf8mb4 collate utf8mb4_unicode_ci not null');
    }
};
