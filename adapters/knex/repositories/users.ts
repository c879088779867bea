import type { Knex } from 'knex';
import type { Role } from '../../../core/domain/access.js';
import { touchAccount } from '../data-versions.js';
import { principalQuery, principalSelect, toPrincipal } from '../principal.js';
import type { UserRecord, UserRepository } from '../../../core/ports/index.js';
import { assignedToMember, clientColumns, toClientRecord } from '../client-rows.js';
import { toNumber } from '../column-values.js';
import { sqlByShape, statements } from '../fast/statements.js';

const internals = {
    columns: ['id', 'account_id', 'email', 'role'],
    toRecord: (row: Record<string, unknown>): UserRecord => ({
        id: toNumber(row.id),
        accountId: toNumber(row.account_id),
        email: String(row.email),
        role: row.role as Role
    }),

    // Bindings: the CUIT asked about (if any), then the user's id. Every panel page runs it,
    // as every API request runs the token's (tokens.ts): fixed SQL, the named client beside
    // the principal under the same rule (null columns when the user does not manage it).
    sessionUserSql: sqlByShape((named: number): string => (!named
        ? `${principalSelect(['u.email'])} where u.id = ?`
        : `${principalSelect(['u.email', ...clientColumns('named_')])} left join clients c on c.account_id = u.account_id and c.cuit = ? ` +
            `and (u.role = 'owner' or ${assignedToMember('u.id')}) where u.id = ?`))
};

export const userRepository = (knex: Knex, sql = statements(knex)): UserRepository => ({

    async create(input) {

        const [id] = await knex('users').insert({
            account_id: input.accountId,
            email: input.email,
            role: input.role,
            password_hash: input.passwordHash,
            created_at: input.createdAt
        });
        return Number(id);
    },

    async findById(id) {

        const row = await knex('users').select(internals.columns).where({ id }).first();
        return row ? internals.toRecord(row) : null;
    },

    async findByEmail(email) {

        const row = await knex('users').select(internals.columns).where({ email }).first();
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

        const row = await sql.first(internals.sessionUserSql(cuit ? 1 : 0), cuit ? [cuit, id] : [id]);
        if (!row) {
            return null;
        }

        const principal = toPrincipal(row);
        const named = row.named_id === null || row.named_id === undefined ? null : toClientRecord(row, 'named_');
        return { principal: cuit ? { ...principal, named: { cuit, client: named } } : principal, email: String(row.email) };
    },

    // What a member sees changes, so does the account's data version.
    async assignClient(userId, clientId) {

        await knex.transaction(async (trx) => {

            const user = await trx('users').select('account_id').where({ id: userId }).first();
            if (user) {
                await touchAccount(trx, toNumber(user.account_id));
            }

            await trx('user_clients').insert({ user_id: userId, client_id: clientId }).onConflict(['user_id', 'client_id']).ignore();
        });
    }
});
