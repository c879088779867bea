import type { Principal, WriteChannel } from '../domain/access.js';
import { assertMayWrite } from '../domain/access.js';
import { conflict, notFound } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { Ports } from '../ports/index.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import { findVisibleClient } from './find-visible-client.js';

// docs/api.md, Writes: the client and everything in the delete cascade (deleteCascade,
// core/domain/client.ts: its data, sync states and jobs, so pending synchronizations are
// cancelled) go in one transaction; refused (409, nothing deleted) while it represents a legal
// entity of the account. Irreversible. The panel deletes with `channel` 'panel' (create-client.ts).
export const deleteClient = async (
    deps: Pick<Ports, 'clients'>, principal: Principal, cuitInput: string, channel: WriteChannel = 'api'
): Promise<{ cuit: string }> => {

    assertMayWrite(principal, channel);
    const { cuit } = parseReadRequest({ path: { cuit: cuitInput }, query: {} }, ['cuit']);
    const client = await findVisibleClient(deps, principal, cuit);
    const outcome = await deps.clients.delete(client.id);
    if (outcome === 'represents') {
        throw conflict(messages.clientWrite.representsEntities);
    }

    if (outcome === 'absent') {
        throw notFound();
    }

    return { cuit: client.cuit };
};
