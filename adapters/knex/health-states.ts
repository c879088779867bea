import type { Knex } from 'knex';
import type { Principal } from '../../core/domain/access.js';
import { clientTypes } from '../../core/domain/client.js';
import type { HealthState } from '../../core/domain/health.js';
import { cuitStateTables, isKeyFailureState } from '../../core/domain/health.js';
import { systemsFor } from '../../core/use-cases/sync/sync-policy.js';
import type { ClientQuery } from '../../core/domain/client.js';
import { assignedToMember, clientConditions } from './client-rows.js';
import { dialectOf } from './connection.js';
import { toNumber } from './column-values.js';

// A CUIT's state (core/domain/health.ts, cuitHealth) computed by the database, for GET
// /v1/estados filtered by state: the page and its total come from one query over the account,
// and only the page's CUITs are then derived in TypeScript, as an unfiltered page is.
//
// The query reads the very rows the derivation reads, so no write has to keep anything up to
// date (a stored state per client would have to follow every failure, success, refused or
// replaced key, representative change and login of the ARCA day, and would go stale when the
// day turns, with nothing written): the CUIT's key fails when the key that logs in for it
// (its own, or its representative's in the same account) is missing, refused while it is
// the refused one (sync_key_failures of that identity), or its ARCA day was ended by one of
// its own logins (sync_login_attempts of that identity today, the last that ended it); then the
// CUIT shows the key's state. Otherwise it shows the state of its systems (those of its type)
// that most needs a person: a system never attempted, or never finished, is pending; a
// refusal recorded before the key now stored is pending too; a failure's state is the one
// stored beside it (sync_states.last_state), or for rows from before, the one its words name.
// States are compared as their place in core's order (cuitStateTables.rank), so the worst is
// the least; a state core does not rank counts as 'ok', as worstState reads it.

const internals = {
    rank: (state: HealthState): number => cuitStateTables.rank.indexOf(state),

    // Core's constants written into the SQL (a backslash would read differently on MySQL).
    literal(text: string): string {

        if (text.includes('\\')) {
            throw new Error(`health-states: a backslash in ${text}`);
        }

        return `'${text.replace(/'/g, "''")}'`;
    },

    // The key states of the query's first branch are all failures of the key (they stop every
    // system, cuitHealth): checked as the query is built, so a new mapping in core cannot pass
    // unseen.
    keyRanks(): { refusals: [string, number][]; endings: [string, number][]; missing: number } {

        const ranked = (table: Readonly<Record<string, string>>): [string, number][] => Object.entries(table).map(([kind, state]) => {

            if (!isKeyFailureState(state as HealthState)) {
                throw new Error(`health-states: ${state} is not a failure of the key`);
            }

            return [kind, internals.rank(state as HealthState)];
        });
        return { refusals: ranked(cuitStateTables.keyRefusals), endings: ranked(cuitStateTables.dayEndings), missing: internals.rank('sin_clave') };
    },

    // A system's place in the order, from its sync_states row `s`.
    systemRank(dialect: 'sqlite' | 'mysql'): string {

        const pending = internals.rank('pendiente');
        const ok = internals.rank('ok');
        // A refusal of the key is pending here: when the key now stored is refused, the first
        // branch shows it; otherwise the refusal was the key's it replaced.
        const refusals = new Set<string>(Object.values(cuitStateTables.keyRefusals));
        const exact = dialect === 'mysql' ? ' collate utf8mb4_bin' : '';
        const words = cuitStateTables.errorPrefixes
            .map(([prefix, state]) => `when substr(s.last_error, 1, ${[...prefix].length})${exact} = ${internals.literal(prefix)} then ${internals.literal(state)}`)
            .join(' ');
        const states = cuitStateTables.rank
            .map((state) => `when ${internals.literal(state)} then ${refusals.has(state) ? pending : internals.rank(state)}`)
            .join(' ');
        return `case when s.last_error is null then (case when s.synced_at is null then ${pending} else ${ok} end) ` +
            `else (case coalesce(s.last_state, case ${words} else 'error' end) ${states} else ${ok} end) end`;
    },

    // Each type's systems: which rows of `s` count, and how many a type has.
    systemsOfType(alias: string): { where: string; count: string } {

        const where = clientTypes.map((tipo) => `(${alias}.tipo = ${internals.literal(tipo)} and s.system in (${systemsFor(tipo).map(internals.literal).join(', ')}))`);
        const count = clientTypes.map((tipo) => `when ${internals.literal(tipo)} then ${systemsFor(tipo).length}`);
        return { where: where.join(' or '), count: `case ${alias}.tipo ${count.join(' ')} else 0 end` };
    },

    // Every visible client with its state's place: select id, sort_name, state_rank. The key's
    // failure if any, else its systems' worst: a coalesce of lookups, each evaluated once and
    // only when the ones before found nothing. What each CUIT's state is read from is looked
    // up per client by key (correlated subqueries on primary keys and indexes), never joined
    // as a grouped derived table: MariaDB's split materialization of such a join (10.6–10.11)
    // answered as if no client had a row.
    ranked(
        knex: Knex, principal: Pick<Principal, 'accountId' | 'userId' | 'role'>, day: string, narrowed: { where: string[]; bindings: (string | number)[] } = { where: [], bindings: [] }
    ): { sql: string; bindings: (string | number)[] } {

        const key = internals.keyRanks();
        const pending = internals.rank('pendiente');
        const types = internals.systemsOfType('c');
        const rankOf = (column: string, ranks: [string, number][]) => `case ${column} ${ranks.map(([kind, rank]) => `when ${internals.literal(kind)} then ${rank}`).join(' ')} end`;
        const member = principal.role === 'owner' ? '' : ` and ${assignedToMember('?')}`;
        // The worst of the type's systems recorded, pending when one was never recorded (null:
        // none was, and the coalesce below says pending).
        const least = dialectOf(knex) === 'mysql' ? 'least' : 'min';
        const systems = `(select ${least}(min(${internals.systemRank(dialectOf(knex))}), case when count(*) < ${types.count} then ${pending} else ${cuitStateTables.rank.length} end) ` +
            `from sync_states s where s.client_id = c.id and (${types.where}))`;
        const ended = `(select ${rankOf('a.outcome', key.endings)} from sync_login_attempts a ` +
            'where a.key_id = l.key_digest and a.day = ? and a.ends_day = 1 and a.outcome is not null order by a.id desc limit 1)';
        const sql = 'select c.id, c.sort_name, ' +
            "(select count(*) from sync_states r where r.client_id = c.id and r.system = 'registry' and r.synced_at is not null) as registry_synced, " +
            `coalesce(case when l.key_digest is null then ${key.missing} end, ${rankOf('f.kind', key.refusals)}, ${ended}, ${systems}, ${pending}) as state_rank ` +
            'from clients c ' +
            "left join clients l on l.account_id = c.account_id and l.id = case when c.tipo = 'persona-fisica' then c.id else c.representative_id end " +
            'left join sync_key_failures f on f.client_id = l.id and f.key_fingerprint = l.key_digest ' +
            `where c.account_id = ?${member}${narrowed.where.map((condition) => ` and ${condition}`).join('')}`;
        return { sql, bindings: [day, principal.accountId, ...(member ? [principal.userId] : []), ...narrowed.bindings] };
    }
};

