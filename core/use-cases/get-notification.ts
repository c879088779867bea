import type { Principal } from '../domain/access.js';
import { assertSubscriptionActive } from '../domain/access.js';
import type { Cuit } from '../domain/cuit.js';
import { notFound } from '../domain/errors.js';
import type { Notification } from '../domain/notification.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import { findVisibleClient } from './find-visible-client.js';

// One notification of a CUIT's electronic address, by the authority's id (the panel's
// notification page): the same 404 for a CUIT the principal does not manage and for an id the
// CUIT does not have. Only what the sync stored: the authority is never asked.
export const getNotification = async (
    deps: Pick<Ports, 'clients' | 'notifications' | 'readCache'>,
    principal: Principal,
    input: { cuit: Cuit; arcaId: string }
): Promise<Notification> => {

    assertSubscriptionActive(principal);
    const client = await findVisibleClient(deps, principal, input.cuit);
    const found = await cachedRead(deps.readCache, `dfe-one:${client.id}:${input.arcaId}`, client.dataVersion, () => deps.notifications.find(client.id, input.arcaId));
    if (!found) {
        throw notFound();
    }

    return found;
};
