import type { Principal } from '../domain/access.js';
import type { ClientRecord } from '../domain/client.js';
import type { Cuit } from '../domain/cuit.js';
import { notFound } from '../domain/errors.js';
import type { Ports } from '../ports/index.js';

// A CUIT the principal does not manage is answered exactly like one that does not exist
// (docs/api.md, Errors), so nobody can probe other accounts' portfolios. The CUIT comes parsed
// (read-parameters.ts), so its one rule and message live there. When the principal was looked
// up with this CUIT (find-token-user.ts), that answer is the client.
export const findVisibleClient = async (deps: Pick<Ports, 'clients'>, principal: Principal, cuit: Cuit): Promise<ClientRecord> => {

    const client = principal.named?.cuit === cuit ? principal.named.client : await deps.clients.findVisible(principal, cuit);
    if (!client) {
        throw notFound();
    }

    return client;
};