// The ids of the principal's clients whose CUIT state is one of `states`, in the CUIT list's
// order (name, then internal id), a page of them, and how many there are.
export const pageByState = async (
    knex: Knex,
    principal: Pick<Principal, 'accountId' | 'userId' | 'role'>,
    states: readonly HealthState[],
    day: string,
    page: { limit: number; offset: number }
): Promise<{ ids: number[]; total: number }> => {

    const ranks = [...new Set(states.map(internals.rank).filter((rank) => rank >= 0))];
    // A state core does not rank is never a CUIT's: nothing has it.
    if (!ranks.length) {
        return { ids: [], total: 0 };
    }

    const ranked = internals.ranked(knex, principal, day);
    const where = `t.state_rank in (${ranks.join(', ')})`;
    const rows = await knex.raw(
        `select t.id, count(*) over () as total from (${ranked.sql}) t where ${where} order by t.sort_name, t.id limit ? offset ?`,
        [...ranked.bindings, page.limit, page.offset]
    );
    const list = (dialectOf(knex) === 'mysql' ? rows[0] : rows) as Record<string, unknown>[];
    if (list.length) {
        return { ids: list.map((row) => toNumber(row.id)), total: toNumber(list[0]!.total) };
    }

    // Past the last page: only the count.
    const counted = await knex.raw(`select count(*) as total from (${ranked.sql}) t where ${where}`, ranked.bindings);
    const row = ((dialectOf(knex) === 'mysql' ? counted[0] : counted) as Record<string, unknown>[])[0];
    return { ids: [], total: toNumber(row?.total ?? 0) };
};

// The panel's portfolio (servers/panel): every client the principal manages that `query`
// admits, with its CUIT state and whether its Sistema Registral synchronization ended, those
// synchronized first ("Otros" last, as the page groups them), each part in the CUIT list's
// order. One query over the account, so the panel counts and pages by state without deriving
// every CUIT.
export const portfolioRanking = async (
    knex: Knex,
    principal: Pick<Principal, 'accountId' | 'userId' | 'role'>,
    query: ClientQuery,
    day: string
): Promise<{ id: number; registrySynced: boolean; state: HealthState }[]> => {

    const ranked = internals.ranked(knex, principal, day, clientConditions(query));
    const rows = await knex.raw(`select t.id, t.registry_synced, t.state_rank from (${ranked.sql}) t order by case when t.registry_synced > 0 then 0 else 1 end, t.sort_name, t.id`, ranked.bindings);
    const list = (dialectOf(knex) === 'mysql' ? rows[0] : rows) as Record<string, unknown>[];
    return list.map((row) => ({
        id: toNumber(row.id),
        registrySynced: toNumber(row.registry_synced) > 0,
        // A rank core does not know is 'ok', as worstState reads it.
        state: cuitStateTables.rank[toNumber(row.state_rank)] ?? 'ok'
    }));
};
