import type { Ports } from '../../ports/index.js';
import { requireUser } from './staff-input.js';

// Staff end every OAuth authorization of a user (MCP clients): grants, access and refresh
// tokens, sessions. The next MCP request with those tokens answers 401; the user authorizes
// again. API tokens are apart (`token revoke`).
export const revokeOAuth = async (deps: Pick<Ports, 'users' | 'oauthStore'>, input: { userId: number }): Promise<{ id: number; revoked: number }> => {

    const user = await requireUser(deps, input.userId);
    return { id: user.id, revoked: await deps.oauthStore.revokeAccount(String(user.id)) };
};
