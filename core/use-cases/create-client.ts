import type { Principal } from '../domain/access.js';
import { assertWritingEnabled } from '../domain/access.js';
import type { ClientView } from '../domain/client.js';
import { toClientView } from '../domain/client.js';
import { parseNewClient } from '../contract/client-body.js';
import { conflict, invalid } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { Ports } from '../ports/index.js';
import { findRepresentative } from './find-representative.js';
import { newClientOf } from './new-client.js';

type Deps = Pick<Ports, 'clients' | 'secretBox' | 'keyIdentity' | 'clock'>;

// docs/api.md, Writes: a new client of the principal's account, its key sealed, its first
// synchronization requested in the same transaction; a member who creates it manages it.
// Order of refusals: writing not enabled (403), body (400), representative (400), CUIT
// already in the account (409, decided by the unique index, so concurrent creations of one
// CUIT give one success).
export const createClient = async (deps: Deps, principal: Principal, body: unknown): Promise<ClientView> => {

    assertWritingEnabled(principal);
    const { input, failures } = parseNewClient(body);
    if (!input) {
        throw invalid(failures);
    }

    const representative = input.tipo === 'persona-juridica' ? await findRepresentative(deps, principal, input.representante) : null;
    const outcome = await deps.clients.create(
        await newClientOf(deps, principal.accountId, input, representative?.id ?? null, deps.clock.now().getTime())
        , { managerUserId: principal.role === 'owner' ? null : principal.userId });

    if (outcome.status === 'duplicate') {
        throw conflict(messages.cuitTaken);
    }

    if (outcome.status === 'representative_gone') {
        throw invalid([messages.clientWrite.representativeNotFound]);
    }

    return toClientView(outcome.client);
};
