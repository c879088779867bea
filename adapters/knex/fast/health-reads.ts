// Fast path: a client's health read as fixed SQL (repositories/health.ts rows(), the login
// ledger's keyDays()). Earns it (2026-11-28, on d097129, the builder's same statements A/B in
// one process, medians of 12 interleaved blocks of 400 calls, machine loaded ±50%): one
// client's rows() SQLite 405 µs of the event loop against 1,140 µs through the builder,
// MariaDB 644 against 996 µs; keyDays() of 50 keys SQLite 114 against 551 µs, MariaDB 195
// against 334 µs. A client's page and GET /v1/cuits/{cuit}/estado read it on every request,
// la cartera for each page.

import { placeholders, sqlByShape } from './statements.js';

const columns = 'c.id, c.cuit, c.tipo, c.display_name, c.representative_id, c.key_digest, c.key_stored_at';

// In one statement, the clients asked for (`target` 1) and every client their keys reach (0):
// the representatives whose keys log in for legal entities, and the clients those login keys
// represent. Bindings: the account and the values asked for (ids, or CUITs with `byCuit` 1),
// three times.
export const healthClientsSql = sqlByShape((byCuit: number, values: number): string => {

    const asked = (alias: string) => `${alias}.account_id = ? and ${alias}.${byCuit ? 'cuit' : 'id'} in (${placeholders(values)})`;
    return `select 1 as target, ${columns} from clients c where ${asked('c')} `
        + `union all select 0 as target, ${columns} from clients t inner join clients c on c.id = t.representative_id and c.account_id = t.account_id `
        + `where ${asked('t')} and t.tipo <> 'persona-fisica' `
        + `union all select 0 as target, ${columns} from clients c where c.account_id = ? and c.representative_id in `
        + `(select case when t.tipo = 'persona-fisica' then t.id else t.representative_id end from clients t where ${asked('t')})`;
});

export const healthStatesSql = sqlByShape((clients: number): string => 'select ss.client_id, ss.system, ss.synced_at, ss.last_attempt_at, ss.last_error, '
    + `ss.last_state, ss.failing_since from sync_states ss where ss.client_id in (${placeholders(clients)})`);

export const healthFailuresSql = sqlByShape((logins: number): string => 'select client_id, key_fingerprint, kind, failed_at from sync_key_failures '
    + `where client_id in (${placeholders(logins)})`);

// The login ledger's rows of a day for some keys. Bindings: the day, then the keys.
export const keyDaysSql = sqlByShape((keys: number): string => 'select key_id, posted_at, started_at, outcome, ends_day from sync_login_attempts '
    + `where day = ? and key_id in (${placeholders(keys)}) order by id`);
