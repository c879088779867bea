import type { Principal } from '../domain/access.js';
import type { ReadRequest } from '../domain/read-request.js';
import { parseReadRequest } from '../contract/read-parameters.js';
import type { Notification } from '../domain/notification.js';
import type { Pagination } from '../domain/pagination.js';
import { toIso } from '../domain/time.js';
import type { Ports } from '../ports/index.js';
import { cachedRead } from './cached-read.js';
import { clientSyncedAt } from './client-synced-at.js';
import { findVisibleClient } from './find-visible-client.js';

export interface NotificationsResult {
    data: Notification[];
    pagination: Pagination;
    syncedAt: string | null;
}

export const listNotificationsParameters = ['cuit', 'limit', 'offset'] as const;

// docs/api.md, Reads: electronic-address notifications, most recent first.
export const listNotifications = async (
    deps: Pick<Ports, 'clients' | 'notifications' | 'syncStates' | 'readCache'>,
    principal: Principal,
    request: ReadRequest
): Promise<NotificationsResult> => {

    const input = parseReadRequest(request, listNotificationsParameters);
    const page = { limit: input.limit, offset: input.offset };
    const client = await findVisibleClient(deps, principal, input.cuit);
    return cachedRead(deps.readCache, `dfe:${client.id}:${page.limit}:${page.offset}`, client.dataVersion, async () => {

        const [result, syncedAt] = await Promise.all([
            deps.notifications.list(client.id, page),
            clientSyncedAt(deps, client, 'dfe')
        ]);

        return { data: result.items, pagination: { ...page, total: result.total }, syncedAt: toIso(syncedAt) };
    });
};
