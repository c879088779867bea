import type { Knex } from 'knex';
import type { Cuit } from '../../core/domain/cuit.js';
import type { LoginAttemptFact, LoginFacts } from '../../core/domain/login-ledger.js';
import { decideLogin, isKeyFailureKind, weekMs } from '../../core/domain/login-ledger.js';
import type { KeyDayEntry, LoginLedger, LoginLedgerEntry } from '../../core/ports/fleet.js';
import type { OnConnection } from './connection.js';
import { dialectOf, immediateTransaction } from './connection.js';
import { toNullableNumber, toNumber } from './column-values.js';
import { isLockConflict } from './errors.js';
import { keyDaysSql } from './fast/health-reads.js';
import { statements } from './fast/statements.js';

// The login ledger on sync_login_attempts, arca_keys and arca_login_cuits (migration 014). A
// login is counted in one transaction that holds the login CUIT's row (MySQL: a locking read of
// arca_login_cuits; SQLite: BEGIN IMMEDIATE), reads the facts core's rule needs
// (decideLogin), and writes the attempt if the rule allows it: two processes beginning at once
// for one CUIT see each other's attempts.

const internals = {
    lockRetries: 5,

    fact: (row: Record<string, unknown>): LoginAttemptFact => ({
        keyId: String(row.key_id),
        accountId: toNumber(row.account_id),
        proven: Boolean(Number(row.proven)),
        outcome: row.outcome === null || row.outcome === undefined ? null : String(row.outcome),
        endsDay: Boolean(Number(row.ends_day)),
        at: toNumber(row.posted_at ?? row.started_at)
    }),

    // The facts of decideLogin, read with `on` (the counting transaction's connection).
    async facts(knex: Knex, on: OnConnection, input: { keyCuit: string; keyId: string; day: string; at: number }): Promise<LoginFacts> {

        const [today, key, cuit] = await Promise.all([
            on(knex('sync_login_attempts').select('key_id', 'account_id', 'proven', 'outcome', 'ends_day', 'started_at', 'posted_at')
                .where({ key_cuit: input.keyCuit, day: input.day }).orderBy('id')) as Promise<Record<string, unknown>[]>,
            on(knex('arca_keys').select('proven_at', 'refused_kind', 'refused_at').where({ key_id: input.keyId }).first()) as Promise<Record<string, unknown> | undefined>,
            on(knex('arca_login_cuits').select('cleared_at').where({ key_cuit: input.keyCuit }).first()) as Promise<Record<string, unknown> | undefined>
        ]);
        const since = Math.max(input.at - weekMs, toNumber(cuit?.cleared_at ?? 0));
        const wrong = await on(internals.wrongPostsQuery(knex, input.keyCuit, since).count({ count: '*' }).first()) as { count: unknown } | undefined;
        return {
            today: today.map(internals.fact),
            key: {
                provenAt: toNullableNumber(key?.proven_at ?? null),
                refused: key && key.refused_kind !== null ? { kind: String(key.refused_kind), at: toNumber(key.refused_at) } : null
            },
            wrongPostsThisWeek: toNumber(wrong?.count ?? 0)
        };
    },

    // Unproven logins since `since` that posted the password and did not log in, or still run.
    wrongPostsQuery: (knex: Knex, keyCuit: string, since: number): Knex.QueryBuilder => knex('sync_login_attempts')
        .where({ key_cuit: keyCuit })
        .andWhere('proven', false)
        .andWhere('started_at', '>=', since)
        .andWhere((outcome) => outcome.whereNull('outcome').orWhereNot('outcome', 'ok')),

    async counted<T>(knex: Knex, work: (on: OnConnection) => Promise<T>): Promise<T> {

        for (let attempt = 1; ; attempt++) {
            try {
                if (dialectOf(knex) === 'sqlite') {
                    return await immediateTransaction(knex, work);
                }

                return await knex.transaction((trx) => work((query) => query.transacting(trx) as typeof query));
            }
            catch (err) {
                if (attempt >= internals.lockRetries || !isLockConflict(err)) {
                    throw err;
                }
            }
        }
    }
};

