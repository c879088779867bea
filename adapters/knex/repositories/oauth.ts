import type { Knex } from 'knex';
import type { OAuthEntry, OAuthStore, UserCredentialRepository } from '../../../core/ports/index.js';
import { toNullableNumber, toNumber } from '../column-values.js';
import { isUniqueViolation } from '../errors.js';

const internals = {
    toEntry: (row: Record<string, unknown> | undefined): OAuthEntry | null => (row ? {
        payload: JSON.parse(String(row.payload)) as Record<string, unknown>,
        consumedAt: toNullableNumber(row.consumed_at)
    } : null),

    live: (query: Knex.QueryBuilder, now: number) => query.where((where) => where.whereNull('expires_at').orWhere('expires_at', '>', now)),

    // The OAuth server's own keys are entries of this kind, never expiring, their sealed value
    // in the payload's `sealed` (as servers/oauth/provider.ts has always stored them).
    serverSecret: 'ServerSecret',

    sealedOf(payload: unknown): string | null {

        const sealed = (JSON.parse(String(payload)) as { sealed?: unknown }).sealed;
        return typeof sealed === 'string' ? sealed : null;
    }
};

export const oauthStore = (knex: Knex): OAuthStore => ({

    async upsert(kind, id, payload, expiresAt, index) {

        const row = {
            kind,
            id,
            payload: JSON.stringify(payload),
            grant_id: index.grantId ?? null,
            user_code: index.userCode ?? null,
            uid: index.uid ?? null,
            account_id: index.accountId ?? null,
            expires_at: expiresAt
        };
        await knex('oauth_entries').insert({ ...row, consumed_at: null }).onConflict(['kind', 'id']).merge(
            ['payload', 'grant_id', 'user_code', 'uid', 'account_id', 'expires_at']
        );
    },

    async find(kind, id, now) {

        // Every panel page looks its session up by it; through the builder, as fixed SQL saved
        // ~0.1 ms a page (SQLite 47 against 180 µs of the event loop, MariaDB 178 against 281;
        // 2026-11-28, d097129), under bench:panel's noise.
        return internals.toEntry(await internals.live(knex('oauth_entries').select('payload', 'consumed_at').where({ kind, id }), now).first());
    },

    async findByUid(kind, uid, now) {

        return internals.toEntry(await internals.live(knex('oauth_entries').select('payload', 'consumed_at').where({ kind, uid }), now).first());
    },

    async findByUserCode(kind, userCode, now) {

        return internals.toEntry(
            await internals.live(knex('oauth_entries').select('payload', 'consumed_at').where({ kind, user_code: userCode }), now).first()
        );
    },

    async consume(kind, id, at) {

        await knex('oauth_entries').where({ kind, id }).update({ consumed_at: at });
    },

    async destroy(kind, id) {

        await knex('oauth_entries').where({ kind, id }).delete();
    },

    async revokeByGrantId(grantId) {

        await knex('oauth_entries').where({ grant_id: grantId }).delete();
    },

    async listByAccount(kind, accountId, now) {

        const rows = await internals.live(knex('oauth_entries').select('id', 'payload', 'consumed_at').where({ kind, account_id: accountId }), now).orderBy('id');
        return rows.map((row: Record<string, unknown>) => ({ id: String(row.id), ...internals.toEntry(row)! }));
    },

    async revokeAccount(accountId) {

        return knex('oauth_entries').where({ account_id: accountId }).delete();
    },

    async count(kind, now) {

        const row = await internals.live(knex('oauth_entries').count({ count: '*' }).where({ kind }), now).first();
        return toNumber(row?.count ?? 0);
    },

    async keep(kind, id) {

        await knex('oauth_entries').where({ kind, id }).whereNotNull('expires_at').update({ expires_at: null });
    },

    async dropSoonestExpiring(kind, now) {

        const soonest = await knex('oauth_entries').select('id').where({ kind }).andWhere('expires_at', '>', now).orderBy('expires_at', 'asc').first();
        return soonest ? await knex('oauth_entries').where({ kind, id: soonest.id }).delete() > 0 : false;
    },

    async sealedServerSecret(id) {

        const row = await knex('oauth_entries').select('payload').where({ kind: internals.serverSecret, id }).first();
        return row ? internals.sealedOf(row.payload) : null;
    },

    async addSealedServerSecret(id, sealed) {

        // Two processes starting together: the first one stored wins, both read it back.
        await knex('oauth_entries').insert({ kind: internals.serverSecret, id, payload: JSON.stringify({ sealed }), expires_at: null, consumed_at: null })
            .onConflict(['kind', 'id']).ignore();
    },

    async listSealedServerSecrets(afterId, limit) {

        const rows = await knex('oauth_entries').select('id', 'payload').where({ kind: internals.serverSecret }).andWhere('id', '>', afterId).orderBy('id').limit(limit);
        return rows.flatMap((row: Record<string, unknown>) => {

            const sealed = internals.sealedOf(row.payload);
            return sealed === null ? [] : [{ id: String(row.id), sealedKey: sealed }];
        });
    },

    async replaceSealedServerSecret(id, expected, next) {

        // The payload as read is the compare-and-set's expected value, so whatever else it
        // holds stays as it is.
        const row = await knex('oauth_entries').select('payload').where({ kind: internals.serverSecret, id }).first();
        if (!row || internals.sealedOf(row.payload) !== expected) {
            return false;
        }

        const payload = { ...JSON.parse(String(row.payload)) as Record<string, unknown>, sealed: next };
        return await knex('oauth_entries').where({ kind: internals.serverSecret, id, payload: row.payload }).update({ payload: JSON.stringify(payload) }) === 1;
    }
});

export const userCredentialRepository = (knex: Knex): UserCredentialRepository => ({

    async passwordHash(userId) {

        const row = await knex('users').select('password_hash').where({ id: userId }).first();
        return row?.password_hash ? String(row.password_hash) : null;
    },

    async setPasswordHash(userId, hash) {

        try {
            return (await knex('users').where({ id: userId }).update({ password_hash: hash, signin_email: knex.ref('email') })) > 0 ? 'set' : 'no-user';
        }
        catch (err) {
            // The unique sign-in address decides between two invitees accepting at once.
            if (isUniqueViolation(err)) {
                return 'address-taken';
            }

            throw err;
        }
    }
});
