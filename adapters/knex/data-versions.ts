import type { Knex } from 'knex';

// Every change a read endpoint can show raises a data version in the transaction that makes
// it: the client's for its own endpoints (invoices, SCT, CCMA, DFE, sync dates), the
// account's for what lists the account's CUITs (names, registry fields, tags, who sees what).
// Reads kept in memory are served only while the version they were read at is current, so a
// change committed by any process shows on the next request. Each raise is the transaction's
// last statement, so the account row is locked only for the commit.

export const touchClient = async (trx: Knex.Transaction, clientId: number): Promise<void> => {

    await trx('clients').where({ id: clientId }).increment('data_version', 1);
};

export const touchAccount = async (trx: Knex.Transaction, accountId: number): Promise<void> => {

    await trx('accounts').where({ id: accountId }).increment('data_version', 1);
};

// A change to a client that the account's CUIT list shows too.
export const touchClientAndAccount = async (trx: Knex.Transaction, clientId: number): Promise<void> => {

    await touchClient(trx, clientId);
    await trx('accounts').whereIn('id', trx('clients').select('account_id').where({ id: clientId })).increment('data_version', 1);
};
