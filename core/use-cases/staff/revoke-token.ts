import { DomainError } from '../../domain/errors.js';
import { messages } from '../../domain/messages.js';
import type { Ports } from '../../ports/index.js';

// Revocation is immediate: the next request with the token answers 401. With `userId` (a
// user revoking from the panel) only that user's own tokens: another's answers as if absent.
export const revokeToken = async (deps: Pick<Ports, 'tokens' | 'clock'>, input: { id: number; userId?: number | undefined }) => {

    const token = await deps.tokens.findById(input.id);
    if (!token || (input.userId !== undefined && token.userId !== input.userId)) {
        throw new DomainError('not_found', messages.admin.tokenNotFound(input.id));
    }

    if (token.revokedAt === null) {
        await deps.tokens.revoke(token.id, deps.clock.now().getTime());
    }

    return { id: token.id, revoked: true };
};
