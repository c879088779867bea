import type { Knex } from 'knex';

// An owner's invitation must not tell whether an address belongs to a user of another account
// (core/use-cases/staff/create-user.ts): a pending invitee (no password yet) may share its
// e-mail with users of other accounts. What stays unique is the address a user signs in with:
// `signin_email`, the e-mail of a user with a password (null while pending), set with the
// password. Accepting an invitation for an address that already signs in is refused there,
// to the address's owner (core/use-cases/accept-invitation.ts).

export const up = async (knex: Knex): Promise<void> => {

    await knex.schema.alterTable('users', (table) => {

        table.string('signin_email', 254).nullable();
    });
    // Compared byte-wise as `email` is (migration 010): `úsuario@x` is not `usuario@x`.
    if (knex.client.config.client === 'mysql2') {
        await knex.raw('alter table users modify signin_email varchar(254) character set utf8mb4 collate utf8mb4_bin null');
    }

    await knex('users').whereNotNull('password_hash').update({ signin_email: knex.ref('email') });
    await knex.schema.alterTable('users', (table) => {

        table.unique(['signin_email'], { indexName: 'users_signin_email_unique' });
        // Within one account an address is still one user: two invitations sent at once
        // cannot both add it.
        table.unique(['account_id', 'email'], { indexName: 'users_account_email_unique' });
        table.index(['email'], 'users_email_index');
        table.dropUnique(['email'], 'users_email_unique');
    });
};

export const down = async (knex: Knex): Promise<void> => {

    // Going back makes `email` unique again: with an address now held by users of two
    // accounts that cannot hold, so nothing is changed and the operator is told how many.
    const shared = (await knex('users').select('email').groupBy('email').havingRaw('count(*) > 1')).length;
    if (shared) {
        throw new Error(`No se puede deshacer 027_user_signin_email: ${shared} ${shared === 1 ? 'dirección está' : 'direcciones están'} en más de un usuario; `
            + 'antes de volver atrás, dejá cada dirección en un solo usuario.');
    }

    await knex.schema.alterTable('users', (table) => {

        table.unique(['email'], { indexName: 'users_email_unique' });
        table.dropIndex(['email'], 'users_email_index');
        table.dropUnique(['account_id', 'email'], 'users_account_email_unique');
        table.dropUnique(['signin_email'], 'users_signin_email_unique');
    });
    await knex.schema.alterTable('users', (table) => {

        table.dropColumn('signin_email');
    });
};
