import type { Principal } from '../domain/access.js';
import { assertSubscriptionActive } from '../domain/access.js';
import type { Cuit } from '../domain/cuit.js';
import { notFound } from '../domain/errors.js';
import type { Notification } from '../domain/notification.js';
import type { Ports } from '../ports/index.js';
import { findVisibleClient } from './find-visible-client.js';

// SPEC, DFE notification: leidaAt is when it was marked read in the service. Marking it read
// keeps the first leidaAt (reading it again is not news); marking it unread clears it. The
// REST API and MCP serve the change on their next read (the client's data version moves with
// it). The notification is never opened at the authority: its read state there stays as it is.
export const markNotificationRead = async (
    deps: Pick<Ports, 'clients' | 'notifications' | 'clock'>,
    principal: Principal,
    input: { cuit: Cuit; arcaId: string; read: boolean }
): Promise<Notification> => {

    assertSubscriptionActive(principal);
    const client = await findVisibleClient(deps, principal, input.cuit);
    const marked = await deps.notifications.setRead(client.id, input.arcaId, input.read ? deps.clock.now().getTime() : null);
    if (!marked) {
        throw notFound();
    }

    return marked;
};
