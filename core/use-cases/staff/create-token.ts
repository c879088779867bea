import { generateToken, hashToken, tokenHint } from '../../domain/token.js';
import type { Ports } from '../../ports/index.js';
import { parseStaffName, requireUser, staffNames } from './staff-input.js';

// The token is returned once and only its digest is kept.
export const createToken = async (deps: Pick<Ports, 'users' | 'tokens' | 'clock'>, input: { userId: number; name?: string | undefined }) => {

    const name = input.name === undefined ? null : parseStaffName(input.name, staffNames.token) || null;
    const user = await requireUser(deps, input.userId);
    const token = generateToken();
    const id = await deps.tokens.create({
        userId: user.id,
        name,
        tokenHash: hashToken(token),
        hint: tokenHint(token),
        createdAt: deps.clock.now().getTime()
    });

    return { id, token };
};
