import type { Principal, WriteChannel } from '../domain/access.js';
import { assertMayWrite } from '../domain/access.js';
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
// Order of refusals: writing not enabled through the API (403), body (400), representative
// (400), CUIT already in the account (409, decided by the unique index, so concurrent
// creations of one CUIT give one success). The panel creates with `channel` 'panel'.
export const createClient = async (deps: Deps, principal: Principal, body: unknown, channel: WriteChannel = 'api'): Promise<ClientView> => {

    assertMayWrite(principal, channel);
    const { input, failures, fields } = parseNewClient(body);
    if (!input) {
        throw invalid(failures, fields);
    }

    const representative = input.tipo === 'persona-juridica' ? await findRepresentative(deps, principal, input.representante) : null;
    const client = await newClientOf(deps, principal.accountId, input, representative?.id ?? null, deps.clock.now().getTime());
    const outcome = await deps.clients.create(client, { managerUserId: principal.role === 'owner' ? null : principal.userId });

    if (outcome.status === 'duplicate') {
        throw conflict(messages.cuitTaken);
    }

    if (outcome.status === 'representative_gone') {
        throw invalid([messages.clientWrite.representativeNotFound], { representante: messages.clientWrite.representativeNotFound });
    }

    return toClientView(outcome.client);
};
