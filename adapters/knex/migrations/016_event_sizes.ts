import type { Knex } from 'knex';

// The outbox holds the largest event the code can write (issue 37, item 3). An event is written
// in the transaction of the data it announces, so one its column refuses (MySQL's
// ER_DATA_TOO_LONG) rolled that data back too, on every sync. Events carry at most
// eventListMax (50) items of a list (core/domain/events.ts); the largest, `dfe.nuevas`, is
// then 50 notifications of texts at their columns' sizes (arca_id 40, tipo 100, asunto 500,
// organismo 200 characters), each character up to six bytes of JSON (\u0001): about 260 KB,
// four times MySQL's TEXT (65,535 bytes). MEDIUMTEXT holds 16 MB. A key's `salud.cambio` lists
// the CUITs it reaches in the account, 14 bytes each: a million of them fit. SQLite's TEXT has
// no size. The errors of a health change keep TEXT: they are copied from sync_states.last_error,
// a TEXT itself.
// Going back (down) fails while an event over 65,535 bytes is stored, rather than cut it.

const internals = {
    mysql: (knex: Knex): boolean => knex.client.config.client === 'mysql2'
};

export const up = async (knex: Knex): Promise<void> => {

    if (internals.mysql(knex)) {
        await knex.raw('alter table webhook_events modify data mediumtext null');
    }
};

export const down = async (knex: Knex): Promise<void> => {

    if (internals.mysql(knex)) {
        await knex.raw('alter table webhook_events modify data text null');
    }
};
