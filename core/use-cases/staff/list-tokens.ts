import type { Ports } from '../../ports/index.js';
import { requireAccount, requireUser } from './staff-input.js';

// The tokens of a user or of an account, for the id that `token revoke` takes. A token is
// shown once, when created: here only its id, name, first characters (the prefix the holder
// sees at the start of theirs) and dates, the last use among them (null: never used; recorded
// at most every few minutes, core/domain/token.ts).
export const listTokens = async (deps: Pick<Ports, 'accounts' | 'users' | 'tokens'>, input: {
    userId?: number | undefined;
    accountId?: number | undefined;
}) => {

    if (input.userId !== undefined) {
        await requireUser(deps, input.userId);
    }

    if (input.accountId !== undefined) {
        await requireAccount(deps, input.accountId);
    }

    const tokens = await deps.tokens.list({
        ...(input.userId === undefined ? {} : { userId: input.userId }),
        ...(input.accountId === undefined ? {} : { accountId: input.accountId })
    });

    return {
        tokens: tokens.map((token) => ({
            id: token.id,
            userId: token.userId,
            name: token.name,
            prefix: token.hint,
            createdAt: new Date(token.createdAt).toISOString(),
            revokedAt: token.revokedAt === null ? null : new Date(token.revokedAt).toISOString(),
            lastUsedAt: token.lastUsedAt === null ? null : new Date(token.lastUsedAt).toISOString()
        }))
    };
};
