import type { Cuit } from '../../domain/cuit.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';
import { parseStaffCuit, requireAccount } from '../staff/staff-input.js';
import type { QueueDeps } from './deps.js';

// Staff name a CUIT; every account's client with it is a target (404 when none has it).
export const findSyncTargets = async (deps: Pick<QueueDeps, 'syncTargets'>, cuitInput: string) => {

    const cuit = parseStaffCuit(cuitInput);
    const clients = await deps.syncTargets.findByCuit(cuit);
    if (!clients.length) {
        throw notFound();
    }

    return { cuit, clients };
};

// A CUIT that several accounts manage, named without the account: each account's client is
// another tenant's, with its own key, so staff say which one (the front end shows `accounts`).
export class CuitInSeveralAccounts extends DomainError {

    readonly cuit: Cuit;
    readonly accounts: readonly { id: number; name: string }[];

    constructor(cuit: Cuit, accounts: readonly { id: number; name: string }[]) {

        super('conflict', messages.sync.severalAccounts(cuit, accounts));
        this.name = 'CuitInSeveralAccounts';
        this.cuit = cuit;
        this.accounts = accounts;
    }
}

export type AccountTargetDeps = Pick<QueueDeps, 'syncTargets'> & Pick<Ports, 'accounts'>;

// Staff acting on one client of a CUIT (resync, sync --cuit, authority probe): the account's
// client when `accountId` is given; without it, the only client of the CUIT, or, when several
// accounts manage it, a refusal listing them (never every account's client at once).
export const findAccountTarget = async (
    deps: AccountTargetDeps,
    cuitInput: string,
    accountId?: number
): Promise<{ cuit: Cuit; client: { id: number; accountId: number } }> => {

    const cuit = parseStaffCuit(cuitInput);
    if (accountId !== undefined) {
        await requireAccount(deps, accountId);
    }

    const clients = await deps.syncTargets.findByCuit(cuit);
    if (accountId !== undefined) {
        const client = clients.find((candidate) => candidate.accountId === accountId);
        if (!client) {
            throw new DomainError('not_found', messages.admin.cuitNotInAccount(cuit, accountId));
        }

        return { cuit, client };
    }

    if (!clients.length) {
        throw notFound();
    }

    const accountIds = [...new Set(clients.map((client) => client.accountId))];
    if (accountIds.length > 1) {
        const accounts = await Promise.all(accountIds.map(async (id) => ({ id, name: (await deps.accounts.findById(id))?.name ?? '' })));
        throw new CuitInSeveralAccounts(cuit, accounts);
    }

    return { cuit, client: clients[0]! };
};
