import type { Principal } from '../domain/access.js';
import type { ClientRecord } from '../domain/client.js';
import type { Cuit } from '../domain/cuit.js';
import { invalid } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { Ports } from '../ports/index.js';

// docs/api.md, Writes: a legal entity's representative is a physical person already loaded in the
// same account; absent, foreign and legal entities alike answer 400. It must also be one the
// principal manages: a member naming a person it was not assigned would otherwise have the
// entity synchronized with that person's key, so that gets the same 400.
export const findRepresentative = async (deps: Pick<Ports, 'clients'>, principal: Principal, cuit: Cuit): Promise<ClientRecord> => {

    const representative = await deps.clients.findVisible(principal, cuit);
    if (!representative || representative.tipo !== 'persona-fisica') {
        throw invalid([messages.clientWrite.representativeNotFound], { representante: messages.clientWrite.representativeNotFound });
    }

    return representative;
};
