import type { Principal } from '../domain/access.js';
import type { ClientRecord } from '../domain/client.js';
import { parseCuit } from '../domain/cuit.js';
import { invalid, notFound } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { Ports } from '../ports/index.js';

// A CUIT the principal does not manage is answered exactly like one that does not exist
// (SPEC §7), so nobody can probe other accounts' portfolios.
export const findVisibleClient = async (deps: Pick<Ports, 'clients'>, principal: Principal, cuitInput: string): Promise<ClientRecord> => {

    const cuit = parseCuit(cuitInput);
    if (!cuit) {
        throw invalid([messages.field.cuitPath]);
    }

    const client = await deps.clients.findVisible(principal, cuit);
    if (!client) {
        throw notFound();
    }

    return client;
};
