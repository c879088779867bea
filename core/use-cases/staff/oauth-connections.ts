import { DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import { storedEntryId } from '../../domain/oauth-entry.js';
import type { Ports } from '../../ports/index.js';
import { requireUser } from './staff-input.js';

// The MCP clients a user authorized through OAuth: one per grant (the consent they gave), named
// as the client registered itself, with when and what for. Revoking one ends its grant and
// every code and token issued under it at once (the MCP endpoint checks the grant on each
// request); the user's other connections stay. The panel's /panel/conexiones and the CLI's
// `user connections` and `user revoke-oauth --connection` run these; `revoke-oauth` alone ends them all.

export interface OAuthConnection {
    // The grant's stored id (a digest): never the grant's own id, which only the server uses.
    id: string;
    clientName: string | null;
    grantedAt: string | null;
    scopes: string[];
}

const internals = {
    grantKind: 'Grant',
    clientKind: 'Client',

    text: (value: unknown): string | null => (typeof value === 'string' && value ? value : null),

    // oidc-provider's grant: `openid.scope` and, per resource, `resources[url]`, each a
    // space-separated list.
    scopesOf(payload: Record<string, unknown>): string[] {

        const resources = (payload.resources as Record<string, unknown> | undefined) ?? {};
        const lists = [(payload.openid as { scope?: unknown } | undefined)?.scope, ...Object.values(resources)];
        return [...new Set(lists.flatMap((list) => (typeof list === 'string' ? list.split(' ').filter(Boolean) : [])))].sort();
    }
};

export const listOAuthConnections = async (deps: Pick<Ports, 'users' | 'oauthStore' | 'clock'>, input: { userId: number }): Promise<OAuthConnection[]> => {

    const user = await requireUser(deps, input.userId);
    const now = deps.clock.now().getTime();
    const grants = await deps.oauthStore.listByAccount(internals.grantKind, String(user.id), now);
    const connections = await Promise.all(grants.map(async (grant): Promise<OAuthConnection> => {

        const clientId = internals.text(grant.payload.clientId);
        const client = clientId ? await deps.oauthStore.find(internals.clientKind, storedEntryId(clientId), now) : null;
        const iat = grant.payload.iat;
        return {
            id: grant.id,
            clientName: internals.text(client?.payload.client_name) ?? clientId,
            grantedAt: typeof iat === 'number' ? new Date(iat * 1000).toISOString() : null,
            scopes: internals.scopesOf(grant.payload)
        };
    }));

    return connections.sort((a, b) => (b.grantedAt ?? '').localeCompare(a.grantedAt ?? ''));
};

// Only the user's own grant: another's, or one gone, answers not found.
export const revokeOAuthConnection = async (deps: Pick<Ports, 'users' | 'oauthStore' | 'clock'>, input: { userId: number; id: string }): Promise<{ id: string; revoked: true }> => {

    const user = await requireUser(deps, input.userId);
    const grant = await deps.oauthStore.find(internals.grantKind, input.id, deps.clock.now().getTime());
    const grantId = internals.text(grant?.payload.jti);
    if (!grant || !grantId || grant.payload.accountId !== String(user.id)) {
        throw new DomainError('not_found', messages.admin.connectionNotFound);
    }

    await deps.oauthStore.revokeByGrantId(grantId);
    await deps.oauthStore.destroy(internals.grantKind, input.id);
    return { id: input.id, revoked: true };
};
