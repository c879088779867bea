import type { Knex } from 'knex';
import type { Principal, Role, SubscriptionState } from '../../core/domain/access.js';
import { toBoolean, toNumber } from './column-values.js';

// Who a request acts as: a user with its account's live flags and data version, looked up on
// every request (by API token digest, or by user id for an OAuth grant) in one statement.

const internals = {
    columns: ['u.id as user_id', 'u.account_id', 'u.role', 'a.writing_enabled', 'a.subscription', 'a.data_version'],
    from: 'from users u inner join accounts a on a.id = u.account_id'
};

// The principal's columns, after any the caller adds (say, what it looked the user up by), as
// fixed SQL for the token lookup every API request makes (fast/statements.ts).
export const principalSelect = (extra: readonly string[] = []): string => `select ${[...extra, ...internals.columns].join(', ')} ${internals.from}`;

// The same through knex's builder, for the lookups no benchmark measures (an OAuth grant's user).
export const principalQuery = (knex: Knex): Knex.QueryBuilder => knex('users as u').innerJoin('accounts as a', 'a.id', 'u.account_id').select(internals.columns);

export const toPrincipal = (row: Record<string, unknown>): Principal => ({
    userId: toNumber(row.user_id),
    accountId: toNumber(row.account_id),
    role: row.role as Role,
    writingEnabled: toBoolean(row.writing_enabled),
    subscription: row.subscription as SubscriptionState,
    dataVersion: toNumber(row.data_version)
});