export const loginLedger = (knex: Knex): LoginLedger => ({

    async begin({ keyCuit, keyId, accountId, day, at, rules }) {

        await knex('arca_login_cuits').insert({ key_cuit: keyCuit, cleared_at: 0 }).onConflict('key_cuit').ignore();
        return await internals.counted(knex, async (on) => {

            const lock = knex('arca_login_cuits').select('key_cuit').where({ key_cuit: keyCuit });
            await on(dialectOf(knex) === 'mysql' ? lock.forUpdate() : lock);
            const facts = await internals.facts(knex, on, { keyCuit, keyId, day, at });
            const decision = decideLogin(facts, { keyId, accountId }, rules);
            if (!decision.allowed) {
                return { allowed: false, reason: decision.reason, ended: decision.kind === null ? null : { kind: decision.kind, at: decision.at ?? at } };
            }

            const [id] = await on(knex('sync_login_attempts').insert({
                key_cuit: keyCuit,
                key_id: keyId,
                account_id: accountId,
                day,
                proven: decision.proven,
                relogin: decision.relogin,
                started_at: at,
                ends_day: false
            }));
            return { allowed: true, attempt: Number(id), proven: decision.proven, relogin: decision.relogin };
        });
    },

    async passwordPosted(attempt, at) {

        await knex('sync_login_attempts').where({ id: attempt }).whereNull('posted_at').update({ posted_at: at });
    },

    async unposted(attempt) {

        await knex('sync_login_attempts').where({ id: attempt }).whereNull('posted_at').del();
    },

    async finish(attempt, { kind, endsDay, at }) {

        const row = await knex('sync_login_attempts').select('key_cuit', 'key_id').where({ id: attempt }).first() as Record<string, unknown> | undefined;
        await knex('sync_login_attempts').where({ id: attempt }).update({ outcome: kind, ends_day: endsDay });
        if (!row) {
            return;
        }

        const key = { key_id: String(row.key_id), key_cuit: String(row.key_cuit) };
        if (kind === 'ok') {
            await knex('arca_keys').insert({ ...key, proven_at: at }).onConflict('key_id').merge(['proven_at']);
        }
        else if (isKeyFailureKind(kind)) {
            await knex('arca_keys').insert({ ...key, refused_kind: kind, refused_at: at }).onConflict('key_id').merge(['refused_kind', 'refused_at']);
        }
    },

    async list(day, keyCuits) {

        const query = knex('sync_login_attempts').where({ day }).orderBy(['key_cuit', 'id']);
        if (keyCuits) {
            query.whereIn('key_cuit', keyCuits.length ? [...keyCuits] : ['']);
        }

        const entries = new Map<string, LoginLedgerEntry>();
        for (const row of await query as Record<string, unknown>[]) {
            const keyCuit = String(row.key_cuit);
            const entry = entries.get(keyCuit) ?? { keyCuit: keyCuit as Cuit, day, logins: 0, passwordPosts: 0, relogins: 0, ended: null, lastLoginAt: null };
            entry.logins++;
            entry.passwordPosts += row.posted_at === null ? 0 : 1;
            entry.relogins += entry.logins > 1 ? 1 : 0;
            entry.lastLoginAt = Math.max(entry.lastLoginAt ?? 0, toNumber(row.started_at));
            if (Number(row.ends_day) && row.outcome !== null) {
                entry.ended = { kind: String(row.outcome), at: toNumber(row.posted_at ?? row.started_at) };
            }

            entries.set(keyCuit, entry);
        }

        return [...entries.values()];
    },

    async keyDays(day, keyIds) {

        const days = new Map<string, KeyDayEntry>();
        for (let i = 0; i < keyIds.length; i += 500) {
            const part = keyIds.slice(i, i + 500);
            // Fixed SQL: every client's health reads it (fast/health-reads.ts).
            const rows = await statements(knex).all(keyDaysSql(part.length), [day, ...part]);
            for (const row of rows) {
                const keyId = String(row.key_id);
                const entry = days.get(keyId) ?? { keyId, passwordPosts: 0, loggedIn: false, ended: null };
                entry.passwordPosts += row.posted_at === null ? 0 : 1;
                entry.loggedIn ||= row.outcome === 'ok';
                if (Number(row.ends_day) && row.outcome !== null) {
                    entry.ended = { kind: String(row.outcome), at: toNumber(row.posted_at ?? row.started_at) };
                }

                days.set(keyId, entry);
            }
        }

        return [...days.values()];
    },

    async wrongPosts(keyCuit, now) {

        const cuit = await knex('arca_login_cuits').select('cleared_at').where({ key_cuit: keyCuit }).first() as Record<string, unknown> | undefined;
        const since = Math.max(now - weekMs, toNumber(cuit?.cleared_at ?? 0));
        const row = await internals.wrongPostsQuery(knex, keyCuit, since).count({ count: '*' }).first() as { count: unknown } | undefined;
        return toNumber(row?.count ?? 0);
    },

    async clearWrongPosts(keyCuit, at) {

        await knex('arca_login_cuits').insert({ key_cuit: keyCuit, cleared_at: at }).onConflict('key_cuit').merge(['cleared_at']);
    },

    async prune(beforeDay) {

        // The weekly cap reads 7 days back: never prune closer than that.
        return Number(await knex('sync_login_attempts').where('day', '<', beforeDay).del());
    }
});
