import type { Knex } from 'knex';
import type { Statements, Step } from './fast/statements.js';
import { statementsOf } from './fast/statements.js';

// Every change a read endpoint can show raises a data version in the transaction that makes
// it: the client's for its own endpoints (invoices, SCT, CCMA, DFE, sync dates), the
// account's for what lists the account's CUITs (names, registry fields, tags, who sees what).
// Reads kept in memory are served only while the version they were read at is current, so a
// change committed by any process shows on the next request.
//
// On MySQL each version is raised FIRST in its transaction, the account's before the
// client's: inserting a row that references a parent takes a shared lock on the parent's row
// (foreign key check), and a writer turning its shared lock into the raise's exclusive one
// while another waits deadlocks. Taken first and in one order, writers just queue.

export const touchAccount = async (trx: Knex.Transaction, accountId: number): Promise<void> => {

    await trx('accounts').where({ id: accountId }).increment('data_version', 1);
};

// The account of a client, read without locking (a client never changes account), then raised.
export const touchAccountOfClient = async (trx: Knex.Transaction, clientId: number): Promise<void> => {

    const client = await trx('clients').select('account_id').where({ id: clientId }).first();
    if (client) {
        await touchAccount(trx, Number(client.account_id));
    }
};

// Fixed SQL: it opens every write of synchronized data (in a knex transaction or a
// statementsTransaction).
export const touchClientStep = (clientId: number): Step => ({ sql: 'update clients set data_version = data_version + 1 where id = ?', bindings: [clientId] });

export const touchClient = async (trx: Knex.Transaction | Statements, clientId: number): Promise<void> => {

    const { sql, bindings } = touchClientStep(clientId);
    await statementsOf(trx).run(sql, bindings);
};
