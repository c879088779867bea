import type { Knex } from 'knex';
import type { Role } from '../../../core/domain/access.js';
import { keepsAnOwner } from '../../../core/domain/access.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { dialectOf } from '../connection.js';
import { touchAccount } from '../data-versions.js';
import { isUniqueViolation } from '../errors.js';
import { principalQuery, toPrincipal } from '../principal.js';
import type { UserRecord, UserRepository } from '../../../core/ports/index.js';
import { toClientRecord } from '../client-rows.js';
import { toNumber } from '../column-values.js';
import { sessionUserSql } from '../fast/session-user.js';
import { statements } from '../fast/statements.js';

const internals = {
    columns: ['id', 'account_id', 'email', 'role'],
    // Rows per statement for a large selection (bound parameters well under either limit).
    chunk: 500,

    // A member's assignments changed for many clients in one transaction, with the account's
    // data version; a user gone meanwhile changes nothing.
    async changeAssignments(
        knex: Knex,
        userId: number,
        clientIds: readonly number[],
        change: (trx: Knex.Transaction, accountId: number, clientIds: readonly number[]) => Promise<unknown>
    ): Promise<void> {

        await knex.transaction(async (trx) => {

            const user = await trx('users').select('account_id').where({ id: userId }).first();
            if (!user) {
                return;
            }

            const accountId = toNumber(user.account_id);
            await touchAccount(trx, accountId);
            for (let at = 0; at < clientIds.length; at += internals.chunk) {
                await change(trx, accountId, clientIds.slice(at, at + internals.chunk));
            }
        });
    },

    toRecord: (row: Record<string, unknown>): UserRecord => ({
        id: toNumber(row.id),
        accountId: toNumber(row.account_id),
        email: String(row.email),
        role: row.role as Role
    }),

    // A change to a user's role or membership, in one transaction that first raises the
    // account's data version (the account's cached lists change: who sees what), which
    // serializes such changes of one account, then applies the core's rule to the account's
    // users as they are now. On MySQL the plain read of the account takes no lock, the raise
    // locks the account's row, and the team is read with a locking read (the latest committed
    // rows, not the transaction's snapshot); on SQLite the raise is the first statement, so the
    // transaction holds the write lock before it reads anything.
    async teamChange<T extends string>(knex: Knex, id: number, role: Role | null, write: (trx: Knex.Transaction) => Promise<unknown>, done: T) {

        const mysql = dialectOf(knex) === 'mysql';
        return knex.transaction(async (trx): Promise<T | 'last_owner' | 'absent'> => {

            let accountId: number;
            if (mysql) {
                const user = await trx('users').select('account_id').where({ id }).first();
                if (!user) {
                    return 'absent';
                }

                accountId = toNumber(user.account_id);
                await touchAccount(trx, accountId);
            }
            else {
                const raised = await trx('accounts').whereIn('id', trx('users').select('account_id').where({ id })).increment('data_version', 1);
                const user = raised ? await trx('users').select('account_id').where({ id }).first() : undefined;
                if (!user) {
                    return 'absent';
                }

                accountId = toNumber(user.account_id);
            }

            const read = trx('users').select('id', 'role').where({ account_id: accountId });
            const team = (await (mysql ? read.forUpdate() : read)).map((row) => ({ id: toNumber(row.id), role: row.role as Role }));
            if (!team.some((row) => row.id === id)) {
                return 'absent';
            }

            if (!keepsAnOwner(team, { userId: id, role })) {
                return 'last_owner';
            }

            await write(trx);
            return done;
        });
    }
};

export const userRepository = (knex: Knex, sql = statements(knex)): UserRepository => ({

    async create(input) {

        try {
            const [id] = await knex('users').insert({
                account_id: input.accountId,
                email: input.email,
                role: input.role,
                password_hash: input.passwordHash,
                signin_email: input.passwordHash === null ? null : input.email,
                created_at: input.createdAt
            });
            return Number(id);
        }
        catch (err) {
            if (isUniqueViolation(err)) {
                return null;
            }

            throw err;
        }
    },

    async findById(id) {

        const row = await knex('users').select(internals.columns).where({ id }).first();
        return row ? internals.toRecord(row) : null;
    },

    async findByEmail(email) {

        const row = await knex('users').select(internals.columns).where({ signin_email: email }).first();
        return row ? internals.toRecord(row) : null;
    },

    async list() {

        const rows = await knex('users').select(internals.columns).orderBy('id');
        return rows.map(internals.toRecord);
    },

    async listByAccount(accountId) {

        const rows = await knex('users').select(internals.columns).where({ account_id: accountId }).orderBy('id');
        return rows.map(internals.toRecord);
    },

    async findPrincipal(id) {

        const row = await principalQuery(knex).where('u.id', id).first() as Record<string, unknown> | undefined;
        return row ? toPrincipal(row) : null;
    },

    async findSessionUser(id, cuit) {

        const row = await sql.first(sessionUserSql(cuit ? 1 : 0), cuit ? [cuit, id] : [id]);
        if (!row) {
            return null;
        }

        const principal = toPrincipal(row);
        const named = row.named_id === null || row.named_id === undefined ? null : toClientRecord(row, 'named_');
        return { principal: cuit ? { ...principal, named: { cuit, client: named } } : principal, email: String(row.email) };
    },

    // What a member sees changes, so does the account's data version.
    assignClients(userId, clientIds) {

        return internals.changeAssignments(knex, userId, clientIds, async (trx, accountId, part) => {

            // Only clients still in the user's account: one deleted meanwhile is left out.
            const present = (await trx('clients').pluck('id').whereIn('id', part).where({ account_id: accountId })).map(toNumber);
            if (present.length) {
                await trx('user_clients').insert(present.map((clientId) => ({ user_id: userId, client_id: clientId }))).onConflict(['user_id', 'client_id']).ignore();
            }
        });
    },

    unassignClients(userId, clientIds) {

        return internals.changeAssignments(knex, userId, clientIds, (trx, _accountId, part) => trx('user_clients').where({ user_id: userId }).whereIn('client_id', part).delete());
    },

    async assignedCuits(userId) {

        const rows = await knex('user_clients as uc').join('clients as c', 'c.id', 'uc.client_id').where('uc.user_id', userId).orderBy('c.cuit').select('c.cuit');
        return rows.map((row) => String(row.cuit) as Cuit);
    },

    async listTeam(accountId) {

        const rows = await knex('users as u')
            .where('u.account_id', accountId)
            .select('u.id', 'u.account_id', 'u.email', 'u.role', 'u.password_hash')
            .select(knex.raw('(select count(*) from user_clients uc where uc.user_id = u.id) as assigned_count'))
            .orderBy('u.id');
        return rows.map((row: Record<string, unknown>) => ({
            ...internals.toRecord(row),
            assignedCount: toNumber(row.assigned_count),
            pending: row.password_hash === null
        }));
    },

    setRole: (id, role) => internals.teamChange(knex, id, role, (trx) => trx('users').where({ id }).update({ role }), 'changed'),

    // Tokens, assignments, invitations and rate-limit rows go by their foreign keys' cascade.
    remove: (id) => internals.teamChange(knex, id, null, (trx) => trx('users').where({ id }).delete(), 'removed')
});
